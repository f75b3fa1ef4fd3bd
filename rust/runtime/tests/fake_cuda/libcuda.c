/* A fake libcuda for testing the runtime's CUDA layer on machines without a
 * GPU (tests/cuda_fake.rs builds it and runs the layer's selftest over it).
 *
 * One device whose "device memory" is host memory; every call is
 * synchronous. Only the driver functions the layer calls exist. Kernels are
 * emulated by name: those of examples/cuda_selftest.ptx (saxpy, empty,
 * poke, bump_table). `poke` of an address below 64 KiB is a fault: it
 * leaves a sticky CUDA_ERROR_ILLEGAL_ADDRESS that every later call returns
 * until the primary context is reset, as some real drivers do; with
 * FAKE_CUDA_UNRECOVERABLE=1 in the environment nothing clears it (no reset,
 * no new context), as CUDA documents for sticky errors. Built with
 * -DFAKE_OLD_DRIVER it lacks one function the layer needs.
 * The "cubin" of the JIT is the PTX text behind a magic line. */

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

enum {
    OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_INITIALIZED = 3, INVALID_DEVICE = 101,
    INVALID_IMAGE = 200, INVALID_CONTEXT = 201, INVALID_PTX = 218, INVALID_HANDLE = 400, NOT_FOUND = 500,
    NOT_READY = 600, ILLEGAL_ADDRESS = 700
};

#define TOTAL_MEMORY (4ull << 30)
static const char MAGIC[] = "FAKECUBIN\n";

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int initialised, sticky, retained, unrecoverable, primary_flags;
static unsigned long long allocated;
static int ctx_object; /* the primary context is &ctx_object */
static __thread void *current;

struct block { void *p; size_t n; struct block *next; };
static struct block *device_blocks, *pinned;

static void add(struct block **list, void *p, size_t n) {
    struct block *b = malloc(sizeof *b);
    b->p = p; b->n = n; b->next = *list; *list = b;
}
static size_t take(struct block **list, void *p) {
    for (struct block **b = list; *b; b = &(*b)->next)
        if ((*b)->p == p) { struct block *d = *b; size_t n = d->n; *b = d->next; free(d); return n; }
    return (size_t)-1;
}
/* Module globals: as the real driver, a copy out of one must not run past its end. */
static struct block *module_globals;
static int past_a_global(const void *p, size_t n) {
    for (struct block *b = module_globals; b; b = b->next)
        if ((const char *)p >= (const char *)b->p && (const char *)p < (const char *)b->p + b->n)
            return (const char *)p + n > (const char *)b->p + b->n;
    return 0;
}
static int inside(struct block *list, const void *p) {
    for (; list; list = list->next)
        if ((const char *)p >= (const char *)list->p && (const char *)p < (const char *)list->p + list->n) return 1;
    return 0;
}

/* Every driver call counts (fake_cuda_calls): tests/launch_cost.rs checks
   how many calls a launch makes. */
static unsigned long long driver_calls;
#define CALLED() __atomic_add_fetch(&driver_calls, 1, __ATOMIC_RELAXED)
unsigned long long fake_cuda_calls(void) { return __atomic_load_n(&driver_calls, __ATOMIC_RELAXED); }

#define LIVE() do { if (!initialised) return NOT_INITIALIZED; if (sticky) return sticky; } while (0)

CUresult cuInit(unsigned flags) { CALLED();
    (void)flags;
    const char *u = getenv("FAKE_CUDA_UNRECOVERABLE");
    unrecoverable = u && *u && *u != '0';
    /* As a real driver in a child of fork() whose parent initialised it. */
    const char *f = getenv("FAKE_CUDA_INIT_FAILS");
    if (f && *f && *f != '0') return NOT_INITIALIZED;
    initialised = 1;
    return OK;
}
CUresult cuDriverGetVersion(int *v) { CALLED(); *v = 13000; return OK; }
CUresult cuDeviceGetCount(int *n) { CALLED(); if (!initialised) return NOT_INITIALIZED; *n = 1; return OK; }
CUresult cuDeviceGet(CUdevice *d, int ordinal) { CALLED(); if (ordinal != 0) return INVALID_DEVICE; *d = 0; return OK; }
CUresult cuDeviceGetName(char *name, int len, CUdevice d) { CALLED(); (void)d; strncpy(name, "Fake CUDA device", len); name[len - 1] = 0; return OK; }
CUresult cuDeviceTotalMem_v2(size_t *b, CUdevice d) { CALLED(); (void)d; *b = TOTAL_MEMORY; return OK; }
CUresult cuDeviceGetAttribute(int *v, int attr, CUdevice d) { CALLED();
    (void)d;
    switch (attr) {
    case 1: *v = 1024; break;    /* max threads per block */
    case 10: *v = 32; break;     /* warp size */
    case 13: *v = 1980000; break;/* clock kHz */
    case 16: *v = 132; break;    /* SMs */
    case 36: *v = 2619000; break;
    case 37: *v = 5120; break;
    case 75: *v = 9; break;      /* cc major */
    case 76: *v = 0; break;
    default: *v = 0;
    }
    return OK;
}

CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice d) { CALLED(); (void)d; if (unrecoverable && sticky) return sticky; retained++; *ctx = &ctx_object; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice d) { CALLED(); (void)d; if (retained) retained--; if (!retained && !unrecoverable) sticky = 0; return OK; }
CUresult cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active) { CALLED(); (void)d; *flags = primary_flags; *active = retained > 0; return OK; }
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned flags) { CALLED(); (void)d; primary_flags = flags; return OK; }
static int own_ctx_object;
CUresult cuCtxCreate_v2(void **ctx, unsigned flags, CUdevice d) { CALLED();
    (void)flags; (void)d;
    if (!initialised) return NOT_INITIALIZED;
    if (unrecoverable && sticky) return sticky;
    sticky = 0;
    *ctx = &own_ctx_object;
    current = *ctx;
    return OK;
}
CUresult cuCtxDestroy_v2(void *ctx) { CALLED(); if (current == ctx) current = 0; return OK; }
CUresult cuCtxGetFlags(unsigned *flags) { CALLED(); *flags = current == &ctx_object ? primary_flags : 0; return OK; }
CUresult cuDevicePrimaryCtxReset_v2(CUdevice d) { CALLED();
    (void)d;
    pthread_mutex_lock(&lock);
    while (device_blocks) { free(device_blocks->p); take(&device_blocks, device_blocks->p); }
    while (pinned) { take(&pinned, pinned->p); }
    allocated = 0;
    if (!unrecoverable) sticky = 0;
    pthread_mutex_unlock(&lock);
    return OK;
}
CUresult cuCtxGetCurrent(void **ctx) { CALLED(); *ctx = current; return OK; }
CUresult cuCtxSetCurrent(void *ctx) { CALLED(); current = ctx; return OK; }
CUresult cuCtxSynchronize(void) { CALLED(); LIVE(); return OK; }
CUresult cuCtxSetLimit(int limit, size_t value) { CALLED(); (void)limit; (void)value; return OK; }

static const char *name_of(CUresult r) {
    switch (r) {
    case OK: return "CUDA_SUCCESS";
    case INVALID_VALUE: return "CUDA_ERROR_INVALID_VALUE";
    case OUT_OF_MEMORY: return "CUDA_ERROR_OUT_OF_MEMORY";
    case NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
    case INVALID_DEVICE: return "CUDA_ERROR_INVALID_DEVICE";
    case INVALID_IMAGE: return "CUDA_ERROR_INVALID_IMAGE";
    case INVALID_PTX: return "CUDA_ERROR_INVALID_PTX";
    case INVALID_HANDLE: return "CUDA_ERROR_INVALID_HANDLE";
    case NOT_FOUND: return "CUDA_ERROR_NOT_FOUND";
    case NOT_READY: return "CUDA_ERROR_NOT_READY";
    case ILLEGAL_ADDRESS: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    default: return 0;
    }
}
CUresult cuGetErrorName(CUresult r, const char **s) { CALLED(); *s = name_of(r); return *s ? OK : INVALID_VALUE; }

/* --- memory ---------------------------------------------------------------- */
CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t n) { CALLED();
    LIVE();
    pthread_mutex_lock(&lock);
    CUresult r = OK;
    if (allocated + n > TOTAL_MEMORY) r = OUT_OF_MEMORY;
    else {
        void *m = aligned_alloc(256, (n + 255) / 256 * 256);
        if (!m) r = OUT_OF_MEMORY;
        else { add(&device_blocks, m, n); allocated += n; *p = (CUdeviceptr)(uintptr_t)m; }
    }
    pthread_mutex_unlock(&lock);
    return r;
}
CUresult cuMemFree_v2(CUdeviceptr p) { CALLED();
    pthread_mutex_lock(&lock);
    size_t n = take(&device_blocks, (void *)(uintptr_t)p);
    if (n != (size_t)-1) { allocated -= n; free((void *)(uintptr_t)p); }
    pthread_mutex_unlock(&lock);
    return n == (size_t)-1 ? INVALID_VALUE : OK;
}
CUresult cuMemGetInfo_v2(size_t *free_, size_t *total) { CALLED(); LIVE(); *total = TOTAL_MEMORY; *free_ = TOTAL_MEMORY - allocated; return OK; }
CUresult cuMemHostAlloc(void **p, size_t n, unsigned flags) { CALLED();
    (void)flags; LIVE();
    *p = aligned_alloc(4096, (n + 4095) / 4096 * 4096);
    if (!*p) return OUT_OF_MEMORY;
    pthread_mutex_lock(&lock); add(&pinned, *p, n); pthread_mutex_unlock(&lock);
    return OK;
}
CUresult cuMemFreeHost(void *p) { CALLED();
    pthread_mutex_lock(&lock); size_t n = take(&pinned, p); pthread_mutex_unlock(&lock);
    if (n == (size_t)-1) return INVALID_VALUE;
    free(p);
    return OK;
}
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned flags) { CALLED();
    (void)flags; LIVE();
    pthread_mutex_lock(&lock); add(&pinned, p, n); pthread_mutex_unlock(&lock);
    return OK;
}
CUresult cuMemHostUnregister(void *p) { CALLED();
    pthread_mutex_lock(&lock); size_t n = take(&pinned, p); pthread_mutex_unlock(&lock);
    return n == (size_t)-1 ? INVALID_VALUE : OK;
}
CUresult cuMemHostGetFlags(unsigned *flags, void *p) { CALLED();
    pthread_mutex_lock(&lock); int in = inside(pinned, p); pthread_mutex_unlock(&lock);
    *flags = 0;
    return in ? OK : INVALID_VALUE;
}
CUresult cuPointerGetAttribute(void *data, int attr, CUdeviceptr p) { CALLED();
    pthread_mutex_lock(&lock); int dev = inside(device_blocks, (void *)(uintptr_t)p); int host = inside(pinned, (void *)(uintptr_t)p); pthread_mutex_unlock(&lock);
    if (!dev && !host) return INVALID_VALUE;
    switch (attr) {
    case 2: *(unsigned *)data = dev ? 2 : 1; return OK; /* memory type: device / host */
    case 8: *(unsigned *)data = 0; return OK;           /* is managed */
    case 9: *(unsigned *)data = 0; return OK;           /* device ordinal */
    default: return INVALID_VALUE;
    }
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr d, const void *h, size_t n, void *s) { CALLED(); (void)s; LIVE(); memcpy((void *)(uintptr_t)d, h, n); return OK; }
CUresult cuMemcpyDtoHAsync_v2(void *h, CUdeviceptr d, size_t n, void *s) { CALLED();
    (void)s; LIVE();
    if (past_a_global((void *)(uintptr_t)d, n)) return INVALID_VALUE;
    memcpy(h, (void *)(uintptr_t)d, n); return OK;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr a, CUdeviceptr b, size_t n, void *s) { CALLED(); (void)s; LIVE(); memmove((void *)(uintptr_t)a, (void *)(uintptr_t)b, n); return OK; }
#ifndef FAKE_OLD_DRIVER /* a driver that lacks a function the layer needs */
CUresult cuMemcpyPeerAsync(CUdeviceptr a, void *ca, CUdeviceptr b, void *cb, size_t n, void *s) { CALLED();
    (void)ca; (void)cb; (void)s; LIVE(); memmove((void *)(uintptr_t)a, (void *)(uintptr_t)b, n); return OK;
}
#endif
CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, void *s) { CALLED(); (void)s; LIVE(); memset((void *)(uintptr_t)d, v, n); return OK; }

/* --- streams and events ---------------------------------------------------- */
CUresult cuStreamCreate(void **s, unsigned flags) { CALLED(); (void)flags; LIVE(); *s = malloc(16); return OK; }
CUresult cuStreamSynchronize(void *s) { CALLED(); (void)s; LIVE(); return OK; }
CUresult cuStreamQuery(void *s) { CALLED(); (void)s; LIVE(); return OK; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned flags) { CALLED(); (void)s; (void)e; (void)flags; LIVE(); return OK; }
CUresult cuEventCreate(void **e, unsigned flags) { CALLED(); (void)flags; LIVE(); *e = malloc(16); return OK; }
CUresult cuEventRecord(void *e, void *s) { CALLED(); (void)e; (void)s; LIVE(); return OK; }
CUresult cuEventSynchronize(void *e) { CALLED(); (void)e; LIVE(); return OK; }
CUresult cuEventDestroy_v2(void *e) { CALLED(); free(e); return OK; }

/* --- JIT and modules --------------------------------------------------------- */
struct link { char *ptx; char *cubin; size_t n; char *log; size_t log_n; };
CUresult cuLinkCreate_v2(unsigned n, int *opts, void **vals, void **state) { CALLED();
    LIVE();
    struct link *l = calloc(1, sizeof(struct link));
    for (unsigned i = 0; i < n; i++) {
        if (opts[i] == 5) l->log = vals[i];                          /* CU_JIT_ERROR_LOG_BUFFER */
        if (opts[i] == 6) l->log_n = (size_t)(uintptr_t)vals[i];     /* ..._SIZE_BYTES */
    }
    *state = l;
    return OK;
}
CUresult cuLinkAddData_v2(void *state, int type, void *data, size_t n, const char *name, unsigned no, int *o, void **v) { CALLED();
    (void)type; (void)name; (void)no; (void)o; (void)v; LIVE();
    struct link *l = state;
    if (n == 0 || ((char *)data)[n - 1] != 0 || !strstr(data, ".version") || strstr(data, "not ptx")) {
        if (l->log && l->log_n) { strncpy(l->log, "ptxas fatal   : syntax error (fake driver)", l->log_n); l->log[l->log_n - 1] = 0; }
        return INVALID_PTX;
    }
    l->ptx = strdup(data);
    return OK;
}
CUresult cuLinkComplete(void *state, void **cubin, size_t *n) { CALLED();
    struct link *l = state;
    if (!l->ptx) return INVALID_VALUE;
    l->n = strlen(MAGIC) + strlen(l->ptx) + 1;
    l->cubin = malloc(l->n);
    strcpy(l->cubin, MAGIC);
    strcat(l->cubin, l->ptx);
    *cubin = l->cubin;
    *n = l->n;
    return OK;
}
CUresult cuLinkDestroy(void *state) { CALLED(); struct link *l = state; free(l->ptx); free(l->cubin); free(l); return OK; }

struct global { char name[64]; void *p; size_t n; };
struct module { char entries[8][64]; int nentries; struct global globals[8]; int nglobals; };
struct function { struct module *m; char name[64]; };

static CUresult load_text(void **mod, const char *text);
CUresult cuModuleLoadData(void **mod, const void *image) { CALLED();
    LIVE();
    const char *text = image;
    if (strncmp(text, MAGIC, strlen(MAGIC)) != 0) return INVALID_IMAGE;
    return load_text(mod, text);
}
/* A cubin, or PTX text compiled on the spot. */
CUresult cuModuleLoadDataEx(void **mod, const void *image, unsigned n, int *opts, void **vals) { CALLED();
    (void)n; (void)opts; (void)vals;
    LIVE();
    const char *text = image;
    if (strncmp(text, MAGIC, strlen(MAGIC)) != 0 && !strstr(text, ".version")) return INVALID_IMAGE;
    return load_text(mod, text);
}
static CUresult load_text(void **mod, const char *text) {
    struct module *m = calloc(1, sizeof *m);
    for (const char *p = text; (p = strstr(p, ".entry ")) && m->nentries < 8; p++) {
        const char *s = p + 7, *e = strchr(s, '(');
        if (!e || e - s >= 64) continue;
        memcpy(m->entries[m->nentries], s, e - s);
        m->nentries++;
    }
    for (const char *p = text; (p = strstr(p, ".global ")) && m->nglobals < 8; p++) {
        const char *eol = strchr(p, '\n'), *br = strchr(p, '[');
        if (!br || (eol && br > eol)) continue;
        const char *s = br;
        while (s > p && s[-1] != ' ') s--;
        struct global *g = &m->globals[m->nglobals++];
        memcpy(g->name, s, br - s < 63 ? br - s : 63);
        g->n = strtoul(br + 1, 0, 10);
        g->p = calloc(1, g->n ? g->n : 1);
        pthread_mutex_lock(&lock);
        add(&module_globals, g->p, g->n ? g->n : 1);
        pthread_mutex_unlock(&lock);
    }
    *mod = m;
    return OK;
}
CUresult cuModuleUnload(void *mod) { CALLED(); (void)mod; return OK; }
CUresult cuModuleGetFunction(void **f, void *mod, const char *name) { CALLED();
    LIVE();
    struct module *m = mod;
    for (int i = 0; i < m->nentries; i++)
        if (!strcmp(m->entries[i], name)) {
            struct function *fn = calloc(1, sizeof *fn);
            fn->m = m;
            strncpy(fn->name, name, 63);
            *f = fn;
            return OK;
        }
    return NOT_FOUND;
}
CUresult cuModuleGetGlobal_v2(CUdeviceptr *d, size_t *n, void *mod, const char *name) { CALLED();
    LIVE();
    struct module *m = mod;
    for (int i = 0; i < m->nglobals; i++)
        if (!strcmp(m->globals[i].name, name)) { *d = (CUdeviceptr)(uintptr_t)m->globals[i].p; *n = m->globals[i].n; return OK; }
    return NOT_FOUND;
}
CUresult cuFuncGetAttribute(int *v, int attr, void *f) { CALLED(); (void)f; *v = attr == 0 ? 1024 : 0; return OK; }
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int threads, size_t shared) { CALLED();
    (void)f; (void)shared; *n = threads > 0 ? 2048 / threads : 0; return OK;
}

CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *s, void **params, void **extra) { CALLED();
    (void)gy; (void)gz; (void)by; (void)bz; (void)shared; (void)s; (void)extra;
    LIVE();
    struct function *fn = f;
    unsigned long long threads = (unsigned long long)gx * bx;
    if (!strcmp(fn->name, "saxpy")) {
        unsigned long long n = *(unsigned long long *)params[0];
        unsigned bits = (unsigned)*(unsigned long long *)params[1];
        float a; memcpy(&a, &bits, 4);
        float *x = (float *)(uintptr_t)*(unsigned long long *)params[2];
        float *y = (float *)(uintptr_t)*(unsigned long long *)params[3];
        for (unsigned long long i = 0; i < n && i < threads; i++) y[i] = __builtin_fmaf(a, x[i], y[i]);
    } else if (!strcmp(fn->name, "poke")) {
        unsigned long long addr = *(unsigned long long *)params[0];
        if (addr < 65536) sticky = ILLEGAL_ADDRESS; /* reported by a later call */
        else *(unsigned *)(uintptr_t)addr = 7;
    } else if (!strcmp(fn->name, "bump_table")) {
        for (int i = 0; i < fn->m->nglobals; i++)
            if (!strcmp(fn->m->globals[i].name, "selftest_table"))
                for (unsigned t = 0; t < bx && t < fn->m->globals[i].n / 4; t++) ((unsigned *)fn->m->globals[i].p)[t] += 1;
    } else if (!strcmp(fn->name, "ends")) {
        /* A kernel ending the program (accjit_abi::device_end): params kind,
           code, expr, file; the line is 12. The first end is kept. An expr
           or file below 64 names the module's global of that 1-based index
           (its device address is recorded, as a real kernel records a
           string literal's symbol; a global still all zero gets the text
           "raw.c"). */
        for (int i = 0; i < fn->m->nglobals; i++)
            if (!strcmp(fn->m->globals[i].name, "__accjit_end")) {
                unsigned char *r = fn->m->globals[i].p;
                unsigned kind = (unsigned)*(unsigned long long *)params[0];
                if (kind && *(unsigned *)r == 0) {
                    *(unsigned *)r = kind;
                    *(int *)(r + 4) = (int)*(unsigned long long *)params[1];
                    for (int k = 2; k <= 3; k++) {
                        unsigned long long at = *(unsigned long long *)params[k];
                        if (at && at < 64 && at <= (unsigned long long)fn->m->nglobals) {
                            struct global *g = &fn->m->globals[at - 1];
                            /* A global nothing filled (no host copy): a text of its own. */
                            if (g->n >= 6 && !*(char *)g->p) memcpy(g->p, "raw.c", 6);
                            at = (uintptr_t)g->p;
                        }
                        memcpy(r + 8 * (k - 1), &at, 8);
                    }
                    *(long long *)(r + 24) = 12;
                }
            }
    } else if (!strcmp(fn->name, "logs")) {
        /* A kernel logging Fortran output (accjit_abi::device_io_log):
           params the host address and byte count of records to append
           (dropped if they do not fit, as the device does) and a count of
           dropped records to add. */
        unsigned char *head = 0, *log = 0;
        size_t cap = 0;
        for (int i = 0; i < fn->m->nglobals; i++) {
            if (!strcmp(fn->m->globals[i].name, "__accjit_io_log_head")) head = fn->m->globals[i].p;
            if (!strcmp(fn->m->globals[i].name, "__accjit_io_log")) { log = fn->m->globals[i].p; cap = fn->m->globals[i].n; }
        }
        if (head && log) {
            const unsigned char *src = (const unsigned char *)(uintptr_t)*(unsigned long long *)params[0];
            unsigned long long n = *(unsigned long long *)params[1], used, dropped;
            memcpy(&used, head, 8);
            memcpy(&dropped, head + 8, 8);
            if (used + n <= cap) memcpy(log + used, src, n);
            used += n;
            dropped += *(unsigned long long *)params[2];
            memcpy(head, &used, 8);
            memcpy(head + 8, &dropped, 8);
        }
    } else if (strcmp(fn->name, "empty") != 0 && !getenv("FAKE_CUDA_ANY_KERNEL")) {
        /* FAKE_CUDA_ANY_KERNEL set: any other kernel does nothing (to time
           the host side of real programs' launches). */
        return INVALID_VALUE;
    }
    return OK;
}

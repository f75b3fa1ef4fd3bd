/* gcc_compat.h: used ONLY by gcc_check.py when it validates the corpus with
 * gcc 12 (`gcc -fopenacc -include gcc_compat.h -DACCJIT_GCC_VALIDATION`).
 * accjit never sees this file.  It supplies the OpenACC 3.x runtime routines
 * that gcc 12's libgomp lacks, written for libgomp's host fallback (where the
 * "device" shares memory with the host), so that corpus programs can be
 * written against the spec and still be checked with a real compiler. */
#ifndef ACCJIT_GCC_COMPAT_H
#define ACCJIT_GCC_COMPAT_H
#include <openacc.h>
#include <string.h>

#define acc_async_default (-3)
#define acc_property_shared_memory_support ((acc_device_property_t)3)

static int gcc_compat_default_async = acc_async_noval;

static inline int acc_get_default_async(void) { return gcc_compat_default_async; }
static inline void acc_set_default_async(int a) {
  gcc_compat_default_async = (a == acc_async_default) ? acc_async_noval : a;
}
static inline void acc_memcpy_device(void *d, void *s, size_t n) { if (n && d != s) memmove(d, s, n); }
static inline void acc_memcpy_device_async(void *d, void *s, size_t n, int a) { (void)a; acc_memcpy_device(d, s, n); }
static inline void acc_memcpy_d2d(void *d, void *s, size_t n, int dd, int ds) {
  (void)dd; (void)ds;
  if (n) memmove(acc_deviceptr(d), acc_deviceptr(s), n);
}
static inline void acc_memcpy_d2d_async(void *d, void *s, size_t n, int dd, int ds, int a) { (void)a; acc_memcpy_d2d(d, s, n, dd, ds); }
static inline int acc_wait_any(int count, int *q) {
  for (;;) {
    int any = 0;
    for (int i = 0; i < count; i++) {
      if (q[i] == acc_async_sync) continue;
      any = 1;
      if (acc_async_test(q[i])) return i;
    }
    if (!any) return -1;
  }
}
static inline int acc_wait_any_device(int count, int *q, int dev) { (void)dev; return acc_wait_any(count, q); }
static inline void acc_wait_device(int q, int dev) { (void)dev; acc_wait(q); }
static inline void acc_wait_all_device(int dev) { (void)dev; acc_wait_all(); }
static inline void acc_wait_device_async(int q, int a, int dev) { (void)dev; acc_wait_async(q, a); }
static inline void acc_wait_all_device_async(int a, int dev) { (void)dev; acc_wait_all_async(a); }
static inline int acc_async_test_device(int q, int dev) { (void)dev; return acc_async_test(q); }
static inline int acc_async_test_all_device(int dev) { (void)dev; return acc_async_test_all(); }
static inline void acc_init_device(int dev, acc_device_t t) { (void)dev; acc_init(t); }
static inline void acc_shutdown_device(int dev, acc_device_t t) { (void)dev; acc_shutdown(t); }
/* libgomp 12 refuses acc_map_data on its shared-memory host device; on shared memory mapping is
   a no-op (the host copy is the device copy). */
static inline void gcc_compat_map_data(void *h, void *d, size_t n) { (void)h; (void)d; (void)n; }
static inline void gcc_compat_unmap_data(void *h) { (void)h; }
#define acc_map_data gcc_compat_map_data
#define acc_unmap_data gcc_compat_unmap_data
/* The init/shutdown directives (rewritten by gcc_check.py): libgomp 12 aborts on acc_init of an
   active device ("device already active") and on acc_shutdown of one that is down ("no device
   initialized"); the spec lets a program init or shut down again. init sets the type (initialising
   the device when needed); shutdown runs unless one already did since the last init. */
static int gcc_compat_down = 0;
static inline void gcc_compat_acc_init(acc_device_t t) { acc_init(t); gcc_compat_down = 0; }
static inline void gcc_compat_acc_shutdown(acc_device_t t) { acc_shutdown(t); gcc_compat_down = 1; }
static inline void gcc_compat_init_directive(acc_device_t t) { acc_set_device_type(t); gcc_compat_down = 0; }
static inline void gcc_compat_shutdown_directive(acc_device_t t) { if (!gcc_compat_down) acc_shutdown(t); gcc_compat_down = 1; }
#define acc_init(t) gcc_compat_acc_init(t)
#define acc_shutdown(t) gcc_compat_acc_shutdown(t)
#endif

// a whole numerical program including every header of issue 8 (sys/resource.h, sched.h, sys/types.h, sys/stat.h, fcntl.h, signal.h, setjmp.h, stdalign.h, stdnoreturn.h, iso646.h, wchar.h, locale.h, omp.h): a Jacobi solve timed with omp_get_wtime and getrusage, a variadic logger, results checked against a sequential host solve
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdarg.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <setjmp.h>
#include <stdalign.h>
#include <stdnoreturn.h>
#include <iso646.h>
#include <wchar.h>
#include <locale.h>
#include <omp.h>

#define N 128
#define ITERS 20

static char logbuf[512];
static size_t loglen;
static jmp_buf bail;
static volatile sig_atomic_t interrupted;

static void note(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(logbuf + loglen, sizeof logbuf - loglen, fmt, ap);
    va_end(ap);
    if (n > 0 and loglen + n < sizeof logbuf) loglen += n;
}

static void on_int(int sig) { interrupted = sig; }

noreturn static void give_up(int code) { longjmp(bail, code); }

static double user_seconds(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) give_up(2);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
}

static void jacobi_host(double *a, double *b, int n, int iters) {
    for (int it = 0; it < iters; it++) {
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                b[i * n + j] = 0.25 * (a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] + a[i * n + j + 1]);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++) a[i * n + j] = b[i * n + j];
    }
}

int main(void) {
    int failures = 0;
    setlocale(LC_ALL, "C");
    signal(SIGINT, on_int);
    int code = setjmp(bail);
    if (code != 0) { printf("FAIL gave up with %d\n", code); return 1; }
    alignas(double) static double a[N * N], b[N * N], ha[N * N], hb[N * N];
    srand(42);
    for (int i = 0; i < N * N; i++) { a[i] = ha[i] = rand() / (double)RAND_MAX; b[i] = hb[i] = 0.0; }

    double u0 = user_seconds();
    double t0 = omp_get_wtime();
    #pragma acc data copy(a) create(b)
    for (int it = 0; it < ITERS; it++) {
        #pragma acc parallel loop collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                b[i * N + j] = 0.25 * (a[(i - 1) * N + j] + a[(i + 1) * N + j] + a[i * N + j - 1] + a[i * N + j + 1]);
        #pragma acc parallel loop collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++) a[i * N + j] = b[i * N + j];
    }
    double t1 = omp_get_wtime();
    double u1 = user_seconds();
    jacobi_host(ha, hb, N, ITERS);
    double maxerr = 0.0;
    for (int i = 0; i < N * N; i++) maxerr = fmax(maxerr, fabs(a[i] - ha[i]));
    if (maxerr > 1e-12) { printf("FAIL jacobi max error %g\n", maxerr); failures++; }
    if (not(t1 >= t0) or u1 < u0) { printf("FAIL timers\n"); failures++; }

    note("jacobi %dx%d, %d sweeps", N, N, ITERS);
    note(", max error %.1e", maxerr);
    if (strncmp(logbuf, "jacobi 128x128, 20 sweeps, max error ", 37) != 0) { printf("FAIL log '%s'\n", logbuf); failures++; }

    /* the log goes to a file, read back through fstat */
    char path[96];
    snprintf(path, sizeof path, "/tmp/accjit_gap100_%d.log", (int)getpid());
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    if (fd < 0 or write(fd, logbuf, loglen) != (ssize_t)loglen) { printf("FAIL log file\n"); failures++; }
    struct stat st;
    if (fd >= 0 and (fstat(fd, &st) != 0 or st.st_size != (off_t)loglen)) { printf("FAIL fstat\n"); failures++; }
    if (fd >= 0) close(fd);
    unlink(path);

    const wchar_t *title = L"Jacobi";
    if (wcslen(title) != 6) { printf("FAIL wide title\n"); failures++; }
    if (sched_yield() != 0 or interrupted) { printf("FAIL sched_yield/signal\n"); failures++; }
    return failures != 0;
}

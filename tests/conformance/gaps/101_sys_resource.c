// <sys/resource.h>: getrusage (struct rusage layout: 144 bytes, ru_maxrss at 32), getrlimit, getpriority/setpriority with PRIO_PROCESS
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <sys/resource.h>

int main(void) {
    int failures = 0;
    if (sizeof(struct rusage) != 144 || offsetof(struct rusage, ru_stime) != 16 || offsetof(struct rusage, ru_maxrss) != 32 || offsetof(struct rusage, ru_nivcsw) != 136) {
        printf("FAIL struct rusage layout\n");
        failures++;
    }
    /* touch some memory so that the resident set is not empty */
    srand(42);
    size_t n = 1 << 20;
    double *a = malloc(n * sizeof *a);
    double s = 0.0;
    for (size_t i = 0; i < n; i++) { a[i] = rand() / (double)RAND_MAX; s += a[i]; }
    struct rusage ru;
    ru.ru_maxrss = -1;
    if (getrusage(RUSAGE_SELF, &ru) != 0) { printf("FAIL getrusage\n"); failures++; }
    if (ru.ru_maxrss < 8 * 1024) { printf("FAIL ru_maxrss %ld KiB\n", ru.ru_maxrss); failures++; }
    if (ru.ru_utime.tv_sec < 0 || ru.ru_utime.tv_usec < 0 || ru.ru_utime.tv_usec >= 1000000) { printf("FAIL ru_utime\n"); failures++; }
    if (ru.ru_minflt <= 0) { printf("FAIL ru_minflt %ld\n", ru.ru_minflt); failures++; }
    struct rusage later;
    for (size_t i = 0; i < n; i++) s += a[i] * 0.5;
    getrusage(RUSAGE_SELF, &later);
    double t0 = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6, t1 = later.ru_utime.tv_sec + later.ru_utime.tv_usec * 1e-6;
    if (t1 < t0) { printf("FAIL user time went back\n"); failures++; }

    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == 0 || (rl.rlim_max != RLIM_INFINITY && rl.rlim_cur > rl.rlim_max)) { printf("FAIL getrlimit\n"); failures++; }

    int prio = getpriority(PRIO_PROCESS, 0);
    if (prio < PRIO_MIN || prio >= PRIO_MAX) { printf("FAIL getpriority %d\n", prio); failures++; }
    if (setpriority(PRIO_PROCESS, 0, prio) != 0 || getpriority(PRIO_PROCESS, 0) != prio) { printf("FAIL setpriority\n"); failures++; }
    free(a);
    if (s <= 0.0) failures++;
    return failures != 0;
}

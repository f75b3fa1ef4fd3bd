// <signal.h> with <setjmp.h>: a handler leaves through siglongjmp back to sigsetjmp (the signal mask restored, so the signal is delivered again next time), a retry loop driven by raise(SIGUSR1), volatile counters kept across the jumps
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <setjmp.h>

static sigjmp_buf recover;
static volatile sig_atomic_t caught;

static void on_usr1(int sig) {
    caught++;
    siglongjmp(recover, sig);
}

static double step(double x, int fail) {
    if (fail) raise(SIGUSR1);
    return x * 0.5 + 1.0;
}

int main(void) {
    int failures = 0;
    if (signal(SIGUSR1, on_usr1) == SIG_ERR) { printf("FAIL signal\n"); return 1; }
    srand(42);
    int fails[40], nfail = 0;
    for (int i = 0; i < 40; i++) { fails[i] = rand() % 3 == 0; nfail += fails[i]; }
    volatile double x = 1.0;
    volatile int done = 0, jumps = 0;
    double want = 1.0;
    for (int i = 0; i < 40; i++) if (!fails[i]) want = want * 0.5 + 1.0;
    for (volatile int i = 0; i < 40; i++) {
        int r = sigsetjmp(recover, 1);
        if (r != 0) {
            if (r != SIGUSR1) { printf("FAIL sigsetjmp returned %d\n", r); failures++; }
            jumps++;
            continue;
        }
        x = step(x, fails[i]);
        done++;
    }
    if (caught != nfail || jumps != nfail || done != 40 - nfail) { printf("FAIL caught %d jumps %d done %d (want %d)\n", (int)caught, (int)jumps, (int)done, nfail); failures++; }
    if (x != want) { printf("FAIL x %g want %g\n", (double)x, want); failures++; }
    signal(SIGUSR1, SIG_DFL);
    return failures != 0;
}

// <signal.h>: a handler of the program installed with signal() runs on raise(); sig_atomic_t; SIG_IGN ignores; signal() returns the previous handler; SIG_DFL restored
#include <stdio.h>
#include <signal.h>

static volatile sig_atomic_t hits;
static volatile sig_atomic_t last_sig;

static void on_usr(int sig) {
    hits++;
    last_sig = sig;
}

int main(void) {
    int failures = 0;
    if (signal(SIGUSR1, on_usr) == SIG_ERR) { printf("FAIL signal\n"); return 1; }
    for (int i = 0; i < 5; i++)
        if (raise(SIGUSR1) != 0) { printf("FAIL raise\n"); failures++; }
    if (hits != 5 || last_sig != SIGUSR1) { printf("FAIL handler ran %d times (sig %d)\n", (int)hits, (int)last_sig); failures++; }
    signal(SIGUSR2, on_usr);
    raise(SIGUSR2);
    if (hits != 6 || last_sig != SIGUSR2) { printf("FAIL SIGUSR2\n"); failures++; }
    /* ignored: nothing happens */
    __sighandler_t prev = signal(SIGUSR1, SIG_IGN);
    if (prev != on_usr) { printf("FAIL previous handler\n"); failures++; }
    raise(SIGUSR1);
    if (hits != 6) { printf("FAIL SIG_IGN\n"); failures++; }
    if (signal(SIGUSR1, SIG_DFL) != SIG_IGN) { printf("FAIL previous SIG_IGN\n"); failures++; }
    signal(SIGUSR2, SIG_DFL);
    if (SIGINT != 2 || SIGSEGV != 11 || SIGTERM != 15 || SIGUSR1 != 10 || sizeof(sig_atomic_t) != 4) { printf("FAIL constants\n"); failures++; }
    return failures != 0;
}

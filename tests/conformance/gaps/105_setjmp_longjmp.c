// <setjmp.h>: longjmp from nested calls back to setjmp, the value returned by the second return (0 becomes 1), locals not modified after setjmp keep their values, a retry loop, a jmp_buf big enough for glibc's
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>

static jmp_buf env;
static int depth_reached;

static void dive(int depth, int limit) {
    depth_reached = depth;
    if (depth == limit) longjmp(env, depth * 10);
    if (depth < 1000) dive(depth + 1, limit);
    printf("FAIL returned from dive\n");
}

static void zero_jump(void) { longjmp(env, 0); }

static double risky(double x, jmp_buf *err) {
    if (x < 0) longjmp(*err, 2);
    return x * 2.0;
}

int main(void) {
    int failures = 0;
    srand(42);
    int limit = 3 + rand() % 20;
    double kept = rand() / (double)RAND_MAX;
    long also_kept = rand();
    int r = setjmp(env);
    if (r == 0) {
        dive(0, limit);
        printf("FAIL after dive\n");
        failures++;
    } else {
        if (r != limit * 10 || depth_reached != limit) { printf("FAIL longjmp value %d (limit %d)\n", r, limit); failures++; }
        if (kept <= 0.0 || kept > 1.0 || also_kept < 0) { printf("FAIL locals lost\n"); failures++; }
    }
    volatile int tries = 0;
    if (setjmp(env) == 0) {
        zero_jump();
    } else {
        tries++;
    }
    if (tries != 1) { printf("FAIL longjmp(env, 0) did not return 1\n"); failures++; }

    /* retry loop: negative inputs are reported through longjmp */
    jmp_buf err;
    volatile int errors = 0;
    volatile double total = 0.0;
    double xs[8];
    int nneg = 0;
    for (int i = 0; i < 8; i++) { xs[i] = (rand() % 200 - 100) / 10.0; nneg += xs[i] < 0; }
    double want = 0.0;
    for (int i = 0; i < 8; i++) if (xs[i] >= 0) want += xs[i] * 2.0;
    for (volatile int i = 0; i < 8; i++) {
        if (setjmp(err) == 2) {
            errors++;
            continue;
        }
        total += risky(xs[i], &err);
    }
    if (errors != nneg || total != want) { printf("FAIL retry loop %d/%d %g/%g\n", (int)errors, nneg, (double)total, want); failures++; }
    if (sizeof(jmp_buf) < 200) { printf("FAIL jmp_buf too small\n"); failures++; }
    return failures != 0;
}

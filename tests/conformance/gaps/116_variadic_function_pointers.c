// calls through pointers to variadic functions: a table of the program's own variadic reducers, pointers to snprintf and printf, a variadic callback taking a va_list forwarder, a pointer passed as an argument
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

static long vsum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

static long vmax(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long m = -2147483648L;
    for (int i = 0; i < n; i++) { int v = va_arg(ap, int); if (v > m) m = v; }
    va_end(ap);
    return n ? m : 0;
}

static long vcount_pos(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long c = 0;
    for (int i = 0; i < n; i++) c += va_arg(ap, int) > 0;
    va_end(ap);
    return c;
}

typedef long (*reducer)(int, ...);

static long apply(reducer r, int a, int b, int c, int d) { return r(4, a, b, c, d); }

static int format_with(int (*fmt)(char *, size_t, const char *, ...), char *buf, size_t n, int k, double v) {
    return fmt(buf, n, "k=%d v=%.2f %s", k, v, "end");
}

static int my_format(char *buf, size_t n, const char *f, ...) {
    va_list ap;
    va_start(ap, f);
    int r = vsnprintf(buf, n, f, ap);
    va_end(ap);
    return r;
}

int main(void) {
    int failures = 0;
    reducer table[3] = { vsum, vmax, vcount_pos };
    srand(42);
    for (int t = 0; t < 30; t++) {
        int a = rand() % 201 - 100, b = rand() % 201 - 100, c = rand() % 201 - 100, d = rand() % 201 - 100;
        long want[3];
        want[0] = (long)a + b + c + d;
        want[1] = a;
        if (b > want[1]) want[1] = b;
        if (c > want[1]) want[1] = c;
        if (d > want[1]) want[1] = d;
        want[2] = (a > 0) + (b > 0) + (c > 0) + (d > 0);
        for (int k = 0; k < 3; k++) {
            long got = apply(table[k], a, b, c, d);
            if (got != want[k]) { printf("FAIL reducer %d: %ld != %ld\n", k, got, want[k]); failures++; }
        }
        if (table[t % 3](0) != 0) { printf("FAIL empty call\n"); failures++; }
    }
    char x[64], y[64];
    int k = rand() % 1000;
    double v = rand() / (double)RAND_MAX;
    int n1 = format_with(snprintf, x, sizeof x, k, v);
    int n2 = format_with(my_format, y, sizeof y, k, v);
    if (n1 != n2 || strcmp(x, y) != 0) { printf("FAIL snprintf vs my_format: '%s' '%s'\n", x, y); failures++; }
    int (*p)(const char *, ...) = printf;
    int n3 = p("through a pointer: %s\n", x);
    if (n3 != (int)strlen(x) + 20) { printf("FAIL printf through a pointer returned %d\n", n3); failures++; }
    return failures != 0;
}

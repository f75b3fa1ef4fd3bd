// va_start/va_arg/va_end/va_copy in variadic functions the program defines: int, long, double, pointer arguments, a va_list passed to a helper, va_copy to walk twice
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>

static long sum_ints(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

/* kinds: 'i' int, 'c' char (passed as int), 'l' long, 'd' double, 's' string (its length), 'p' pointer to double */
static double mixed(const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    double s = 0.0;
    for (const char *k = kinds; *k; k++) {
        switch (*k) {
        case 'i': s += va_arg(ap, int); break;
        case 'c': s += (char)va_arg(ap, int); break;
        case 'l': s += (double)va_arg(ap, long); break;
        case 'd': s += va_arg(ap, double); break;
        case 's': { const char *t = va_arg(ap, const char *); while (*t++) s += 1.0; } break;
        case 'p': s += *va_arg(ap, double *); break;
        }
    }
    va_end(ap);
    return s;
}

static double helper_max(int n, va_list ap) {
    double m = -1e300;
    for (int i = 0; i < n; i++) {
        double v = va_arg(ap, double);
        if (v > m) m = v;
    }
    return m;
}

/* max and mean of n doubles: va_copy walks the list twice */
static double max_plus_mean(int n, ...) {
    va_list ap, again;
    va_start(ap, n);
    va_copy(again, ap);
    double m = helper_max(n, ap);
    double s = 0.0;
    for (int i = 0; i < n; i++) s += va_arg(again, double);
    va_end(again);
    va_end(ap);
    return m + s / n;
}

static int count_until_negative(int first, ...) {
    va_list ap;
    int n = 0;
    va_start(ap, first);
    for (int v = first; v >= 0; v = va_arg(ap, int)) n++;
    va_end(ap);
    return n;
}

int main(void) {
    int failures = 0;
    srand(42);
    int a[6];
    long ref = 0;
    for (int i = 0; i < 6; i++) { a[i] = rand() % 1000 - 500; ref += a[i]; }
    long got = sum_ints(6, a[0], a[1], a[2], a[3], a[4], a[5]);
    if (got != ref) { printf("FAIL sum_ints %ld != %ld\n", got, ref); failures++; }
    if (sum_ints(0) != 0) { printf("FAIL sum_ints(0)\n"); failures++; }

    double x = rand() / (double)RAND_MAX, y = 3.25;
    long big = 5000000000L + rand();
    short sh = (short)(rand() % 100);
    char c = 'A';
    float f = 0.5f;
    double m = mixed("ildspicd", a[0], big, x, "hello", &y, (int)sh, c, f);
    double mref = a[0] + (double)big + x + 5.0 + y + sh + 'A' + 0.5;
    if (m != mref) { printf("FAIL mixed %.17g != %.17g\n", m, mref); failures++; }

    double d[5], dmax = -1e300, dsum = 0.0;
    for (int i = 0; i < 5; i++) { d[i] = (rand() % 10000) / 7.0; if (d[i] > dmax) dmax = d[i]; dsum += d[i]; }
    double mm = max_plus_mean(5, d[0], d[1], d[2], d[3], d[4]);
    if (mm != dmax + dsum / 5) { printf("FAIL max_plus_mean %.17g\n", mm); failures++; }

    if (count_until_negative(3, 9, 0, 4, -1, 7) != 4) { printf("FAIL count_until_negative\n"); failures++; }
    return failures != 0;
}

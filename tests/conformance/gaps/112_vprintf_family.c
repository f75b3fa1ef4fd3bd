// the vprintf family on a va_list of the program's own variadic functions: vsnprintf (truncation and return value), vsprintf, vfprintf to a file read back, vprintf's return value
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>

static char logbuf[256];
static int logged;

static int log_line(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(logbuf, sizeof logbuf, fmt, ap);
    va_end(ap);
    logged++;
    return n;
}

static int format_small(char *dst, size_t cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
    return n;
}

static int to_buffer(char *dst, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsprintf(dst, fmt, ap);
    va_end(ap);
    return n;
}

static int to_file(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

static int to_stdout(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    int failures = 0;
    char want[256], got[256];
    srand(42);
    int k = rand() % 100000;
    double v = rand() / (double)RAND_MAX * 1000.0;
    const char *name = "jacobi";

    int n = log_line("%s: k=%d v=%.3f hex=%#x %5.1e|%-4s|%c", name, k, v, k, v, "ab", 'z');
    int wn = snprintf(want, sizeof want, "%s: k=%d v=%.3f hex=%#x %5.1e|%-4s|%c", name, k, v, k, v, "ab", 'z');
    if (n != wn || strcmp(logbuf, want) != 0 || logged != 1) { printf("FAIL vsnprintf '%s' vs '%s'\n", logbuf, want); failures++; }

    char small[8];
    n = format_small(small, sizeof small, "%d-%d-%d", k, k, k);
    wn = snprintf(want, sizeof want, "%d-%d-%d", k, k, k);
    if (n != wn || strncmp(small, want, 7) != 0 || small[7] != '\0') { printf("FAIL vsnprintf truncation %d %d '%s'\n", n, wn, small); failures++; }

    n = to_buffer(got, "%ld %lu %g %p", -5000000000L, 18000000000000000000UL, v, (void *)want);
    wn = sprintf(want, "%ld %lu %g %p", -5000000000L, 18000000000000000000UL, v, (void *)want);
    if (n != wn || strcmp(got, want) != 0) { printf("FAIL vsprintf '%s'\n", got); failures++; }

    FILE *f = tmpfile();
    if (!f) { printf("FAIL tmpfile\n"); return 1; }
    n = to_file(f, "row %d: %.6f\n", k, v);
    rewind(f);
    if (!fgets(got, sizeof got, f)) got[0] = '\0';
    fclose(f);
    wn = snprintf(want, sizeof want, "row %d: %.6f\n", k, v);
    if (n != wn || strcmp(got, want) != 0) { printf("FAIL vfprintf '%s'\n", got); failures++; }

    n = to_stdout("vprintf %d %s\n", k, name);
    wn = snprintf(want, sizeof want, "vprintf %d %s\n", k, name);
    if (n != wn) { printf("FAIL vprintf returned %d, want %d\n", n, wn); failures++; }
    return failures != 0;
}

// the issue-8 C in an OpenACC program: a routine seq with Duff's device called from a parallel loop, a routine returning a struct whose member is read in the loop (f().x), wide-string checks and a variadic checker on the host around the regions
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <wchar.h>

#define ROWS 64
#define COLS 37

struct stats { double sum; int count; };

#pragma acc routine seq
static void duff_scale(double *to, const double *from, int count, double f) {
    int n = (count + 3) / 4;
    if (count <= 0) return;
    switch (count % 4) {
    case 0: do { *to++ = f * *from++;
    case 3:      *to++ = f * *from++;
    case 2:      *to++ = f * *from++;
    case 1:      *to++ = f * *from++;
            } while (--n > 0);
    }
}

#pragma acc routine seq
static struct stats row_stats(const double *r, int n) {
    struct stats s = { 0.0, 0 };
    for (int j = 0; j < n; j++) { s.sum += r[j]; s.count += r[j] > 0.0; }
    return s;
}

static int failures;

static void check(int ok, const char *fmt, ...) {
    if (ok) return;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures++;
}

int main(void) {
    static double a[ROWS * COLS], b[ROWS * COLS], sums[ROWS];
    static int counts[ROWS];
    srand(42);
    for (int i = 0; i < ROWS * COLS; i++) a[i] = rand() / (double)RAND_MAX - 0.3;
    #pragma acc parallel loop copyin(a) copyout(b, sums, counts)
    for (int i = 0; i < ROWS; i++) {
        int len = 1 + i % COLS;
        for (int j = len; j < COLS; j++) b[i * COLS + j] = 0.0;
        duff_scale(&b[i * COLS], &a[i * COLS], len, 2.0);
        sums[i] = row_stats(&b[i * COLS], COLS).sum;
        counts[i] = row_stats(&b[i * COLS], COLS).count;
    }
    for (int i = 0; i < ROWS; i++) {
        int len = 1 + i % COLS, cnt = 0;
        double s = 0.0;
        for (int j = 0; j < COLS; j++) {
            double want = j < len ? 2.0 * a[i * COLS + j] : 0.0;
            check(b[i * COLS + j] == want, "b[%d][%d] = %g, want %g", i, j, b[i * COLS + j], want);
            s += want;
            cnt += want > 0.0;
        }
        check(sums[i] == s && counts[i] == cnt, "row %d: sum %g/%g count %d/%d", i, sums[i], s, counts[i], cnt);
        if (failures > 5) break;
    }
    check(wcscmp(L"rows", L"rows") == 0 && wcslen(L"rows") == 4, "%ls", L"wide strings");
    return failures != 0;
}

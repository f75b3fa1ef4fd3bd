// the wprintf family of <wchar.h>: swprintf into a wide buffer (numbers, %s and %ls, truncation gives -1), fwprintf to a file read back as UTF-8 bytes, vswprintf from a variadic function of the program (wprintf on stdout is left out: mixing it with printf on one stream is undefined in C, and glibc refuses it)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdarg.h>
#include <wchar.h>
#include <unistd.h>

static int wlog(wchar_t *buf, size_t n, const wchar_t *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = vswprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

int main(void) {
    int failures = 0;
    srand(42);
    int k = rand() % 100000;
    double v = rand() / (double)RAND_MAX;
    wchar_t w[128];
    char want[128];
    int n = swprintf(w, 128, L"k=%d v=%.4f s=%s ls=%ls c=%c", k, v, "narrow", L"wide", 'q');
    int wn = snprintf(want, sizeof want, "k=%d v=%.4f s=%s ls=%s c=%c", k, v, "narrow", "wide", 'q');
    if (n != wn || (int)wcslen(w) != wn) { printf("FAIL swprintf length %d vs %d\n", n, wn); failures++; }
    for (int i = 0; i < wn && i < n; i++)
        if (w[i] != (wchar_t)(unsigned char)want[i]) { printf("FAIL swprintf char %d\n", i); failures++; break; }
    wchar_t small[5];
    if (swprintf(small, 5, L"%d", 123456) >= 0) { printf("FAIL swprintf truncation\n"); failures++; }

    n = wlog(w, 128, L"%05d|%-3s|%x", k % 1000, "ab", 255);
    wn = snprintf(want, sizeof want, "%05d|%-3s|%x", k % 1000, "ab", 255);
    if (n != wn) { printf("FAIL vswprintf %d vs %d\n", n, wn); failures++; }
    for (int i = 0; i < wn && i < n; i++)
        if (w[i] != (wchar_t)want[i]) { printf("FAIL vswprintf char %d\n", i); failures++; break; }

    char path[64];
    snprintf(path, sizeof path, "/tmp/accjit_gap117_%d.txt", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f) { printf("FAIL fopen\n"); return 1; }
    n = fwprintf(f, L"row %d: %.3f\n", k, v);
    fclose(f);
    char back[128];
    f = fopen(path, "r");
    if (!f || !fgets(back, sizeof back, f)) back[0] = 0;
    if (f) fclose(f);
    remove(path);
    wn = snprintf(want, sizeof want, "row %d: %.3f\n", k, v);
    if (n != wn || strcmp(back, want) != 0) { printf("FAIL fwprintf '%s'\n", back); failures++; }
    return failures != 0;
}

// <locale.h>: setlocale with LC_* categories (query with NULL, set "C" and "POSIX"), localeconv's decimal point, printf/strtod under the C locale. Only LC_NUMERIC's initial value is checked: under `accjit run` the program runs in the Python process, whose LC_CTYPE Python set to C.UTF-8
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>

int main(void) {
    int failures = 0;
    const char *cur = setlocale(LC_NUMERIC, NULL);
    if (!cur || strcmp(cur, "C") != 0) { printf("FAIL initial locale '%s'\n", cur ? cur : "(null)"); failures++; }
    const char *set = setlocale(LC_NUMERIC, "C");
    if (!set || strcmp(set, "C") != 0) { printf("FAIL setlocale C\n"); failures++; }
    set = setlocale(LC_ALL, "POSIX");
    if (!set || strcmp(set, "C") != 0) { printf("FAIL setlocale POSIX gives '%s'\n", set ? set : "(null)"); failures++; }
    if (setlocale(LC_ALL, "no_such_locale.ZZ-99") != NULL) { printf("FAIL unknown locale accepted\n"); failures++; }
    struct lconv *lc = localeconv();
    if (!lc || strcmp(lc->decimal_point, ".") != 0 || strcmp(lc->thousands_sep, "") != 0) { printf("FAIL localeconv\n"); failures++; }
    if (lc && lc->frac_digits != (char)127) { printf("FAIL frac_digits %d\n", lc->frac_digits); failures++; }
    srand(42);
    for (int i = 0; i < 20; i++) {
        double v = (rand() % 2000000) / 1000.0 - 1000.0;
        char buf[64];
        snprintf(buf, sizeof buf, "%.3f", v);
        if (!strchr(buf, '.') || strtod(buf, NULL) != atof(buf) || (long)(strtod(buf, NULL) * 1000.0 + (v < 0 ? -0.5 : 0.5)) != (long)(v * 1000.0 + (v < 0 ? -0.5 : 0.5))) {
            printf("FAIL round trip '%s'\n", buf);
            failures++;
        }
    }
    if (LC_CTYPE != 0 || LC_NUMERIC != 1 || LC_ALL != 6) { printf("FAIL LC_ constants\n"); failures++; }
    return failures != 0;
}

// L"..." and L'x' with <wchar.h> (wcslen, wcscmp, wcschr, wcscpy, wcstol), wchar_t arrays initialised from wide literals (global, local, sized), u8"..." as UTF-8 bytes, U"..."/u"..." element sizes, escapes in wide literals
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static wchar_t greeting[] = L"gr\u00fc\u00df";
static unsigned short utf16[8] = u"a\U0001F600";

int main(void) {
    int failures = 0;
    wchar_t local[] = L"acc";
    wchar_t sized[6] = L"ab";
    if (sizeof greeting != 5 * sizeof(wchar_t) || greeting[2] != 0xfc || greeting[3] != 0xdf || wcslen(greeting) != 4) { printf("FAIL global wide array\n"); failures++; }
    if (utf16[0] != 'a' || utf16[1] != 0xD83D || utf16[2] != 0xDE00 || utf16[3] != 0 || utf16[7] != 0) { printf("FAIL utf16 array\n"); failures++; }
    if (sizeof local != 16 || wcscmp(local, L"acc") != 0 || sized[1] != L'b' || sized[2] != 0 || sized[5] != 0) { printf("FAIL local wide arrays\n"); failures++; }
    const wchar_t *w = L"gangs and vectors";
    if (wcslen(w) != 17) { printf("FAIL wcslen %lu\n", (unsigned long)wcslen(w)); failures++; }
    if (sizeof(wchar_t) != 4 || sizeof(L"ab") != 12 || sizeof(L'a') != 4) { printf("FAIL wide sizes\n"); failures++; }
    if (w[0] != L'g' || w[16] != L's' || w[17] != 0) { printf("FAIL wide elements\n"); failures++; }
    if (wcschr(w, L'v') != w + 10) { printf("FAIL wcschr\n"); failures++; }
    if (wcscmp(L"abc", L"abd") >= 0 || wcscmp(L"x" L"yz", L"xyz") != 0) { printf("FAIL wcscmp/concatenation\n"); failures++; }
    wchar_t buf[32];
    wcscpy(buf, L"1234");
    buf[4] = L'5';
    buf[5] = 0;
    wchar_t *end;
    long v = wcstol(buf, &end, 10);
    if (v != 12345 || *end != 0) { printf("FAIL wcstol %ld\n", v); failures++; }

    const wchar_t *e = L"\x3b1\u03b2\U0001F600\101";
    if (e[0] != 0x3b1 || e[1] != 0x3b2 || e[2] != 0x1F600 || e[3] != 'A' || wcslen(e) != 4) { printf("FAIL wide escapes\n"); failures++; }
    if (L'\xff' != 255 || L'\u00e9' != 0xe9) { printf("FAIL wide char constants\n"); failures++; }

    const char *u = u8"caf\u00e9";
    if (strlen(u) != 5 || (unsigned char)u[3] != 0xC3 || (unsigned char)u[4] != 0xA9) { printf("FAIL u8 literal\n"); failures++; }
    if (sizeof(u8"ab") != 3) { printf("FAIL u8 size\n"); failures++; }

    if (sizeof(U"ab") != 12 || U"\U0001F600"[0] != 0x1F600) { printf("FAIL U literal\n"); failures++; }
    if (sizeof(u"ab") != 6 || u"\U0001F600"[0] != 0xD83D || u"\U0001F600"[1] != 0xDE00) { printf("FAIL u literal\n"); failures++; }

    /* a wide string built at run time compared with a literal */
    srand(42);
    int n = 5 + rand() % 10;
    wchar_t gen[32];
    for (int i = 0; i < n; i++) gen[i] = L'a' + i;
    gen[n] = 0;
    if (wcsncmp(gen, L"abcdefghijklmnop", n) != 0 || wcslen(gen) != (size_t)n) { printf("FAIL generated wide string\n"); failures++; }
    return failures != 0;
}

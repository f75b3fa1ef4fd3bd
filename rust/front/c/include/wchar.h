/* accjit bundled <wchar.h>: wide strings, glibc x86-64 (wchar_t is a 4-byte
 * int holding UTF-32). The wprintf family is the runtime's: the wide format
 * is formatted like printf's and streams receive UTF-8 bytes (they stay
 * byte-oriented). The wscanf family is not provided. */
#ifndef _ACCJIT_WCHAR_H
#define _ACCJIT_WCHAR_H

#ifndef _ACCJIT_SIZE_T
#define _ACCJIT_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef _ACCJIT_WCHAR_T
#define _ACCJIT_WCHAR_T
typedef int wchar_t;
#endif
#ifndef NULL
#define NULL ((void*)0)
#endif
typedef unsigned int wint_t;
typedef struct {
    int __count;
    unsigned int __value;
} mbstate_t;

#define WCHAR_MIN (-2147483647 - 1)
#define WCHAR_MAX 2147483647
#define WEOF (0xffffffffu)

size_t wcslen(const wchar_t *s);
wchar_t *wcscpy(wchar_t *dst, const wchar_t *src);
wchar_t *wcsncpy(wchar_t *dst, const wchar_t *src, size_t n);
wchar_t *wcscat(wchar_t *dst, const wchar_t *src);
wchar_t *wcsncat(wchar_t *dst, const wchar_t *src, size_t n);
int wcscmp(const wchar_t *a, const wchar_t *b);
int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n);
wchar_t *wcschr(const wchar_t *s, wchar_t c);
wchar_t *wcsrchr(const wchar_t *s, wchar_t c);
wchar_t *wcsstr(const wchar_t *hay, const wchar_t *needle);
size_t wcsspn(const wchar_t *s, const wchar_t *accept);
size_t wcscspn(const wchar_t *s, const wchar_t *reject);
wchar_t *wmemcpy(wchar_t *dst, const wchar_t *src, size_t n);
wchar_t *wmemmove(wchar_t *dst, const wchar_t *src, size_t n);
wchar_t *wmemset(wchar_t *s, wchar_t c, size_t n);
int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n);
wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n);
long wcstol(const wchar_t *s, wchar_t **end, int base);
unsigned long wcstoul(const wchar_t *s, wchar_t **end, int base);
double wcstod(const wchar_t *s, wchar_t **end);
wint_t btowc(int c);
int wctob(wint_t c);
size_t mbrlen(const char *s, size_t n, mbstate_t *ps);
size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps);
size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps);
int mbsinit(const mbstate_t *ps);
size_t mbsrtowcs(wchar_t *dst, const char **src, size_t len, mbstate_t *ps);
size_t wcsrtombs(char *dst, const wchar_t **src, size_t len, mbstate_t *ps);
int wcwidth(wchar_t c);

#ifndef _ACCJIT_FILE
#define _ACCJIT_FILE
typedef struct _IO_FILE FILE;
#endif
#ifndef _ACCJIT_VA_LIST
#define _ACCJIT_VA_LIST
struct __accjit_va_list {
    const unsigned long *__slots;
    const unsigned char *__kinds;
    long __count;
};
typedef struct __accjit_va_list __builtin_va_list[1];
#endif
int wprintf(const wchar_t *format, ...);
int fwprintf(FILE *stream, const wchar_t *format, ...);
int swprintf(wchar_t *buf, size_t n, const wchar_t *format, ...);
int vwprintf(const wchar_t *format, __builtin_va_list ap);
int vfwprintf(FILE *stream, const wchar_t *format, __builtin_va_list ap);
int vswprintf(wchar_t *buf, size_t n, const wchar_t *format, __builtin_va_list ap);

#endif

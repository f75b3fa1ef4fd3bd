/* accjit bundled <stdlib.h>: glibc x86-64 declarations, bound to the process's libc. */
#ifndef _ACCJIT_STDLIB_H
#define _ACCJIT_STDLIB_H

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

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
#define RAND_MAX 2147483647
#define MB_CUR_MAX 1

typedef struct { int quot; int rem; } div_t;
typedef struct { long quot; long rem; } ldiv_t;
typedef struct { long long quot; long long rem; } lldiv_t;

void *malloc(size_t size);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
void *aligned_alloc(size_t alignment, size_t size);
int posix_memalign(void **memptr, size_t alignment, size_t size);

int rand(void);
void srand(unsigned int seed);
int rand_r(unsigned int *seedp);
long random(void);
void srandom(unsigned int seed);
double drand48(void);
double erand48(unsigned short xsubi[3]);
long lrand48(void);
long nrand48(unsigned short xsubi[3]);
long mrand48(void);
void srand48(long seedval);

int atoi(const char *nptr);
long atol(const char *nptr);
long long atoll(const char *nptr);
double atof(const char *nptr);
long strtol(const char *nptr, char **endptr, int base);
unsigned long strtoul(const char *nptr, char **endptr, int base);
long long strtoll(const char *nptr, char **endptr, int base);
unsigned long long strtoull(const char *nptr, char **endptr, int base);
double strtod(const char *nptr, char **endptr);
float strtof(const char *nptr, char **endptr);
/* long double is double in accjit */
#define strtold strtod

void exit(int status);
void _Exit(int status);
void abort(void);
int atexit(void (*function)(void));

int abs(int j);
long labs(long j);
long long llabs(long long j);
div_t div(int numerator, int denominator);
ldiv_t ldiv(long numerator, long denominator);
lldiv_t lldiv(long long numerator, long long denominator);

void qsort(void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t nmemb, size_t size, int (*compar)(const void *, const void *));

char *getenv(const char *name);
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);
int system(const char *command);

#endif

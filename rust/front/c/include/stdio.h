/* accjit bundled <stdio.h>: glibc x86-64 declarations, bound to the process's libc.
   Variadic functions (printf, ...) are called through the runtime's shims. */
#ifndef _ACCJIT_STDIO_H
#define _ACCJIT_STDIO_H

#ifndef _ACCJIT_SIZE_T
#define _ACCJIT_SIZE_T
typedef unsigned long size_t;
#endif
#ifndef _ACCJIT_SSIZE_T
#define _ACCJIT_SSIZE_T
typedef long ssize_t;
#endif
#ifndef NULL
#define NULL ((void*)0)
#endif

#ifndef _ACCJIT_FILE
#define _ACCJIT_FILE
typedef struct _IO_FILE FILE;
#endif
typedef struct { long __pos; int __state[2]; } fpos_t;

extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr

#define EOF (-1)
#define BUFSIZ 8192
#define FILENAME_MAX 4096
#define FOPEN_MAX 16
#define L_tmpnam 20
#define TMP_MAX 238328
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _IOFBF 0
#define _IOLBF 1
#define _IONBF 2

int printf(const char *format, ...);
int fprintf(FILE *stream, const char *format, ...);
int sprintf(char *str, const char *format, ...);
int snprintf(char *str, size_t size, const char *format, ...);
int scanf(const char *format, ...);
int fscanf(FILE *stream, const char *format, ...);
int sscanf(const char *str, const char *format, ...);

/* The v* forms take the va_list of a variadic function of the program
 * (<stdarg.h>); the runtime implements them on accjit's va_list. */
#ifndef _ACCJIT_VA_LIST
#define _ACCJIT_VA_LIST
struct __accjit_va_list {
    const unsigned long *__slots;
    const unsigned char *__kinds;
    long __count;
};
typedef struct __accjit_va_list __builtin_va_list[1];
#endif
int vprintf(const char *format, __builtin_va_list ap);
int vfprintf(FILE *stream, const char *format, __builtin_va_list ap);
int vsprintf(char *str, const char *format, __builtin_va_list ap);
int vsnprintf(char *str, size_t size, const char *format, __builtin_va_list ap);

int puts(const char *s);
int putchar(int c);
int fputs(const char *s, FILE *stream);
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
int getchar(void);
int fgetc(FILE *stream);
int getc(FILE *stream);
char *fgets(char *s, int size, FILE *stream);
int ungetc(int c, FILE *stream);

FILE *fopen(const char *path, const char *mode);
FILE *freopen(const char *path, const char *mode, FILE *stream);
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *stream);
int fflush(FILE *stream);
size_t fread(void *ptr, size_t size, size_t nmemb, FILE *stream);
size_t fwrite(const void *ptr, size_t size, size_t nmemb, FILE *stream);
int fseek(FILE *stream, long offset, int whence);
long ftell(FILE *stream);
void rewind(FILE *stream);
int fgetpos(FILE *stream, fpos_t *pos);
int fsetpos(FILE *stream, const fpos_t *pos);
int feof(FILE *stream);
int ferror(FILE *stream);
void clearerr(FILE *stream);
int fileno(FILE *stream);
void setbuf(FILE *stream, char *buf);
int setvbuf(FILE *stream, char *buf, int mode, size_t size);
void perror(const char *s);
int remove(const char *path);
int rename(const char *oldpath, const char *newpath);
FILE *tmpfile(void);
char *tmpnam(char *s);

#endif

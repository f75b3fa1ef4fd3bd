/* accjit bundled <stdarg.h>: va_list is a cursor into the block of 64-bit
 * slots in which accjit passes variadic arguments (docs/runtime-abi.md
 * "Variadic functions"); the va_* macros map onto the front end's builtins. */
#ifndef _ACCJIT_STDARG_H
#define _ACCJIT_STDARG_H
#ifndef _ACCJIT_VA_LIST
#define _ACCJIT_VA_LIST
struct __accjit_va_list {
    const unsigned long *__slots;
    const unsigned char *__kinds;
    long __count;
};
typedef struct __accjit_va_list __builtin_va_list[1];
#endif
typedef __builtin_va_list va_list;
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(dst, src) __builtin_va_copy(dst, src)
#endif

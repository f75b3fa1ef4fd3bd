/* accjit bundled <stdarg.h>: maps onto the front end's __builtin_va_* (see headers.rs). */
#ifndef _ACCJIT_STDARG_H
#define _ACCJIT_STDARG_H
#ifndef _ACCJIT_VA_LIST
#define _ACCJIT_VA_LIST
typedef __builtin_va_list va_list;
#endif
#define va_start(ap, last) __builtin_va_start(ap, last)
#define va_arg(ap, type) __builtin_va_arg(ap, type)
#define va_end(ap) __builtin_va_end(ap)
#define va_copy(dst, src) __builtin_va_copy(dst, src)
#endif

/* accjit bundled <stddef.h> (x86-64 LP64). */
#ifndef _ACCJIT_STDDEF_H
#define _ACCJIT_STDDEF_H

#ifndef _ACCJIT_SIZE_T
#define _ACCJIT_SIZE_T
typedef unsigned long size_t;
#endif
typedef long ptrdiff_t;
#ifndef _ACCJIT_WCHAR_T
#define _ACCJIT_WCHAR_T
typedef int wchar_t;
#endif
typedef struct { long long __ll; double __ld; } max_align_t;

#ifndef NULL
#define NULL ((void*)0)
#endif
#define offsetof(type, member) __builtin_offsetof(type, member)

#endif

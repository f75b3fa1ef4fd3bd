/* accjit bundled <assert.h>. Deliberately without an include guard: each
   inclusion re-reads NDEBUG (C99 7.2). A failed assertion calls the runtime's
   __accjit_assert_fail(expression, file, line), which reports it and ends the
   C program (never the Python process hosting it). */
#undef assert
#ifndef _ACCJIT_ASSERT_DECL
#define _ACCJIT_ASSERT_DECL
void __accjit_assert_fail(const char *expr, const char *file, int line);
#endif
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __accjit_assert_fail(#e, __FILE__, __LINE__))
#endif
#ifndef static_assert
#define static_assert _Static_assert
#endif

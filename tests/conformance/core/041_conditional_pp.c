// #if, #ifdef, #ifndef, #elif, defined(), #undef, arithmetic in #if, nested conditionals.
#include <stdio.h>

#define LEVEL 3
#define FEATURE_A
#undef FEATURE_B

#if LEVEL > 5
#error "LEVEL too high"
#elif LEVEL == 3 && defined(FEATURE_A)
#define PATH 1
#elif LEVEL == 3
#define PATH 2
#else
#define PATH 3
#endif

#ifdef FEATURE_B
static const int has_b = 1;
#else
static const int has_b = 0;
#endif

#ifndef UNDEFINED_THING
#define FALLBACK 42
#endif

#if !defined(FEATURE_A) || (1 << 4) != 16 || (10 / 3) != 3 || -1 >= 0
#error "preprocessor arithmetic is wrong"
#endif

#if UNDEFINED_MACRO_IS_ZERO
#error "undefined identifiers in #if must be 0"
#endif

int main(void) {
  int errors = 0;
  if (PATH != 1) { errors++; printf("FAIL path %d\n", PATH); }
  if (has_b != 0) { errors++; printf("FAIL FEATURE_B\n"); }
  if (FALLBACK != 42) { errors++; printf("FAIL fallback\n"); }
  int n = 0;
#if defined(LEVEL)
# if LEVEL >= 2
  n += 10;
#  ifdef FEATURE_A
  n += 1;
#  endif
# endif
#endif
  if (n != 11) { errors++; printf("FAIL nested %d\n", n); }
#if 0
  this is not C and must be skipped { unbalanced brace
#endif
  if (errors == 0) printf("conditional preprocessing ok\n");
  return errors != 0;
}

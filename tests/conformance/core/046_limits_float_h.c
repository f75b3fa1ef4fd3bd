// limits.h and float.h constants used as real programs use them (overflow guards, epsilons).
#include <stdio.h>
#include <limits.h>
#include <float.h>
#include <math.h>

static int add_would_overflow(int a, int b) {
  return (b > 0 && a > INT_MAX - b) || (b < 0 && a < INT_MIN - b);
}

int main(void) {
  int errors = 0;
  if (CHAR_BIT != 8 || INT_MAX != 2147483647 || UINT_MAX != 4294967295u) { errors++; printf("FAIL int limits\n"); }
  if (LONG_MIN != -LONG_MAX - 1 || LLONG_MAX != 9223372036854775807LL) { errors++; printf("FAIL long limits\n"); }
  if (!add_would_overflow(INT_MAX, 1) || add_would_overflow(INT_MAX, -1) || !add_would_overflow(INT_MIN, -5)) { errors++; printf("FAIL overflow guard\n"); }
  if (FLT_MAX < 3.4e38f || DBL_MAX < 1.79e308 || FLT_MIN > 1.2e-38f || DBL_MIN > 2.3e-308) { errors++; printf("FAIL float ranges\n"); }
  if (FLT_EPSILON != 1.1920928955078125e-07f || DBL_EPSILON != 2.220446049250313e-16) { errors++; printf("FAIL epsilons\n"); }
  if (FLT_MANT_DIG != 24 || DBL_MANT_DIG != 53 || FLT_RADIX != 2) { errors++; printf("FAIL mantissa\n"); }
  double minval = DBL_MAX, maxval = -DBL_MAX;
  for (int i = 0; i < 100; i++) {
    double v = sin(i * 0.3) * 1000;
    if (v < minval) minval = v;
    if (v > maxval) maxval = v;
  }
  if (minval > -990 || maxval < 990) { errors++; printf("FAIL min/max search\n"); }
  double e = 1.0;
  while (1.0 + e / 2 > 1.0) e /= 2;
  if (e != DBL_EPSILON) { errors++; printf("FAIL computed epsilon %g\n", e); }
  if (DBL_DIG != 15 || FLT_DIG != 6 || DBL_MAX_EXP != 1024) { errors++; printf("FAIL digits\n"); }
  if (errors == 0) printf("limits.h/float.h ok\n");
  return errors != 0;
}

// long double forms: sqrtl, powl, expl, logl, fabsl, sinl, cosl, atan2l, fmodl, floorl.
#include <stdio.h>
#include <math.h>

static int errors = 0;
#define NEARL(a, b, tol) do { long double a_ = (a), b_ = (b); if (fabsl(a_ - b_) > (tol)) { printf("FAIL line %d: %.20Lg vs %.20Lg\n", __LINE__, a_, b_); errors++; } } while (0)

int main(void) {
  NEARL(sqrtl(3.0L) * sqrtl(3.0L), 3.0L, 1e-15L);
  NEARL(powl(1.5L, 3.0L), 3.375L, 0);
  NEARL(expl(1.0L), 2.718281828459045235360287L, 1e-15L);
  NEARL(logl(expl(2.25L)), 2.25L, 1e-15L);
  NEARL(sinl(1.0L) * sinl(1.0L) + cosl(1.0L) * cosl(1.0L), 1.0L, 1e-15L);
  NEARL(atan2l(1.0L, 1.0L) * 4, 3.14159265358979323846264L, 1e-15L);
  NEARL(fmodl(10.5L, 3.0L), 1.5L, 0);
  NEARL(floorl(-0.5L), -1.0L, 0);
  NEARL(fabsl(-1e-30L), 1e-30L, 0);
  long double s = 0;
  for (int k = 1; k <= 2000; k++) s += 1.0L / ((long double)k * k);
  NEARL(s, 3.14159265358979323846264L * 3.14159265358979323846264L / 6.0L, 1e-3L);
  long double prod = 1;
  for (int i = 1; i <= 25; i++) prod *= i;            /* 25! */
  NEARL(prod / 15511210043330985984000000.0L, 1.0L, 1e-15L);
  if (errors == 0) printf("long double math ok\n");
  return errors != 0;
}

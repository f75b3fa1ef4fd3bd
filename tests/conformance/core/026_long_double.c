// long double arithmetic and math (sqrtl, expl, fabsl, powl), conversions.
#include <stdio.h>
#include <math.h>
#include <float.h>

int main(void) {
  int errors = 0;
  long double third = 1.0L / 3.0L;
  long double s = 0;
  for (int i = 0; i < 3000; i++) s += third;
  if (fabsl(s - 1000.0L) > 1e-9L) { errors++; printf("FAIL sum\n"); }
  long double r = sqrtl(2.0L);
  if (fabsl(r * r - 2.0L) > 1e-15L) { errors++; printf("FAIL sqrtl\n"); }
  if (fabsl(expl(logl(10.0L)) - 10.0L) > 1e-14L) { errors++; printf("FAIL expl/logl\n"); }
  if (powl(2.0L, 10.0L) != 1024.0L) { errors++; printf("FAIL powl\n"); }
  if (LDBL_DIG < DBL_DIG) { errors++; printf("FAIL LDBL_DIG\n"); }
  double d = (double)third;
  if (fabs(d - 1.0 / 3.0) > 1e-16) { errors++; printf("FAIL narrowing\n"); }
  long double big = 1e30L;
  long double harmonic = 0;
  for (int k = 1; k <= 1000; k++) harmonic += 1.0L / k;
  if (fabsl(harmonic - 7.485470860550344912656518L) > 1e-13L) { errors++; printf("FAIL harmonic\n"); }
  if (big * big <= big) { errors++; printf("FAIL range\n"); }
  long l = (long)(third * 300.0L);
  if (l != 99 && l != 100) { errors++; printf("FAIL to long\n"); }
  long double fl = floorl(-2.5L), ce = ceill(-2.5L);
  if (fl != -3.0L || ce != -2.0L) { errors++; printf("FAIL floorl/ceill\n"); }
  if (fabsl(sinl(0.5L) * sinl(0.5L) + cosl(0.5L) * cosl(0.5L) - 1.0L) > 1e-15L) { errors++; printf("FAIL sinl/cosl\n"); }
  if (errors == 0) printf("long double ok\n");
  return errors != 0;
}

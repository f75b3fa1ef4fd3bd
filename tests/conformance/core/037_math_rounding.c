// floor, ceil, fmod, fmax, fmin, round, trunc, modf, frexp/ldexp, hypot, cbrt.
#include <stdio.h>
#include <math.h>
#include <float.h>

static int errors = 0;
/* Exact results (floor, fmod, frexp, ...) are compared exactly. cbrt is not
   correctly rounded in glibc: cbrt(-27.0) is -3.0000000000000004 from libm
   (what accjit and gcc -fno-builtin call) but exactly -3 when gcc folds the
   constant call with MPFR, so it gets a tolerance of a few ulps. */
#define NEAR(a, b) do { double a_ = (a), b_ = (b); if (fabs(a_ - b_) > 4 * DBL_EPSILON * fabs(b_)) { printf("FAIL line %d: %.17g vs %.17g\n", __LINE__, a_, b_); errors++; } } while (0)
#define EQ(a, b) do { double a_ = (a), b_ = (b); if (a_ != b_) { printf("FAIL line %d: %.17g vs %.17g\n", __LINE__, a_, b_); errors++; } } while (0)

int main(void) {
  EQ(floor(2.7), 2.0); EQ(floor(-2.2), -3.0); EQ(floor(5.0), 5.0);
  EQ(ceil(2.2), 3.0); EQ(ceil(-2.7), -2.0);
  EQ(fmod(7.5, 2.0), 1.5); EQ(fmod(-7.5, 2.0), -1.5); EQ(fmod(1e10, 3.0), 1.0);
  EQ(fmax(3.0, -1.0), 3.0); EQ(fmin(3.0, -1.0), -1.0);
  EQ(fmax(NAN, 2.0), 2.0); EQ(fmin(2.0, NAN), 2.0);
  EQ(round(2.5), 3.0); EQ(round(-2.5), -3.0); EQ(trunc(-2.9), -2.0);
  double ip, fp = modf(-3.25, &ip);
  EQ(ip, -3.0); EQ(fp, -0.25);
  int e;
  double m = frexp(48.0, &e);
  EQ(m, 0.75); EQ(e, 6); EQ(ldexp(0.75, 6), 48.0);
  EQ(hypot(3.0, 4.0), 5.0);
  NEAR(cbrt(-27.0), -3.0); NEAR(cbrt(8.0), 2.0);
  double x = 0;
  for (int i = 0; i < 1000; i++) {
    double v = (i - 500) * 0.013;
    if (floor(v) > v || ceil(v) < v || ceil(v) - floor(v) > 1.0) { errors++; printf("FAIL bracket %g\n", v); break; }
    x += fmod(fabs(v), 1.0);
  }
  if (x <= 0 || x >= 1000) { errors++; printf("FAIL fmod sum %g\n", x); }
  if (errors == 0) printf("rounding functions ok\n");
  return errors != 0;
}

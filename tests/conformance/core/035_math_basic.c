// math.h: fabs, sqrt, pow, exp, log, log10 against identities and known values.
#include <stdio.h>
#include <math.h>

static int errors = 0;
#define NEAR(a, b, tol) do { double a_ = (a), b_ = (b); if (fabs(a_ - b_) > (tol)) { printf("FAIL line %d: %.17g vs %.17g\n", __LINE__, a_, b_); errors++; } } while (0)

int main(void) {
  NEAR(sqrt(2.0) * sqrt(2.0), 2.0, 1e-15);
  NEAR(sqrt(1e10), 1e5, 0);
  NEAR(pow(2.0, 0.5), sqrt(2.0), 1e-15);
  NEAR(pow(-2.0, 3.0), -8.0, 0);
  NEAR(pow(10.0, -2.0), 0.01, 1e-18);
  NEAR(exp(1.0), 2.718281828459045, 1e-15);
  NEAR(log(exp(3.5)), 3.5, 1e-15);
  NEAR(log10(1e-7), -7.0, 1e-15);
  NEAR(log10(2.0) + log10(5.0), 1.0, 1e-15);
  NEAR(fabs(-0.125), 0.125, 0);
  double s = 0;
  for (int k = 1; k <= 20; k++) s += pow(0.5, k);
  NEAR(s, 1.0 - pow(0.5, 20), 1e-15);
  for (double x = 0.1; x < 10; x *= 1.7) {
    NEAR(exp(log(x)), x, 1e-14 * x);
    NEAR(log(x * x), 2 * log(x), 1e-14);
  }
  NEAR(exp(0.0), 1.0, 0);
  NEAR(log(1.0), 0.0, 0);
  if (!isinf(log(0.0)) || !isnan(sqrt(-1.0))) { errors++; printf("FAIL special values\n"); }
  NEAR(M_PI, 3.14159265358979323846, 0);
  if (errors == 0) printf("math basics ok\n");
  return errors != 0;
}

// math.h trigonometry: sin, cos, tan, atan2, asin, acos, atan, sinh, cosh, tanh.
#include <stdio.h>
#include <math.h>

static int errors = 0;
/* Tolerances are a few ulps, never below one: gcc folds calls on constants with
   correctly rounded MPFR results, while accjit (and gcc -fno-builtin) call the
   process's libm, whose tanh/sinh/cosh/asin/... may differ by an ulp or two
   (glibc: tanh(0.7) and sinh(0.7)/cosh(0.7) differ in the last bit). */
#define NEAR(a, b, tol) do { double a_ = (a), b_ = (b); if (fabs(a_ - b_) > (tol)) { printf("FAIL line %d: %.17g vs %.17g\n", __LINE__, a_, b_); errors++; } } while (0)

int main(void) {
  const double pi = 3.14159265358979323846;
  for (int k = -8; k <= 8; k++) {
    double x = k * 0.37;
    NEAR(sin(x) * sin(x) + cos(x) * cos(x), 1.0, 1e-15);
    NEAR(sin(2 * x), 2 * sin(x) * cos(x), 1e-15);
    if (fabs(cos(x)) > 1e-3) NEAR(tan(x), sin(x) / cos(x), 1e-13);
    NEAR(atan2(sin(x), cos(x)), x, 1e-15);
  }
  NEAR(atan2(1.0, 1.0), pi / 4, 4e-16);
  NEAR(atan2(1.0, -1.0), 3 * pi / 4, 1e-15);
  NEAR(atan2(-1.0, -1.0), -3 * pi / 4, 1e-15);
  NEAR(atan2(0.0, -1.0), pi, 8e-16);
  NEAR(asin(1.0), pi / 2, 8e-16);
  NEAR(acos(-1.0), pi, 8e-16);
  NEAR(atan(1.0) * 4, pi, 1e-15);
  NEAR(cosh(1.3) * cosh(1.3) - sinh(1.3) * sinh(1.3), 1.0, 1e-14);
  NEAR(tanh(0.7), sinh(0.7) / cosh(0.7), 4e-16);
  NEAR(sin(pi / 6), 0.5, 4e-16);
  NEAR(cos(pi / 3), 0.5, 1e-15);
  NEAR(tan(pi / 4), 1.0, 1e-15);
  double area = 0;                          /* polygon area -> circle */
  int n = 720;
  for (int i = 0; i < n; i++) area += 0.5 * sin(2 * pi / n);
  NEAR(area, pi, 1e-4);
  if (errors == 0) printf("trigonometry ok\n");
  return errors != 0;
}

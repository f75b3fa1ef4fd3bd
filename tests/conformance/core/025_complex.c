// float _Complex and double _Complex with I, creal, cimag, cabs, conj, cexp.
#include <stdio.h>
#include <complex.h>
#include <math.h>

static double complex poly(double complex z) { return z * z * z - 1.0; }

int main(void) {
  int errors = 0;
  double _Complex a = 3.0 + 4.0 * I, b = 1.0 - 2.0 * I;
  double _Complex p = a * b, q = a / b;
  if (creal(p) != 11.0 || cimag(p) != -2.0) { errors++; printf("FAIL mul %g %g\n", creal(p), cimag(p)); }
  if (fabs(creal(q) + 1.0) > 1e-15 || fabs(cimag(q) - 2.0) > 1e-15) { errors++; printf("FAIL div\n"); }
  if (cabs(a) != 5.0 || cimag(conj(a)) != -4.0) { errors++; printf("FAIL cabs/conj\n"); }
  float _Complex f = 1.5f + 2.5f * I;
  f = f * f;
  if (crealf(f) != -4.0f || cimagf(f) != 7.5f) { errors++; printf("FAIL float complex\n"); }
  double complex e = cexp(I * 3.14159265358979323846);
  if (fabs(creal(e) + 1) > 1e-15 || fabs(cimag(e)) > 1e-15) { errors++; printf("FAIL euler\n"); }
  /* the three cube roots of unity are roots of z^3 - 1 */
  for (int k = 0; k < 3; k++) {
    double t = 2 * 3.14159265358979323846 * k / 3;
    double complex z = cos(t) + sin(t) * I;
    if (cabs(poly(z)) > 1e-12) { errors++; printf("FAIL root %d\n", k); }
  }
  double complex sum = 0;
  for (int k = 1; k <= 10; k++) sum += k * I + 1.0 / k;
  if (fabs(cimag(sum) - 55) > 1e-12 || fabs(creal(sum) - 2.9289682539682538) > 1e-12) { errors++; printf("FAIL sum\n"); }
  if (sizeof(double complex) != 16 || sizeof(float complex) != 8) { errors++; printf("FAIL sizes\n"); }
  if (errors == 0) printf("complex ok\n");
  return errors != 0;
}

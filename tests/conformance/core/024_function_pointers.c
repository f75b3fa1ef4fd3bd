// Function pointers: tables, callbacks, returning function pointers, qsort comparators.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

typedef double (*unary)(double);
static double sq(double x) { return x * x; }
static double half(double x) { return x / 2; }
static double integrate(unary f, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; i++) s += f(a + i * h);
  return s * h;
}
static unary pick(int which) { return which ? sq : half; }
static int cmp_desc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x < y) - (x > y);
}
static void apply(int n, double *v, double (*f)(double)) { for (int i = 0; i < n; i++) v[i] = f(v[i]); }

int main(void) {
  int errors = 0;
  double r = integrate(sq, 0, 3, 3000);
  if (fabs(r - 9.0) > 1e-5) { errors++; printf("FAIL integrate %g\n", r); }
  if (fabs(integrate(sin, 0, 3.14159265358979, 2000) - 2.0) > 1e-5) { errors++; printf("FAIL sin integral\n"); }
  if (pick(1)(4) != 16 || pick(0)(4) != 2) { errors++; printf("FAIL pick\n"); }
  unary table[3] = {sq, half, sqrt};
  double x = 16;
  for (int i = 2; i >= 0; i--) x = table[i](x);   /* sqrt 4, half 2, sq 4 */
  if (x != 4) { errors++; printf("FAIL table %g\n", x); }
  int v[10];
  srand(3);
  for (int i = 0; i < 10; i++) v[i] = rand() % 1000;
  qsort(v, 10, sizeof v[0], cmp_desc);
  for (int i = 1; i < 10; i++) if (v[i - 1] < v[i]) { errors++; printf("FAIL qsort at %d\n", i); }
  double w[3] = {1, 2, 3};
  apply(3, w, &sq);
  if (w[2] != 9 || (*table[0])(3) != 9) { errors++; printf("FAIL apply\n"); }
  if (errors == 0) printf("function pointers ok\n");
  return errors != 0;
}

// Compute regions inside functions taking pointers, restrict pointers, and const arrays.
#include <stdio.h>
#include <stdlib.h>

static void vadd(int n, const double *restrict a, const double *restrict b, double *restrict c) {
  #pragma acc parallel loop copyin(a[0:n], b[0:n]) copyout(c[0:n])
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
}
static double vsum(int n, const double *a) {
  double s = 0;
  #pragma acc parallel loop copyin(a[0:n]) reduction(+:s)
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
static void scale_inplace(int n, double *a, double f) {
  #pragma acc kernels copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] *= f;
}

int main(void) {
  const int n = 5000;
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double)), *c = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = n - i; }
  vadd(n, a, b, c);
  int errors = 0;
  for (int i = 0; i < n; i++) if (c[i] != n) { errors++; printf("FAIL c[%d]\n", i); break; }
  if (vsum(n, c) != (double)n * n) { errors++; printf("FAIL vsum\n"); }
  scale_inplace(n, c, 0.5);
  if (vsum(n, c) != (double)n * n / 2) { errors++; printf("FAIL scaled sum\n"); }
  vadd(n / 2, a + n / 2, b + n / 2, c);          /* sections from offset pointers */
  for (int i = 0; i < n / 2; i++) if (c[i] != n) { errors++; printf("FAIL offset call\n"); break; }
  free(a); free(b); free(c);
  if (errors == 0) printf("functions with compute regions ok\n");
  return errors != 0;
}

// T** matrices (row-pointer arrays from malloc) on the device: the pointer array and each row
// are entered separately, so each row pointer is attached; kernels index a[i][j].
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 40, m = 70;
  double **a = malloc(n * sizeof(double *)), **b = malloc(n * sizeof(double *));
  srand(42);
  for (int i = 0; i < n; i++) {
    a[i] = malloc(m * sizeof(double));
    b[i] = malloc(m * sizeof(double));
    for (int j = 0; j < m; j++) { a[i][j] = rand() / (double)RAND_MAX; b[i][j] = 0.0; }
  }
  #pragma acc enter data copyin(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) {
    #pragma acc enter data copyin(a[i][0:m]) create(b[i][0:m])
  }
  #pragma acc parallel loop collapse(2) present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) b[i][j] = 2.0 * a[i][j] + i;
  double total = 0.0;
  #pragma acc parallel loop gang present(b[0:n]) reduction(+:total)
  for (int i = 0; i < n; i++) {
    double rs = 0.0;
    #pragma acc loop vector reduction(+:rs)
    for (int j = 0; j < m; j++) rs += b[i][j];
    total += rs;
  }
  for (int i = 0; i < n; i++) {
    #pragma acc exit data copyout(b[i][0:m]) delete(a[i][0:m])
  }
  #pragma acc exit data delete(a[0:n], b[0:n])
  int errors = 0;
  double want = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      want += 2.0 * a[i][j] + i;
      if (b[i][j] != 2.0 * a[i][j] + i) { if (errors++ < 3) printf("FAIL b[%d][%d]\n", i, j); }
    }
  if (fabs(total - want) > 1e-9 * want) { errors++; printf("FAIL total %g %g\n", total, want); }
  for (int i = 0; i < n; i++) { free(a[i]); free(b[i]); }
  free(a); free(b);
  if (errors == 0) printf("T** rows ok\n");
  return errors != 0;
}

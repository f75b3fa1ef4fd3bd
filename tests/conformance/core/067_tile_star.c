// tile(*) and tile(*, *): the implementation picks tile sizes; results must not change.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  int n = 77, m = 31;
  double *a = malloc(n * m * sizeof(double)), *b = malloc(n * m * sizeof(double));
  for (int i = 0; i < n * m; i++) a[i] = sin(i * 0.1);
  #pragma acc parallel loop tile(*, *) copyin(a[0:n*m]) copyout(b[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) b[i * m + j] = a[i * m + j] * a[i * m + j];
  double c[200];
  #pragma acc parallel loop tile(*) copyout(c)
  for (int i = 0; i < 200; i++) c[i] = i * 0.5;
  int errors = 0;
  for (int i = 0; i < n * m; i++)
    if (fabs(b[i] - a[i] * a[i]) > 1e-15) { if (errors++ < 5) printf("FAIL b[%d]\n", i); }
  for (int i = 0; i < 200; i++) if (c[i] != i * 0.5) { errors++; printf("FAIL c[%d]\n", i); break; }
  #pragma acc parallel loop tile(*, 8) vector copy(b[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) b[i * m + j] = -b[i * m + j];
  for (int i = 0; i < n * m; i++)
    if (fabs(b[i] + a[i] * a[i]) > 1e-15) { errors++; printf("FAIL negated %d\n", i); break; }
  free(a); free(b);
  if (errors == 0) printf("tile(*) ok\n");
  return errors != 0;
}

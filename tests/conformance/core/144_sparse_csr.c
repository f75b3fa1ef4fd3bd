// Sparse matrix-vector product in CSR format: row loop gang/vector, seq inner loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 2000;
  int *rowptr = malloc((n + 1) * sizeof(int));
  int cap = n * 7, nnz = 0;
  int *col = malloc(cap * sizeof(int));
  double *val = malloc(cap * sizeof(double)), *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  srand(42);
  for (int i = 0; i < n; i++) {
    rowptr[i] = nnz;
    int k = 1 + rand() % 6;
    for (int t = 0; t < k; t++) { col[nnz] = rand() % n; val[nnz] = (rand() % 100 - 50) * 0.1; nnz++; }
  }
  rowptr[n] = nnz;
  for (int i = 0; i < n; i++) x[i] = sin(i * 0.01);
  #pragma acc parallel loop copyin(rowptr[0:n+1], col[0:nnz], val[0:nnz], x[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    #pragma acc loop seq
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * x[col[k]];
    y[i] = s;
  }
  int errors = 0;
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * x[col[k]];
    if (fabs(s - y[i]) > 1e-12) { errors++; printf("FAIL y[%d]\n", i); break; }
  }
  free(rowptr); free(col); free(val); free(x); free(y);
  if (errors == 0) printf("CSR spmv ok\n");
  return errors != 0;
}

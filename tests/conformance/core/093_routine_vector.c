// routine vector: a function containing a vector loop, called from a gang loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define R 200
#define C 256

#pragma acc routine vector
static void scale_row(int n, double *row, double s) {
  #pragma acc loop vector
  for (int j = 0; j < n; j++) row[j] *= s;
}

#pragma acc routine vector
static double row_sum(int n, const double *row) {
  double s = 0.0;
  #pragma acc loop vector reduction(+:s)
  for (int j = 0; j < n; j++) s += row[j];
  return s;
}

int main(void) {
  double *a = malloc(R * C * sizeof(double)), sums[R];
  srand(6);
  for (int i = 0; i < R * C; i++) a[i] = rand() % 100;
  #pragma acc parallel loop gang copy(a[0:R*C]) copyout(sums)
  for (int i = 0; i < R; i++) {
    scale_row(C, &a[i * C], 1.0 / (i + 1));
    sums[i] = row_sum(C, &a[i * C]);
  }
  int errors = 0;
  srand(6);
  for (int i = 0; i < R; i++) {
    double w = 0;
    for (int j = 0; j < C; j++) {
      double orig = rand() % 100;
      if (fabs(a[i * C + j] - orig / (i + 1)) > 1e-12) { errors++; i = R; break; }
      w += a[i * C + j];
    }
    if (i < R && fabs(sums[i] - w) > 1e-9) { errors++; printf("FAIL row sum %d\n", i); }
  }
  if (errors) printf("FAIL %d errors\n", errors);
  free(a);
  if (errors == 0) printf("routine vector ok\n");
  return errors != 0;
}

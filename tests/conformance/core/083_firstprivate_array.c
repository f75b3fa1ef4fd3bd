// firstprivate fixed arrays: every gang starts from the host contents of the array.
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

/* Device code may contract a * b + c into one fused multiply-add (nvcc, NVHPC and GCC do so by default;
   C leaves FP_CONTRACT to the implementation), so results are compared within a few units in the last
   place of the terms involved, not bit for bit. */
int main(void) {
  const int n = 2000;
  double coef[5] = {1.0, -0.5, 0.25, -0.125, 0.0625};
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) x[i] = (i % 50) * 0.02;
  #pragma acc parallel loop firstprivate(coef) copyin(x[0:n]) copyout(y[0:n])
  for (int i = 0; i < n; i++) {
    double p = 0;
    for (int k = 4; k >= 0; k--) p = p * x[i] + coef[k];       /* Horner */
    y[i] = p;
  }
  int errors = 0;
  for (int i = 0; i < n; i++) {
    double p = 0;
    for (int k = 4; k >= 0; k--) p = p * x[i] + coef[k];
    if (fabs(y[i] - p) > 1e-14 * 4) {   /* |coef| sum < 2, |x| <= 1 */
 errors++; printf("FAIL y[%d]\n", i); break; }
  }
  int lut[4] = {3, 1, 4, 1};
  int *out = malloc(n * sizeof(int));
  #pragma acc parallel num_gangs(4) firstprivate(lut) copyout(out[0:n])
  {
    lut[0] += 10;                   /* private change, starts from 3 in every gang */
    #pragma acc loop gang
    for (int i = 0; i < n; i++) out[i] = lut[i % 4];
  }
  if (lut[0] != 3) { errors++; printf("FAIL host lut changed\n"); }
  for (int i = 0; i < n; i++) {
    int want = (i % 4 == 0) ? 13 : (int[]){3, 1, 4, 1}[i % 4];
    if (out[i] != want) { errors++; printf("FAIL out[%d] = %d\n", i, out[i]); break; }
  }
  free(x); free(y); free(out);
  if (errors == 0) printf("firstprivate arrays ok\n");
  return errors != 0;
}

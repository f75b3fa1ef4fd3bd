// data construct: copyin/copyout/create/copy around several compute regions using present data.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 8000;
  double *in = malloc(n * sizeof(double)), *tmp = malloc(n * sizeof(double)), *out = malloc(n * sizeof(double));
  double acc_sum = 0.0;
  srand(4);
  for (int i = 0; i < n; i++) in[i] = (double)rand() / RAND_MAX;
  #pragma acc data copyin(in[0:n]) create(tmp[0:n]) copyout(out[0:n]) copy(acc_sum)
  {
    #pragma acc parallel loop present(in[0:n], tmp[0:n])
    for (int i = 0; i < n; i++) tmp[i] = in[i] * in[i];
    #pragma acc parallel loop present(tmp[0:n], out[0:n])
    for (int i = 0; i < n; i++) out[i] = sqrt(tmp[i]) + 1.0;
    #pragma acc parallel loop reduction(+:acc_sum)
    for (int i = 0; i < n; i++) acc_sum += out[i];
  }
  int errors = 0;
  double want = 0;
  for (int i = 0; i < n; i++) {
    if (fabs(out[i] - (in[i] + 1.0)) > 1e-12) { errors++; printf("FAIL out[%d]\n", i); break; }
    want += in[i] + 1.0;
  }
  if (fabs(acc_sum - want) > 1e-8) { errors++; printf("FAIL sum %g %g\n", acc_sum, want); }
  free(in); free(tmp); free(out);
  if (errors == 0) printf("data construct ok\n");
  return errors != 0;
}

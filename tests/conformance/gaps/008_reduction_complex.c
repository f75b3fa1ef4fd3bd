// reductions on float _Complex and double _Complex with + and *, on a parallel loop and on the parallel construct.
// gcc 12 -fopenacc accepts and passes this program (gcc_check.py).
#include <stdio.h>
#include <stdlib.h>
#include <complex.h>
#include <math.h>

int main(void) {
  const int n = 4000;
  double *re = malloc(n * sizeof(double)), *im = malloc(n * sizeof(double));
  srand(42);
  for (int i = 0; i < n; i++) { re[i] = (rand() % 2001 - 1000) * 0.001; im[i] = (rand() % 2001 - 1000) * 0.001; }
  double _Complex zs = 1.0 + 2.0 * I;
  float _Complex fs = 0.5f - 0.25f * I;
  #pragma acc parallel loop copyin(re[0:n], im[0:n]) reduction(+:zs, fs)
  for (int i = 0; i < n; i++) {
    zs += re[i] + im[i] * I;
    fs += (float)re[i] * 0.5f + (float)im[i] * I;
  }
  double _Complex wz = 1.0 + 2.0 * I;
  float _Complex wf = 0.5f - 0.25f * I;
  for (int i = 0; i < n; i++) { wz += re[i] + im[i] * I; wf += (float)re[i] * 0.5f + (float)im[i] * I; }
  int errors = 0;
  if (cabs(zs - wz) > 1e-9) { errors++; printf("FAIL double complex sum (%g,%g) (%g,%g)\n", creal(zs), cimag(zs), creal(wz), cimag(wz)); }
  if (cabsf(fs - wf) > 1e-2f) { errors++; printf("FAIL float complex sum (%g,%g) (%g,%g)\n", crealf(fs), cimagf(fs), crealf(wf), cimagf(wf)); }
  // Products of unit-modulus factors stay bounded.
  double _Complex zp = 2.0;
  #pragma acc parallel loop copyin(re[0:n]) reduction(*:zp)
  for (int i = 0; i < n; i++) zp *= cos(re[i]) + sin(re[i]) * I;
  double _Complex wp = 2.0;
  for (int i = 0; i < n; i++) wp *= cos(re[i]) + sin(re[i]) * I;
  if (cabs(zp - wp) > 1e-9) { errors++; printf("FAIL complex product (%g,%g) (%g,%g)\n", creal(zp), cimag(zp), creal(wp), cimag(wp)); }
  float _Complex fp = 1.0f;
  #pragma acc parallel num_gangs(4) reduction(*:fp) copyin(re[0:n])
  {
    #pragma acc loop gang
    for (int i = 0; i < 200; i++) fp *= cosf((float)re[i]) + sinf((float)re[i]) * I;
  }
  float _Complex wfp = 1.0f;
  for (int i = 0; i < 200; i++) wfp *= cosf((float)re[i]) + sinf((float)re[i]) * I;
  if (cabsf(fp - wfp) > 1e-3f) { errors++; printf("FAIL construct complex product (%g,%g) (%g,%g)\n", crealf(fp), cimagf(fp), crealf(wfp), cimagf(wfp)); }
  free(re); free(im);
  if (errors == 0) printf("complex reductions ok\n");
  return errors != 0;
}

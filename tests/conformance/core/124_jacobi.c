// Jacobi iteration on a 2-D grid inside a data region; convergence tested by a max reduction.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NX 64
#define NY 48

int main(void) {
  static double a[NY][NX], anew[NY][NX], ref[NY][NX], rnew[NY][NX];
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      a[j][i] = (j == 0) ? 1.0 : 0.0;                /* hot top edge */
      anew[j][i] = a[j][i]; ref[j][i] = a[j][i]; rnew[j][i] = a[j][i];
    }
  double err = 1.0;
  int iter = 0;
  #pragma acc data copy(a) create(anew)
  while (err > 1e-4 && iter < 200) {
    err = 0.0;
    #pragma acc parallel loop collapse(2) reduction(max:err) present(a, anew)
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++) {
        anew[j][i] = 0.25 * (a[j][i + 1] + a[j][i - 1] + a[j - 1][i] + a[j + 1][i]);
        err = fmax(err, fabs(anew[j][i] - a[j][i]));
      }
    #pragma acc parallel loop collapse(2) present(a, anew)
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++) a[j][i] = anew[j][i];
    iter++;
  }
  for (int it = 0; it < iter; it++) {
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++) rnew[j][i] = 0.25 * (ref[j][i + 1] + ref[j][i - 1] + ref[j - 1][i] + ref[j + 1][i]);
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++) ref[j][i] = rnew[j][i];
  }
  int errors = 0;
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++)
      if (fabs(a[j][i] - ref[j][i]) > 1e-12) { errors++; printf("FAIL a[%d][%d]\n", j, i); j = NY; break; }
  if (iter != 200 && err > 1e-4) { errors++; printf("FAIL stop condition\n"); }
  printf("%d iterations, err %g\n", iter, err);
  if (errors == 0) printf("jacobi ok\n");
  return errors != 0;
}

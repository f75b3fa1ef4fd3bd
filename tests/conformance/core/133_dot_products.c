// Dot products in float, double and mixed precision, several loop shapes.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 40000;
  float *x = malloc(n * sizeof(float)), *y = malloc(n * sizeof(float));
  srand(1);
  for (int i = 0; i < n; i++) { x[i] = (rand() % 200 - 100) / 64.0f; y[i] = (rand() % 200 - 100) / 64.0f; }
  float sf = 0.0f;
  double sd = 0.0, sm = 0.0;
  #pragma acc data copyin(x[0:n], y[0:n])
  {
    #pragma acc parallel loop reduction(+:sf)
    for (int i = 0; i < n; i++) sf += x[i] * y[i];
    #pragma acc parallel loop gang vector reduction(+:sd)
    for (int i = 0; i < n; i++) sd += (double)x[i] * (double)y[i];
    #pragma acc parallel
    {
      #pragma acc loop gang worker vector reduction(+:sm)
      for (int i = 0; i < n; i++) sm += x[i] * (double)y[i];
    }
  }
  double want = 0;
  for (int i = 0; i < n; i++) want += (double)x[i] * y[i];
  int errors = 0;
  if (sd != want) { errors++; printf("FAIL double %.17g %.17g\n", sd, want); }   /* exact: products are multiples of 2^-12 */
  if (sm != want) { errors++; printf("FAIL mixed %.17g\n", sm); }
  if (fabs(sf - want) > 1e-3 * (1 + fabs(want))) { errors++; printf("FAIL float %g %g\n", sf, want); }
  free(x); free(y);
  if (errors == 0) printf("dot products ok\n");
  return errors != 0;
}

// 5-point Laplacian stencil with collapse(2) and boundary handling by index tests.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  int nx = 70, ny = 55;
  float *u = malloc(nx * ny * sizeof(float)), *lap = malloc(nx * ny * sizeof(float));
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) u[j * nx + i] = (float)(i * i + 2 * j * j);   /* Laplacian = 2 + 4 */
  #pragma acc parallel loop collapse(2) copyin(u[0:nx*ny]) copyout(lap[0:nx*ny])
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) { lap[j * nx + i] = 0.0f; continue; }
      lap[j * nx + i] = u[j * nx + i - 1] + u[j * nx + i + 1] + u[(j - 1) * nx + i] + u[(j + 1) * nx + i] - 4.0f * u[j * nx + i];
    }
  int errors = 0;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int edge = i == 0 || j == 0 || i == nx - 1 || j == ny - 1;
      float want = edge ? 0.0f : 6.0f;
      if (fabsf(lap[j * nx + i] - want) > 1e-2f) { errors++; printf("FAIL lap(%d,%d) = %g\n", i, j, lap[j * nx + i]); j = ny; break; }
    }
  free(u); free(lap);
  if (errors == 0) printf("2-D stencil ok\n");
  return errors != 0;
}

// routine gang(dim:2) called from a gang(dim:3) loop, and routine gang (dimension 1) called from a gang(dim:2) loop: calls in gang-redundant mode in the routine's dimensions.
// OpenACC 3.3 §2.15.1: a gang(dim:d) routine must be called in gang-redundant mode in dimensions d and lower.
// GCC 12 lacks gang(dim:): gcc_check.py turns `routine gang(dim:2)` into `routine gang`, drops gang(dim:n) on loops and
// multiplies num_gangs values (gcc then runs the calls inside a plain parallel loop).
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine gang(dim:2)
static void fill_plane(int ny, int nx, int k, float *plane) {
  #pragma acc loop gang(dim:2)
  for (int j = 0; j < ny; j++) {
    #pragma acc loop gang(dim:1)
    for (int i = 0; i < nx; i++) plane[j * nx + i] = (float)(k * 100 + j * 10 + i) * 0.5f;
  }
}

#pragma acc routine gang
static void scale_row(int nx, float s, const float *src, float *dst) {
  #pragma acc loop gang
  for (int i = 0; i < nx; i++) dst[i] = src[i] * s;
}

int main(void) {
  const int nz = 6, ny = 8, nx = 21;
  float *u = malloc(nz * ny * nx * sizeof(float)), *v = malloc(ny * nx * sizeof(float));
  float *w = malloc(ny * nx * sizeof(float));
  srand(42);
  for (int p = 0; p < ny * nx; p++) w[p] = (float)(rand() % 64);
  #pragma acc parallel num_gangs(2, 2, 3) copyout(u[0:nz * ny * nx])
  {
    #pragma acc loop gang(dim:3)
    for (int k = 0; k < nz; k++) fill_plane(ny, nx, k, u + k * ny * nx);
  }
  #pragma acc parallel num_gangs(3, 4) copyin(w[0:ny * nx]) copyout(v[0:ny * nx])
  {
    #pragma acc loop gang(dim:2)
    for (int j = 0; j < ny; j++) scale_row(nx, 0.25f, w + j * nx, v + j * nx);
  }
  int errors = 0;
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        float e = (float)(k * 100 + j * 10 + i) * 0.5f;
        if (u[(k * ny + j) * nx + i] != e) {
          if (errors++ < 5) printf("FAIL u(%d,%d,%d) = %g, expected %g\n", k, j, i, u[(k * ny + j) * nx + i], e);
        }
      }
  for (int p = 0; p < ny * nx; p++)
    if (v[p] != w[p] * 0.25f) {
      if (errors++ < 10) printf("FAIL v[%d] = %g\n", p, v[p]);
    }
  free(u); free(v); free(w);
  return errors != 0;
}

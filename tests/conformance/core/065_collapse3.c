// collapse(3): a 3-D stencil-free update and a triple-index reduction.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int nx = 13, ny = 9, nz = 21;
  int total = nx * ny * nz;
  float *u = malloc(total * sizeof(float)), *v = malloc(total * sizeof(float));
  srand(4);
  for (int i = 0; i < total; i++) u[i] = (float)(rand() % 50);
  #pragma acc parallel loop collapse(3) copyin(u[0:total]) copyout(v[0:total])
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) {
        int id = (i * ny + j) * nz + k;
        v[id] = u[id] + (float)(i * 100 + j * 10 + k);
      }
  int errors = 0;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) {
        int id = (i * ny + j) * nz + k;
        if (v[id] != u[id] + (float)(i * 100 + j * 10 + k)) { if (errors++ < 5) printf("FAIL v[%d]\n", id); }
      }
  long s = 0;
  #pragma acc kernels loop collapse(3) reduction(+:s)
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) s += (i + 1) * (j + 2) - k;
  long w = 0;
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++)
      for (int k = 0; k < nz; k++) w += (i + 1) * (j + 2) - k;
  if (s != w) { errors++; printf("FAIL collapse(3) reduction %ld %ld\n", s, w); }
  free(u); free(v);
  if (errors == 0) printf("collapse(3) ok\n");
  return errors != 0;
}

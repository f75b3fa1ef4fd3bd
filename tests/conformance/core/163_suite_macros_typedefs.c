// Benchmark-suite style: typedef'd real type, size macros, #ifdef _OPENACC paths, checksums.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#ifdef _OPENACC
#include <openacc.h>
#endif

#ifndef NSIZE
#define NSIZE 3000
#endif
#define ITERS 5
#define REAL double
#define IDX(i, j) ((i) * 3 + (j))
typedef REAL real_t;

static real_t checksum(const real_t *v, int n) { real_t s = 0; for (int i = 0; i < n; i++) s += v[i] * (i % 7 + 1); return s; }

int main(void) {
  real_t *pos = malloc(3 * NSIZE * sizeof(real_t)), *vel = malloc(3 * NSIZE * sizeof(real_t));
  for (int i = 0; i < NSIZE; i++)
    for (int d = 0; d < 3; d++) { pos[IDX(i, d)] = i + d * 0.1; vel[IDX(i, d)] = (d - 1) * 0.01; }
  const real_t dt = 0.5;
#ifdef _OPENACC
  int on_accel = 1;
#else
  int on_accel = 0;
#endif
  #pragma acc data copy(pos[0:3*NSIZE]) copyin(vel[0:3*NSIZE])
  for (int it = 0; it < ITERS; it++) {
    #pragma acc parallel loop collapse(2) present(pos[0:3*NSIZE], vel[0:3*NSIZE])
    for (int i = 0; i < NSIZE; i++)
      for (int d = 0; d < 3; d++) pos[IDX(i, d)] += dt * vel[IDX(i, d)];
  }
  real_t *ref = malloc(3 * NSIZE * sizeof(real_t));
  for (int i = 0; i < NSIZE; i++)
    for (int d = 0; d < 3; d++) {
      ref[IDX(i, d)] = i + d * 0.1;
      for (int it = 0; it < ITERS; it++) ref[IDX(i, d)] += dt * ((d - 1) * 0.01);
    }
  int errors = 0;
  if (!on_accel) { errors++; printf("FAIL _OPENACC not defined\n"); }
  real_t c1 = checksum(pos, 3 * NSIZE), c2 = checksum(ref, 3 * NSIZE);
  if (fabs(c1 - c2) > 1e-9 * fabs(c2)) { errors++; printf("FAIL checksum %.12g %.12g\n", c1, c2); }
  printf("checksum %.6f\n", c1);
  free(pos); free(vel); free(ref);
  if (errors == 0) printf("suite-style macros ok\n");
  return errors != 0;
}

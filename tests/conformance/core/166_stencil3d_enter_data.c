// A 3-D 7-point stencil benchmark shape: enter data once, iterate, update self at the end.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NX 20
#define NY 18
#define NZ 16
#define I3(i, j, k) (((i) * NY + (j)) * NZ + (k))

int main(void) {
  const int tot = NX * NY * NZ, iters = 6;
  float *a0 = malloc(tot * sizeof(float)), *a1 = malloc(tot * sizeof(float)), *ref = malloc(tot * sizeof(float)), *tmp = malloc(tot * sizeof(float));
  srand(42);
  for (int t = 0; t < tot; t++) ref[t] = a0[t] = a1[t] = (float)(rand() % 100) / 10.0f;
  const float c0 = 0.4f, c1 = 0.1f;
  #pragma acc enter data copyin(a0[0:tot], a1[0:tot])
  for (int it = 0; it < iters; it++) {
    #pragma acc parallel loop collapse(3) present(a0[0:tot], a1[0:tot])
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++)
        for (int k = 1; k < NZ - 1; k++)
          a1[I3(i, j, k)] = c0 * a0[I3(i, j, k)] + c1 * (a0[I3(i - 1, j, k)] + a0[I3(i + 1, j, k)] + a0[I3(i, j - 1, k)] +
                                                         a0[I3(i, j + 1, k)] + a0[I3(i, j, k - 1)] + a0[I3(i, j, k + 1)]);
    float *sw = a0; a0 = a1; a1 = sw;
  }
  #pragma acc update self(a0[0:tot])
  #pragma acc exit data delete(a0[0:tot], a1[0:tot])
  for (int t = 0; t < tot; t++) tmp[t] = ref[t];
  for (int it = 0; it < iters; it++) {
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++)
        for (int k = 1; k < NZ - 1; k++)
          tmp[I3(i, j, k)] = c0 * ref[I3(i, j, k)] + c1 * (ref[I3(i - 1, j, k)] + ref[I3(i + 1, j, k)] + ref[I3(i, j - 1, k)] +
                                                           ref[I3(i, j + 1, k)] + ref[I3(i, j, k - 1)] + ref[I3(i, j, k + 1)]);
    float *sw = ref; ref = tmp; tmp = sw;
  }
  int errors = 0;
  for (int t = 0; t < tot; t++)
    if (fabsf(a0[t] - ref[t]) > 1e-4f) { errors++; printf("FAIL at %d: %g %g\n", t, a0[t], ref[t]); break; }
  free(a0); free(a1); free(ref); free(tmp);
  if (errors == 0) printf("3-D stencil ok\n");
  return errors != 0;
}

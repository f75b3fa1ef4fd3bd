// Ping-pong buffers: pointers swapped between iterations while both arrays stay present.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 1000, steps = 50;
  double *u = malloc(n * sizeof(double)), *v = malloc(n * sizeof(double));
  double *ref_u = malloc(n * sizeof(double)), *ref_v = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { u[i] = ref_u[i] = (i == n / 2) ? 1.0 : 0.0; v[i] = ref_v[i] = 0.0; }
  double *orig_u = u;
  #pragma acc enter data copyin(u[0:n], v[0:n])
  for (int s = 0; s < steps; s++) {
    #pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? u[i - 1] : 0.0, r = i < n - 1 ? u[i + 1] : 0.0;
      v[i] = 0.5 * u[i] + 0.25 * (l + r);
    }
    double *t = u; u = v; v = t;
  }
  #pragma acc exit data copyout(u[0:n]) delete(v[0:n])
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double l = i > 0 ? ref_u[i - 1] : 0.0, r = i < n - 1 ? ref_u[i + 1] : 0.0;
      ref_v[i] = 0.5 * ref_u[i] + 0.25 * (l + r);
    }
    double *t = ref_u; ref_u = ref_v; ref_v = t;
  }
  int errors = 0;
  double mass = 0;
  for (int i = 0; i < n; i++) {
    mass += u[i];
    if (fabs(u[i] - ref_u[i]) > 1e-15) { errors++; printf("FAIL u[%d]\n", i); break; }
  }
  if (fabs(mass - 1.0) > 1e-12) { errors++; printf("FAIL mass %g\n", mass); }
  if (u != orig_u) { errors++; printf("FAIL even number of swaps should end on the original buffer\n"); }
  free(u); free(v); free(ref_u); free(ref_v);
  if (errors == 0) printf("pointer swap ok\n");
  return errors != 0;
}

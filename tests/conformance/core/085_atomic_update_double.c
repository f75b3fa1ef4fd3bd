// atomic update on double under contention: sums of exactly representable values.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 8192;
  double *v = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) v[i] = (i % 64) * 0.25;       /* exact binary fractions */
  double s = 0.0, t = 100.0, u = 0.0, w = 1.0;
  float fsum = 0.0f;
  #pragma acc parallel loop copyin(v[0:n]) copy(s, t, u, w, fsum)
  for (int i = 0; i < n; i++) {
    #pragma acc atomic update
    s += v[i];
    #pragma acc atomic update
    t = t - 0.5;
    #pragma acc atomic update
    u = v[i] + u;
    if (i % 1024 == 0) {
      #pragma acc atomic update
      w *= 2.0;
    }
    #pragma acc atomic
    fsum += 0.125f;
  }
  double want = 0;
  for (int i = 0; i < n; i++) want += v[i];
  int errors = 0;
  if (s != want || u != want) { errors++; printf("FAIL sums %g %g %g\n", s, u, want); }
  if (t != 100.0 - 0.5 * n) { errors++; printf("FAIL t %g\n", t); }
  if (w != 256.0) { errors++; printf("FAIL w %g\n", w); }
  if (fsum != 1024.0f) { errors++; printf("FAIL float %g\n", fsum); }
  free(v);
  if (errors == 0) printf("atomic update double ok\n");
  return errors != 0;
}

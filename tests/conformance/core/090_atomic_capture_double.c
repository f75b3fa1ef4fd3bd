// atomic capture with doubles: claim slots by capturing a running offset (stream compaction).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int n = 6000;
  double *in = malloc(n * sizeof(double)), *out = malloc(n * sizeof(double));
  srand(5);
  int keep = 0;
  for (int i = 0; i < n; i++) { in[i] = (double)rand() / RAND_MAX; keep += in[i] > 0.7; }
  int next = 0;
  double mass = 0.0;
  #pragma acc parallel loop copyin(in[0:n]) copyout(out[0:n]) copy(next, mass)
  for (int i = 0; i < n; i++) {
    if (in[i] > 0.7) {
      int slot;
      #pragma acc atomic capture
      slot = next++;
      out[slot] = in[i];
      double before;
      #pragma acc atomic capture
      { before = mass; mass += 1.0; }
      if (before < 0) out[slot] = -1;     /* never happens: mass only grows */
    }
  }
  int errors = 0;
  if (next != keep || mass != keep) { errors++; printf("FAIL counts %d %g %d\n", next, mass, keep); }
  double s1 = 0, s2 = 0;
  for (int i = 0; i < next; i++) { s1 += out[i]; if (out[i] <= 0.7) { errors++; printf("FAIL out[%d]\n", i); break; } }
  for (int i = 0; i < n; i++) if (in[i] > 0.7) s2 += in[i];
  if (fabs(s1 - s2) > 1e-9) { errors++; printf("FAIL compacted sum %g %g\n", s1, s2); }
  free(in); free(out);
  if (errors == 0) printf("atomic capture double ok\n");
  return errors != 0;
}

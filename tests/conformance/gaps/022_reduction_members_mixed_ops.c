// members of one struct reduced with different operators and types on one loop and on one construct: reduction(+:s.sum, s.n) reduction(max:s.hi) reduction(min:s.lo).
// GCC 12 lacks the feature: it does not parse a member in a reduction clause; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

struct summary { double sum; int n; float hi; long lo; int bins[3]; };

int main(void) {
  const int n = 30000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 100000 - 50000;
  struct summary s = { 0.5, 1, -1e30f, 1L << 40, { 0, 0, 0 } };
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:s.sum, s.n, s.bins[0:3]) reduction(max:s.hi) reduction(min:s.lo)
  for (int i = 0; i < n; i++) {
    s.sum += v[i] * 0.25;
    s.n += (v[i] > 0);
    s.bins[(v[i] + 50000) % 3] += 1;
    if ((float)v[i] > s.hi) s.hi = (float)v[i];
    if ((long)v[i] * 3 < s.lo) s.lo = (long)v[i] * 3;
  }
  struct summary w = { 0.5, 1, -1e30f, 1L << 40, { 0, 0, 0 } };
  for (int i = 0; i < n; i++) {
    w.sum += v[i] * 0.25; w.n += (v[i] > 0); w.bins[(v[i] + 50000) % 3] += 1;
    if ((float)v[i] > w.hi) w.hi = (float)v[i];
    if ((long)v[i] * 3 < w.lo) w.lo = (long)v[i] * 3;
  }
  int errors = 0;
  if (s.sum != w.sum || s.n != w.n || s.hi != w.hi || s.lo != w.lo) { errors++; printf("FAIL loop %g %d %g %ld / %g %d %g %ld\n", s.sum, s.n, s.hi, s.lo, w.sum, w.n, w.hi, w.lo); }
  for (int k = 0; k < 3; k++) if (s.bins[k] != w.bins[k]) { errors++; printf("FAIL loop bins[%d] %d %d\n", k, s.bins[k], w.bins[k]); }
  struct summary c = { 0.0, 0, -1e30f, 1L << 40, { 5, 5, 5 } };
  #pragma acc parallel num_gangs(3) copyin(v[0:n]) reduction(+:c.sum, c.n) reduction(max:c.hi) reduction(min:c.lo)
  {
    #pragma acc loop gang
    for (int i = 0; i < n; i++) {
      c.sum += v[i] * 0.5;
      c.n += 1;
      if ((float)(v[i] % 1000) > c.hi) c.hi = (float)(v[i] % 1000);
      if ((long)v[i] < c.lo) c.lo = (long)v[i];
    }
  }
  double wsum = 0.0; float whi = -1e30f; long wlo = 1L << 40;
  for (int i = 0; i < n; i++) { wsum += v[i] * 0.5; if ((float)(v[i] % 1000) > whi) whi = (float)(v[i] % 1000); if ((long)v[i] < wlo) wlo = v[i]; }
  if (c.sum != wsum || c.n != n || c.hi != whi || c.lo != wlo) { errors++; printf("FAIL construct %g %d %g %ld / %g %d %g %ld\n", c.sum, c.n, c.hi, c.lo, wsum, n, whi, wlo); }
  if (c.bins[0] != 5 || c.bins[2] != 5) { errors++; printf("FAIL construct: a member outside the reductions changed\n"); }
  free(v);
  if (errors == 0) printf("mixed member reductions ok\n");
  return errors != 0;
}

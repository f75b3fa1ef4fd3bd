// a section and an element reduced on the parallel construct itself: each gang's copy starts at the identity, gang-redundant updates count once per gang.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 24000, nb = 17;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand();
  int *h = malloc(nb * sizeof(int));
  for (int b = 0; b < nb; b++) h[b] = 1000 + b;
  int gangs = 0;
  int tally[3] = { 7, 8, 9 };
  #pragma acc parallel num_gangs(6) copyin(v[0:n]) copy(h[0:nb]) reduction(+:h[0:nb], gangs) reduction(max:tally[1])
  {
    gangs += 1;
    h[0] += 1;
    #pragma acc loop gang
    for (int i = 0; i < n; i++) {
      h[v[i] % nb] += 1;
      if (v[i] % 1000 > tally[1]) tally[1] = v[i] % 1000;
    }
  }
  int w[17];
  for (int b = 0; b < nb; b++) w[b] = 1000 + b;
  w[0] += gangs;
  int wt = 8;
  for (int i = 0; i < n; i++) { w[v[i] % nb] += 1; if (v[i] % 1000 > wt) wt = v[i] % 1000; }
  int errors = 0;
  if (gangs < 1) { errors++; printf("FAIL gangs %d\n", gangs); }
  for (int b = 0; b < nb; b++) if (h[b] != w[b]) { errors++; printf("FAIL construct section %d %d %d\n", b, h[b], w[b]); }
  if (tally[1] != wt || tally[0] != 7 || tally[2] != 9) { errors++; printf("FAIL construct element %d %d\n", tally[1], wt); }
  free(v); free(h);
  if (errors == 0) printf("construct section reductions ok\n");
  return errors != 0;
}

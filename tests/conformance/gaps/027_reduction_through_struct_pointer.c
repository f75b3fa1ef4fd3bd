// reductions on members reached through a struct pointer: reduction(+:sp->total) and reduction(max:sp->peak[0:4]) on one struct, and an element of a member array.
// GCC 12 lacks the feature: it does not parse `->` in a reduction clause; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

struct acc { long total; int peak[4]; double mean; };

static void accumulate(struct acc *sp, const int *v, int n) {
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:sp->total) reduction(max:sp->peak[0:4])
  for (int i = 0; i < n; i++) {
    sp->total += v[i];
    if (v[i] > sp->peak[v[i] & 3]) sp->peak[v[i] & 3] = v[i];
  }
}

int main(void) {
  const int n = 40000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 100000;
  struct acc *a = malloc(sizeof *a);
  a->total = 100; a->mean = 2.5;
  for (int k = 0; k < 4; k++) a->peak[k] = -1;
  accumulate(a, v, n);
  long wt = 100;
  int wp[4] = { -1, -1, -1, -1 };
  for (int i = 0; i < n; i++) { wt += v[i]; if (v[i] > wp[v[i] & 3]) wp[v[i] & 3] = v[i]; }
  int errors = 0;
  if (a->total != wt) { errors++; printf("FAIL total %ld %ld\n", a->total, wt); }
  for (int k = 0; k < 4; k++) if (a->peak[k] != wp[k]) { errors++; printf("FAIL peak[%d] %d %d\n", k, a->peak[k], wp[k]); }
  if (a->mean != 2.5) { errors++; printf("FAIL mean changed %g\n", a->mean); }
  free(v); free(a);
  if (errors == 0) printf("reductions through a struct pointer ok\n");
  return errors != 0;
}

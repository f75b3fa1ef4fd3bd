// reductions on a construct whose if clause is false (the region runs on the local thread): scalar, section and struct results stay correct.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 20000, nb = 7;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 5000;
  int errors = 0;
  for (int on = 0; on < 2; on++) {
    long s = 1;
    int *h = calloc(nb, sizeof(int));
    #pragma acc parallel loop if(on) copyin(v[0:n]) copy(h[0:nb]) reduction(+:s, h[0:nb])
    for (int i = 0; i < n; i++) { s += v[i]; h[v[i] % nb] += 1; }
    long ws = 1;
    int wh[7] = { 0 };
    for (int i = 0; i < n; i++) { ws += v[i]; wh[v[i] % nb] += 1; }
    if (s != ws) { errors++; printf("FAIL if(%d) scalar %ld %ld\n", on, s, ws); }
    for (int b = 0; b < nb; b++) if (h[b] != wh[b]) { errors++; printf("FAIL if(%d) bin %d %d %d\n", on, b, h[b], wh[b]); }
    free(h);
  }
  free(v);
  if (errors == 0) printf("reductions with if ok\n");
  return errors != 0;
}

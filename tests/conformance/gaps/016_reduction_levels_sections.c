// a section reduced again at every level: gang, worker and vector loops each with reduction(+:h[0:nb]); a seq loop with one too.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int G = 16, W = 8, V = 64, nb = 11;
  int *v = malloc(G * W * V * sizeof(int));
  srand(42);
  for (int i = 0; i < G * W * V; i++) v[i] = rand() % 10007;
  long *h = calloc(nb, sizeof(long)), *w = calloc(nb, sizeof(long));
  #pragma acc parallel num_gangs(4) num_workers(2) vector_length(32) copyin(v[0:G*W*V]) copy(h[0:nb])
  {
    #pragma acc loop gang reduction(+:h[0:nb])
    for (int g = 0; g < G; g++) {
      #pragma acc loop worker reduction(+:h[0:nb])
      for (int k = 0; k < W; k++) {
        #pragma acc loop vector reduction(+:h[0:nb])
        for (int j = 0; j < V; j++) {
          int x = v[(g * W + k) * V + j];
          h[x % nb] += x;
        }
      }
    }
  }
  for (int i = 0; i < G * W * V; i++) w[v[i] % nb] += v[i];
  int errors = 0;
  for (int b = 0; b < nb; b++) if (h[b] != w[b]) { errors++; printf("FAIL levels %d %ld %ld\n", b, h[b], w[b]); }
  int m[5] = { 0, 0, 0, 0, 0 }, wm[5] = { 0, 0, 0, 0, 0 };
  #pragma acc parallel loop gang copyin(v[0:G*W*V]) reduction(max:m)
  for (int g = 0; g < G; g++) {
    #pragma acc loop seq reduction(max:m)
    for (int j = 0; j < W * V; j++) {
      int x = v[g * W * V + j];
      if (x > m[x % 5]) m[x % 5] = x;
    }
  }
  for (int i = 0; i < G * W * V; i++) if (v[i] > wm[v[i] % 5]) wm[v[i] % 5] = v[i];
  for (int b = 0; b < 5; b++) if (m[b] != wm[b]) { errors++; printf("FAIL seq %d %d %d\n", b, m[b], wm[b]); }
  free(v); free(h); free(w);
  if (errors == 0) printf("section reductions at every level ok\n");
  return errors != 0;
}

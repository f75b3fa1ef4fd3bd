// a large histogram (4096 bins) reduced by many gangs, with vector_length and num_gangs given, plus min/max element-wise over 2 arrays.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

#define NB 4096

int main(void) {
  const int n = 200000;
  unsigned *v = malloc(n * sizeof(unsigned));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = (unsigned)rand() * 2654435761u;
  int *h = calloc(NB, sizeof(int)), *w = calloc(NB, sizeof(int));
  #pragma acc parallel loop num_gangs(32) vector_length(64) copyin(v[0:n]) copy(h[0:NB]) reduction(+:h[0:NB])
  for (int i = 0; i < n; i++) h[v[i] % NB] += 1;
  for (int i = 0; i < n; i++) w[v[i] % NB] += 1;
  int errors = 0;
  long total = 0;
  for (int b = 0; b < NB; b++) { total += h[b]; if (h[b] != w[b]) { errors++; if (errors < 5) printf("FAIL bin %d %d %d\n", b, h[b], w[b]); } }
  if (total != n) { errors++; printf("FAIL total %ld\n", total); }
  unsigned lo[64], hi[64], wlo[64], whi[64];
  for (int k = 0; k < 64; k++) { lo[k] = wlo[k] = 0xffffffffu; hi[k] = whi[k] = 0; }
  #pragma acc parallel loop gang vector copyin(v[0:n]) reduction(min:lo) reduction(max:hi)
  for (int i = 0; i < n; i++) {
    unsigned k = v[i] >> 26;
    if (v[i] < lo[k]) lo[k] = v[i];
    if (v[i] > hi[k]) hi[k] = v[i];
  }
  for (int i = 0; i < n; i++) { unsigned k = v[i] >> 26; if (v[i] < wlo[k]) wlo[k] = v[i]; if (v[i] > whi[k]) whi[k] = v[i]; }
  for (int k = 0; k < 64; k++) if (lo[k] != wlo[k] || hi[k] != whi[k]) { errors++; printf("FAIL min/max %d %u %u %u %u\n", k, lo[k], wlo[k], hi[k], whi[k]); }
  free(v); free(h); free(w);
  if (errors == 0) printf("large histogram ok\n");
  return errors != 0;
}

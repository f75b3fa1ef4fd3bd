// loop independent and loop auto in parallel and kernels regions.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 3000;
  int *idx = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int)), *in = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { idx[i] = (i * 7919) % n; in[i] = i * 3 - 7; }   /* a permutation */
  #pragma acc kernels copyin(idx[0:n], in[0:n]) copyout(out[0:n])
  {
    #pragma acc loop independent
    for (int i = 0; i < n; i++) out[idx[i]] = in[i];     /* scatter through a permutation */
  }
  int errors = 0;
  for (int i = 0; i < n; i++) if (out[idx[i]] != in[i]) { errors++; printf("FAIL scatter %d\n", i); break; }
  #pragma acc parallel loop auto copy(out[0:n])
  for (int i = 0; i < n; i++) out[i] += 1;
  #pragma acc kernels copy(in[0:n])
  {
    #pragma acc loop auto
    for (int i = 1; i < n; i++) in[i] = in[i - 1] + 1;   /* dependent: auto must stay correct */
  }
  for (int i = 0; i < n; i++) {
    if (in[i] != -7 + i) { errors++; printf("FAIL auto dependent loop %d = %d\n", i, in[i]); break; }
  }
  long s = 0;
  for (int i = 0; i < n; i++) s += out[i];
  long want = 0;
  for (int i = 0; i < n; i++) want += i * 3 - 7 + 1;
  if (s != want) { errors++; printf("FAIL auto parallel %ld %ld\n", s, want); }
  free(idx); free(out); free(in);
  if (errors == 0) printf("independent/auto ok\n");
  return errors != 0;
}

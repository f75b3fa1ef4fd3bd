// Blocked prefix sum: per-block scans in a gang loop, a serial scan of block totals, then a fix-up.
#include <stdio.h>
#include <stdlib.h>

#define NB 40
#define BS 128

int main(void) {
  const int n = NB * BS;
  long *x = malloc(n * sizeof(long)), *s = malloc(n * sizeof(long)), tot[NB];
  srand(23);
  for (int i = 0; i < n; i++) x[i] = rand() % 100 - 30;
  #pragma acc data copyin(x[0:n]) copyout(s[0:n]) create(tot)
  {
    #pragma acc parallel loop gang present(x[0:n], s[0:n], tot)
    for (int b = 0; b < NB; b++) {
      long run = 0;
      #pragma acc loop seq
      for (int k = 0; k < BS; k++) { run += x[b * BS + k]; s[b * BS + k] = run; }
      tot[b] = run;
    }
    #pragma acc serial present(tot)
    {
      long acc = 0;
      for (int b = 0; b < NB; b++) { long t = tot[b]; tot[b] = acc; acc += t; }
    }
    #pragma acc parallel loop collapse(2) present(s[0:n], tot)
    for (int b = 0; b < NB; b++)
      for (int k = 0; k < BS; k++) s[b * BS + k] += tot[b];
  }
  int errors = 0;
  long run = 0;
  for (int i = 0; i < n; i++) {
    run += x[i];
    if (s[i] != run) { errors++; printf("FAIL s[%d] = %ld want %ld\n", i, s[i], run); break; }
  }
  free(x); free(s);
  if (errors == 0) printf("prefix scan ok\n");
  return errors != 0;
}

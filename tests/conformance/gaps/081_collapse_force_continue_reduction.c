// collapse(force:2) with a `continue` in the innermost body, code after the inner loop that still runs, and a sum reduction over the collapsed space.
// OpenACC 3.3 §2.9.1 forced collapse: a continue ends one collapsed iteration; intervening code after the inner loop runs regardless.
// GCC 12 lacks forced collapse: gcc_check.py drops collapse(force:n).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 64, m = 75;
  int *v = malloc(n * m * sizeof(int)), *rowmark = malloc(n * sizeof(int));
  srand(42);
  for (int p = 0; p < n * m; p++) v[p] = rand() % 100 - 30;
  long sum = 0;
  #pragma acc parallel loop collapse(force:2) reduction(+:sum) copyin(v[0:n * m]) copyout(rowmark[0:n])
  for (int i = 0; i < n; i++) {
    const int *row = v + i * m;
    for (int j = 0; j < m; j++) {
      if (row[j] < 0) continue;            /* skips only this (i, j) */
      sum += row[j] * (i % 3 + 1);
    }
    rowmark[i] = 2 * i + 1;                /* runs even when the last j continued */
  }
  long ref = 0;
  int errors = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      if (v[i * m + j] >= 0) ref += v[i * m + j] * (i % 3 + 1);
    if (rowmark[i] != 2 * i + 1) { if (errors++ < 5) printf("FAIL rowmark[%d] = %d\n", i, rowmark[i]); }
  }
  if (sum != ref) { errors++; printf("FAIL sum = %ld, expected %ld\n", sum, ref); }
  free(v); free(rowmark);
  return errors != 0;
}

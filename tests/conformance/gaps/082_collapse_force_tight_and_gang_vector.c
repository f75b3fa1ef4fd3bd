// collapse(force:2) on a tightly nested pair (same as collapse(2)), and forced collapse with explicit gang vector inside a parallel region whose body holds two collapsed nests.
// OpenACC 3.3 §2.9.1. GCC 12 lacks forced collapse: gcc_check.py drops collapse(force:n).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 40, m = 52;
  int *a = malloc(n * m * sizeof(int)), *b = malloc(n * m * sizeof(int));
  srand(42);
  for (int p = 0; p < n * m; p++) a[p] = rand() % 1000;
  #pragma acc parallel copy(a[0:n * m]) copyout(b[0:n * m])
  {
    #pragma acc loop gang vector collapse(force:2)
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++) a[i * m + j] = a[i * m + j] * 3 + i - j;
    #pragma acc loop gang vector collapse(force:2)
    for (int i = 0; i < n; i++) {
      int lo = a[i * m] % 7;
      for (int j = 0; j < m; j++) b[i * m + j] = a[i * m + j] + lo;
    }
  }
  srand(42);
  int errors = 0;
  int *r = malloc(n * m * sizeof(int));
  for (int p = 0; p < n * m; p++) r[p] = rand() % 1000;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) r[i * m + j] = r[i * m + j] * 3 + i - j;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      int e = r[i * m + j] + r[i * m] % 7;
      if (a[i * m + j] != r[i * m + j] || b[i * m + j] != e) {
        if (errors++ < 5) printf("FAIL (%d,%d): a=%d (%d) b=%d (%d)\n", i, j, a[i * m + j], r[i * m + j], b[i * m + j], e);
      }
    }
  free(a); free(b); free(r);
  return errors != 0;
}

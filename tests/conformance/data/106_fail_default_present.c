// expect: fail "not present"
// default(present) on a compute construct that uses an absent array: acc_error_not_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 64;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 0; }
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop default(present)
  for (int i = 0; i < n; i++) b[i] = a[i];          /* b is not present */
  printf("FAIL: default(present) accepted an absent array (%d)\n", b[n - 1]);
  free(a); free(b);
  return 0;
}

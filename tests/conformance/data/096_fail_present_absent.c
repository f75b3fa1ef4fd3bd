// expect: fail "not present"
// present clause on data that was never made present: acc_error_not_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 100;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
  printf("FAIL: present(a) on absent data did not stop the program\n");
  free(a);
  return 0;
}

// expect: fail "not present"
// acc_update_device on data that is not present: acc_error_not_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  double *a = malloc(50 * sizeof(double));
  for (int i = 0; i < 50; i++) a[i] = i;
  acc_update_device(a, 50 * sizeof(double));
  printf("FAIL: acc_update_device on absent data returned\n");
  free(a);
  return 0;
}

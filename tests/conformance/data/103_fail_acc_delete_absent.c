// expect: fail "not present"
// acc_delete of data that is not present: acc_error_not_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  long *a = malloc(16 * sizeof(long));
  acc_copyin(a, 8 * sizeof(long));
  acc_delete(a, 8 * sizeof(long));
  acc_delete(a, 8 * sizeof(long));
  printf("FAIL: second acc_delete returned\n");
  free(a);
  return 0;
}

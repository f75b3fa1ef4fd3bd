// expect: fail "partly present"
// acc_copyout of a range larger than the present one: acc_error_partly_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  float *a = malloc(40 * sizeof(float));
  for (int i = 0; i < 40; i++) a[i] = i;
  acc_copyin(a, 10 * sizeof(float));
  acc_copyout(a, 20 * sizeof(float));
  printf("FAIL: partly present acc_copyout returned\n");
  free(a);
  return 0;
}

// expect: fail "not present"
// acc_copyout of data that is not present: acc_error_not_present.
// gcc 12's host fallback crashes (SIGSEGV) here instead of reporting the error; gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  float *a = malloc(32 * sizeof(float));
  acc_copyout(a, 32 * sizeof(float));
  printf("FAIL: acc_copyout of absent data returned\n");
  free(a);
  return 0;
}

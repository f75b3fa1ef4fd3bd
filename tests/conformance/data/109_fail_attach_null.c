// expect: fail "null pointer"
// acc_attach with a NULL pointer address: acc_error_invalid_null_pointer.
// gcc 12's host fallback crashes (SIGSEGV) here instead of reporting the error; gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  void **where = NULL;
  acc_attach(where);
  printf("FAIL: acc_attach(NULL) returned\n");
  return 0;
}

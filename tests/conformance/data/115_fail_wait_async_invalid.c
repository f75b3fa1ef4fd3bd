// expect: fail "invalid async"
// acc_wait_async with an invalid async argument (-9): acc_error_invalid_async.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int a[8];
  #pragma acc parallel loop copyout(a) async(1)
  for (int i = 0; i < 8; i++) a[i] = i;
  acc_wait_async(1, -9);
  acc_wait_all();
  printf("FAIL: acc_wait_async(1, -9) returned (%d)\n", a[7]);
  return 0;
}

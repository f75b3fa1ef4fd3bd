// expect: fail "invalid async"
// async(-7) on a compute construct: acc_error_invalid_async.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int q = -7, a[10];
  #pragma acc parallel loop copyout(a) async(q)
  for (int i = 0; i < 10; i++) a[i] = i;
  #pragma acc wait
  printf("FAIL: async(%d) was accepted (a[9] = %d)\n", q, a[9]);
  return 0;
}

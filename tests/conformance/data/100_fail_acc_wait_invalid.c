// expect: fail "invalid async"
// acc_wait(-7): not a valid async argument (acc_error_invalid_async).
// gcc 12 fails here too: libgomp: invalid async-argument: -7
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int a[10];
  #pragma acc parallel loop copyout(a)
  for (int i = 0; i < 10; i++) a[i] = i;
  acc_wait(-7);
  printf("FAIL: acc_wait(-7) returned (a[9] = %d)\n", a[9]);
  return 0;
}

// expect: fail "partly present"
// update device(a[0:20]) when only a[0:10] is present: acc_error_partly_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  double a[20];
  for (int i = 0; i < 20; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:10])
  #pragma acc update device(a[0:20])
  printf("FAIL: partly present update accepted (%g)\n", a[19]);
  return 0;
}

// expect: fail "not present"
// update self without if_present on absent data: acc_error_not_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
  #pragma acc update self(a[0:64])
  printf("FAIL: update of absent data did not fail\n");
  return a[0];
}

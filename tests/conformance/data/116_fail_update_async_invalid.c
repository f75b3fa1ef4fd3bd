// expect: fail "invalid async"
// update with async(-5) on present data: acc_error_invalid_async.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int a[16];
  for (int i = 0; i < 16; i++) a[i] = i;
  int q = -5;
  #pragma acc enter data copyin(a)
  #pragma acc update self(a) async(q)
  #pragma acc wait
  printf("FAIL: update async(%d) was accepted (%d)\n", q, a[3]);
  return 0;
}

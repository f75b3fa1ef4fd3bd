// expect: fail "argument"
// acc_wait_any with count < 0: acc_error_invalid_argument.
// gcc_compat.h's stand-in for acc_wait_any (gcc 12 has none) returns -1 here; gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int queues[2] = {1, 2};
  int r = acc_wait_any(-1, queues);
  printf("FAIL: acc_wait_any(-1, ...) returned %d\n", r);
  return 0;
}

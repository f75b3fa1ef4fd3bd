// expect: fail "not present"
// host_data use_device without if_present on absent data: acc_error_not_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  double *a = malloc(10 * sizeof(double));
  double *p = NULL;
  #pragma acc host_data use_device(a)
  {
    p = a;
  }
  printf("FAIL: use_device of absent data gave %p\n", (void *)p);
  free(a);
  return 0;
}

// expect: fail "not present"
// declare present on a local array that nothing made present: acc_error_not_present at function entry.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

static int use(void) {
  int loc[32];
  #pragma acc declare present(loc)
  for (int i = 0; i < 32; i++) loc[i] = i;
  return loc[31];
}

int main(void) {
  int v = use();
  printf("FAIL: declare present of absent data did not fail (%d)\n", v);
  return 0;
}

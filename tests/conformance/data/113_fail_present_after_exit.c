// expect: fail "not present"
// present clause after the data was removed by exit data: acc_error_not_present.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 50;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
  #pragma acc exit data copyout(a[0:n])
  printf("first region ok (a[1] = %d)\n", a[1]);
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1;
  printf("FAIL: present after exit data did not fail\n");
  free(a);
  return 0;
}

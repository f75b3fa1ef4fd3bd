// expect: compile-error "dim" 9:29
// gang(dim:4): gang dimensions are 1, 2 or 3 (OpenACC 3.3 §2.9.2).
// gcc: accepts (GCC 12 has no gang(dim:); gcc_check.py turns gang(dim:4) into `seq`).
#include <stdio.h>

int main(void) {
  int a[16];
  #pragma acc parallel copyout(a)
  #pragma acc loop gang(dim:4)
  for (int i = 0; i < 16; i++) a[i] = i;
  printf("%d\n", a[3]);
  return 0;
}

// expect: compile-error "num_gangs" 8:24
// num_gangs with four values: a gang grid has at most 3 dimensions (OpenACC 3.3 §2.5.10).
// gcc: accepts (GCC 12 takes one num_gangs value; gcc_check.py multiplies the values into one).
#include <stdio.h>

int main(void) {
  int a[16];
  #pragma acc parallel num_gangs(2, 2, 2, 2) copyout(a)
  #pragma acc loop gang
  for (int i = 0; i < 16; i++) a[i] = i;
  printf("%d\n", a[3]);
  return 0;
}

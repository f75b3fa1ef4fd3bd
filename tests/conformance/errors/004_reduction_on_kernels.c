// expect: compile-error "reduction" 7:23
// reduction is not allowed on the kernels construct.
#include <stdio.h>

int main(void) {
  int s = 0;
  #pragma acc kernels reduction(+:s)
  for (int i = 0; i < 10; i++) s += i;
  return s;
}

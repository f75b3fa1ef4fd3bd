// expect: compile-error "num_gangs" 7:22
// num_gangs is not allowed on the serial construct.
#include <stdio.h>

int main(void) {
  int x = 0;
  #pragma acc serial num_gangs(2) copy(x)
  x = 1;
  return x;
}

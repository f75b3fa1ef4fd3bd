// expect: compile-error "if" 7:30
// At most one if clause on a compute construct.
#include <stdio.h>

int main(void) {
  int x = 0;
  #pragma acc parallel if(1) if(0) copy(x)
  x = 1;
  return x;
}

// expect: compile-error "vector_length" 7:22
// vector_length is not allowed on the serial construct.
#include <stdio.h>

int main(void) {
  int x = 0;
  #pragma acc serial vector_length(32) copy(x)
  x = 2;
  return x;
}

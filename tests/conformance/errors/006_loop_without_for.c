// expect: compile-error "for" 10:5
// A loop directive must be followed by a for loop.
#include <stdio.h>

int main(void) {
  int x = 0;
  #pragma acc parallel copy(x)
  {
    #pragma acc loop
    x = 1;
  }
  return x;
}

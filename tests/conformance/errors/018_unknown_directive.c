// expect: compile-error "frobulate" 8:15
// An unknown OpenACC directive name.
// gcc: accepts (it ignores unknown acc pragmas with a warning)
#include <stdio.h>

int main(void) {
  int x = 0;
  #pragma acc frobulate copy(x)
  x = 1;
  return x;
}

// expect: compile-error "reduction" 7:39
// A reduction operator that does not exist.
#include <stdio.h>

int main(void) {
  int s = 0;
  #pragma acc parallel loop reduction(/:s)
  for (int i = 1; i < 10; i++) s += i;
  return s;
}

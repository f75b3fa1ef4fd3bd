// expect: compile-error "nosuch_array" 7:34
// A data clause naming an undeclared variable.
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc parallel loop copy(nosuch_array[0:10])
  for (int i = 0; i < 10; i++) a[i] = i;
  return a[0];
}

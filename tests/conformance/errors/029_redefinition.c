// expect: compile-error "redefinition" 7:10
// Two definitions of the same variable in one block.
#include <stdio.h>

int main(void) {
  int value = 1;
  double value = 2.0;
  return (int)value;
}

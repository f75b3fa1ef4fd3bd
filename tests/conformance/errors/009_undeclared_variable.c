// expect: compile-error "undeclared_thing" 7:41
// Use of an undeclared variable.
#include <stdio.h>

int main(void) {
  int total = 0;
  for (int i = 0; i < 10; i++) total += undeclared_thing;
  return total;
}

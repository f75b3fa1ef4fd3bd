// expect: compile-error "const" 7:3
// Assignment to a const-qualified variable.
#include <stdio.h>

int main(void) {
  const int limit = 10;
  limit = 20;
  return limit;
}

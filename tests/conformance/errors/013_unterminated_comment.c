// expect: compile-error "unterminated" 7:3
// A comment that is never closed.
#include <stdio.h>

int main(void) {
  int x = 1;
  /* this comment never ends
  return x;
}

// expect: compile-error "expected" 6:12
// A missing semicolon after a declaration (reported just after the previous token).
#include <stdio.h>

int main(void) {
  int x = 1
  return x;
}

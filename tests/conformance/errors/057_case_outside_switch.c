// expect: compile-error "switch" 8:7
// A case label inside a nested block that is not within any switch statement.
#include <stdio.h>

int main(void) {
  int x = 2;
  if (x) {
      case 2: x++;
  }
  return x != 3;
}

// expect: compile-error "break" 7:10
// A break statement outside any loop or switch.
#include <stdio.h>

int main(void) {
  int x = 1;
  if (x) break;
  return x;
}

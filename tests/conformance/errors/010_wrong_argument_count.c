// expect: compile-error "argument" 8:10
// Calling a prototyped function with too many arguments.
#include <stdio.h>

static int square(int x) { return x * x; }

int main(void) {
  return square(3, 4);
}

// expect: compile-error "double" 9:13
// gcc: accepts (with a warning; the call aborts at run time): a float argument is promoted to double through '...', so va_arg(ap, float) can never be right.
#include <stdio.h>
#include <stdarg.h>

static float first(int n, ...) {
  va_list ap;
  va_start(ap, n);
  float f = va_arg(ap, float);
  va_end(ap);
  return f;
}

int main(void) { return first(1, 2.0f) != 2.0f; }

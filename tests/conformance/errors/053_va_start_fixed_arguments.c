// expect: compile-error "va_start" 9:3
// va_start in a function whose parameter list has no '...' (C99 7.15.1.4: it has no variadic arguments).
#include <stdio.h>
#include <stdarg.h>

static int first(int n) {
  va_list ap;
  int v;
  va_start(ap, n);
  v = va_arg(ap, int);
  va_end(ap);
  return v + n;
}

int main(void) { return first(1) != 2; }

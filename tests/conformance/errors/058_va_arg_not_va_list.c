// expect: compile-error "va_list" 8:17
// The first argument of va_arg must be a va_list.
#include <stdio.h>
#include <stdarg.h>

static int first(int n, ...) {
  int *p = &n;
  return va_arg(p, int);
}

int main(void) { return first(1, 2) != 2; }

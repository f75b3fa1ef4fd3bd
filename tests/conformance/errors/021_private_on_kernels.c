// expect: compile-error "private" 7:23
// private is not allowed on the kernels construct.
#include <stdio.h>

int main(void) {
  int t = 0, a[10];
  #pragma acc kernels private(t) copyout(a)
  for (int i = 0; i < 10; i++) { t = i; a[i] = t; }
  return a[0];
}

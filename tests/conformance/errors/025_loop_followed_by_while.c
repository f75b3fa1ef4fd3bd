// expect: compile-error "for" 8:3
// A combined parallel loop followed by a while loop.
#include <stdio.h>

int main(void) {
  int i = 0, a[10];
  #pragma acc parallel loop copyout(a)
  while (i < 10) { a[i] = i; i++; }
  return a[0];
}

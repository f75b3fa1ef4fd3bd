// expect: compile-error "expected" 7:44
// A data clause whose parenthesis is never closed (the error is at the end of the line).
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc parallel loop copyout(a[0:10]
  for (int i = 0; i < 10; i++) a[i] = i;
  return a[0];
}

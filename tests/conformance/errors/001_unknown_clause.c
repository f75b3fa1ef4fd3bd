// expect: compile-error "frobnicate" 7:29
// An unknown clause on a parallel loop directive.
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc parallel loop frobnicate(2) copyout(a)
  for (int i = 0; i < 10; i++) a[i] = i;
  return a[0];
}

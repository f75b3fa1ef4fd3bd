// expect: compile-error "seq" 7:33
// seq cannot be combined with gang on one loop.
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc parallel loop seq gang copyout(a)
  for (int i = 0; i < 10; i++) a[i] = i;
  return a[0];
}

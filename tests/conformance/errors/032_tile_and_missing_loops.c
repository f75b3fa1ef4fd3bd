// expect: compile-error "tile" 8:32
// tile(4,4) needs two tightly nested loops (reported where the inner loop should start).
#include <stdio.h>

int main(void) {
  int a[16];
  #pragma acc parallel loop tile(4, 4) copyout(a)
  for (int i = 0; i < 16; i++) a[i] = i;
  return a[0];
}

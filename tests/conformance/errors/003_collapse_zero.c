// expect: compile-error "collapse" 7:38
// collapse(0): the argument must be a positive constant.
#include <stdio.h>

int main(void) {
  int a[10][10];
  #pragma acc parallel loop collapse(0) copyout(a)
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 10; j++) a[i][j] = i + j;
  return a[1][1];
}

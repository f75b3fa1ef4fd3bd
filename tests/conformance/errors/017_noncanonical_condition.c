// expect: compile-error "loop" 10:19
// An acc loop whose condition is not a comparison of the loop variable.
#include <stdio.h>

static int keep_going(int i) { return i < 10; }

int main(void) {
  int a[10];
  #pragma acc parallel loop copyout(a)
  for (int i = 0; keep_going(i); i++) a[i] = i;
  return a[0];
}

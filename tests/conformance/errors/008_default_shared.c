// expect: compile-error "default" 7:37
// default(shared) is not OpenACC: only none and present.
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc parallel loop default(shared) copyout(a)
  for (int i = 0; i < 10; i++) a[i] = i;
  return a[0];
}

// expect: compile-error "firstprivate" 9:48
// A variable has one data attribute on a construct: private(t) and firstprivate(t) together are rejected (gcc 12: "appears more than once in data clauses").
#include <stdio.h>

int main(void) {
  float t[4] = {1, 2, 3, 4};
  float out[64];
  int n = 64;
  #pragma acc parallel private(t) firstprivate(t) copyout(out)
  {
    #pragma acc loop gang
    for (int i = 0; i < n; i++) out[i] = t[i % 4];
  }
  printf("%f\n", out[3]);
  return 0;
}

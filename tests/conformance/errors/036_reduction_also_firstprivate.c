// expect: compile-error "reduction" 9:52
// A variable in a reduction clause of a compute construct may not also be private or firstprivate there (it would have two
// data attributes on one construct); the error points at the variable in the reduction clause (gcc 12 rejects the
// program too, pointing at the `(` of the clause).
#include <stdio.h>

int main(void) {
  int s = 0;
  #pragma acc parallel firstprivate(s) reduction(+:s)
  {
    #pragma acc loop
    for (int i = 0; i < 10; i++) s += i;
  }
  printf("%d\n", s);
  return 0;
}

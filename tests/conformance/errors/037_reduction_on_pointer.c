// expect: compile-error "reduction" 10:41
// A pointer is not a reduction variable (§2.5.15: reduction variables are of arithmetic type, or arrays/composites of them);
// a section of the data it points to is (reduction(+:p[0:4])).
// The position is the variable at fault (gcc 12 points at the `(` of the clause; it rejects this program too).
#include <stdio.h>

int main(void) {
  int a[4] = { 0, 0, 0, 0 };
  int *p = a;
  #pragma acc parallel loop reduction(+:p)
  for (int i = 0; i < 4; i++) p[i] += i;
  printf("%d\n", a[3]);
  return 0;
}

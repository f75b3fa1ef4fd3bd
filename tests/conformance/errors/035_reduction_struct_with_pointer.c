// expect: compile-error "reduction" 10:41
// A whole struct is reduced member by member, so every member must be of a type the operator is defined on; `next` is a pointer.
// The position is the variable at fault (gcc 12 points at the `(` of the clause; it rejects this program too).
#include <stdio.h>

struct node { int n; struct node *next; };

int main(void) {
  struct node x = { 0, 0 };
  #pragma acc parallel loop reduction(+:x)
  for (int i = 0; i < 10; i++) x.n += 1;
  printf("%d\n", x.n);
  return 0;
}

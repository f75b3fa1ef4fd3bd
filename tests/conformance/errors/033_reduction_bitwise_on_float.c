// expect: compile-error "reduction" 9:41
// A bitwise reduction operator on a floating-point variable (§2.5.15: & | ^ are defined for integer types only).
// The position is the variable at fault (gcc 12 points at the `(` of the clause; it rejects this program too).
#include <stdio.h>

int main(void) {
  float f = 1.0f;
  int k = 3;
  #pragma acc parallel loop reduction(&:f) reduction(|:k)
  for (int i = 0; i < 10; i++) { f += 1.0f; k |= i; }
  printf("%g %d\n", f, k);
  return 0;
}

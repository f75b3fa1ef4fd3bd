// expect: compile-error "reduction" 9:43
// max on a complex variable (§2.5.15: only + and * are defined for complex types).
// The position is the variable at fault (gcc 12 points at the `(` of the clause; it rejects this program too).
#include <stdio.h>
#include <complex.h>

int main(void) {
  double _Complex z = 1.0;
  #pragma acc parallel loop reduction(max:z)
  for (int i = 0; i < 10; i++) z += 1.0;
  printf("%g\n", creal(z));
  return 0;
}

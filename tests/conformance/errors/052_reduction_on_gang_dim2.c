// expect: compile-error "reduction" 10:32
// A reduction on a loop with gang(dim:2): not allowed (OpenACC 3.3 §2.9.11).
// gcc: accepts (GCC 12 has no gang grids; gcc_check.py turns gang(dim:2) into `seq` and multiplies the num_gangs values).
#include <stdio.h>

int main(void) {
  int a[64], s = 0;
  for (int i = 0; i < 64; i++) a[i] = i;
  #pragma acc parallel num_gangs(2, 2) copyin(a)
  #pragma acc loop gang(dim:2) reduction(+:s)
  for (int i = 0; i < 64; i++) s += a[i];
  printf("%d\n", s);
  return 0;
}

// expect: compile-error "routine gang(dim:2)" 19:7
// A routine gang(dim:2) called inside a gang(dim:2) loop: such a call must run in gang-redundant mode in dimensions 1 and 2 (OpenACC 3.3 §2.15.1).
// gcc: accepts (GCC 12 has no gang(dim:); gcc_check.py makes the routine a plain `routine gang` and the loop `seq`).
#include <stdio.h>

#pragma acc routine gang(dim:2)
static void fill(int n, float *row, float v) {
  #pragma acc loop gang(dim:1)
  for (int i = 0; i < n; i++) row[i] = v;
}

int main(void) {
  static float a[6][40];
  #pragma acc parallel num_gangs(2, 3) copyout(a)
  {
    #pragma acc loop gang(dim:2)
    for (int k = 0; k < 6; k++) {
      float v = (float)k;
      fill(40, a[k], v);
    }
  }
  printf("%g\n", a[1][1]);
  return 0;
}

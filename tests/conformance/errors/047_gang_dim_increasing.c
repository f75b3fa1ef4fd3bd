// expect: compile-error "dim" 12:24
// A gang(dim:1) loop holding a gang(dim:2) loop: nested gang loops must have decreasing dimensions (OpenACC 3.3 §2.9.2).
// gcc: accepts (GCC 12 has no gang(dim:); gcc_check.py turns gang(dim:1) into `gang` and gang(dim:2) into `seq`, a valid nest).
#include <stdio.h>

int main(void) {
  int a[8][8];
  #pragma acc parallel num_gangs(2, 2) copyout(a)
  {
    #pragma acc loop gang(dim:1)
    for (int i = 0; i < 8; i++) {
      #pragma acc loop gang(dim:2)
      for (int j = 0; j < 8; j++) a[i][j] = i + j;
    }
  }
  printf("%d\n", a[1][1]);
  return 0;
}

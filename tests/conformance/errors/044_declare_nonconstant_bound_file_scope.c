// expect: compile-error "constant" 7:28
// A file-scope declare section whose bounds are not constants: the device copy is made before main runs.
#include <stdio.h>
#define N 512
int used = 100;
float table[N];
#pragma acc declare copyin(table[0:used])

int main(void) {
  float s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 0; i < used; i++) s += table[i];
  printf("%f\n", s);
  return 0;
}

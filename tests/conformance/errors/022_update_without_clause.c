// expect: compile-error "update" 8:15
// An update directive needs at least one self, host or device clause.
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc enter data create(a)
  #pragma acc update
  return 0;
}

// expect: compile-error "copyin" 8:25
// copyin is not allowed on exit data.
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc enter data create(a)
  #pragma acc exit data copyin(a)
  return 0;
}

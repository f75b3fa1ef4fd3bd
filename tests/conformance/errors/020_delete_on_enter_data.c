// expect: compile-error "delete" 7:26
// delete is not allowed on enter data.
#include <stdio.h>

int main(void) {
  int a[10];
  #pragma acc enter data delete(a)
  return 0;
}

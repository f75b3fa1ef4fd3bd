// expect: compile-error "atomic" 10:5
// atomic update must be followed by an update statement of the allowed forms.
#include <stdio.h>

int main(void) {
  int x = 0, y = 5;
  #pragma acc parallel copy(x) copyin(y)
  {
    #pragma acc atomic update
    x = y;
  }
  return x;
}

// expect: compile-error "collapse" 9:5
// collapse(2) over a loop whose body is not a second loop (reported at the statement where the inner loop should start).
#include <stdio.h>

int main(void) {
  int a[10], b[10];
  #pragma acc parallel loop collapse(2) copyout(a, b)
  for (int i = 0; i < 10; i++) {
    a[i] = i;
    for (int j = 0; j < 10; j++) b[j] = j;
  }
  return a[0] + b[0];
}

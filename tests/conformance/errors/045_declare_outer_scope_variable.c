// expect: compile-error "same scope" 11:30
// declare in an inner block naming a variable of an enclosing block: it must be in the variable's own scope (the region is the rest of that scope).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  float *a = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = i;
  {
    #pragma acc declare copy(a[0:n])
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 2.0f;
  }
  printf("%f\n", a[7]);
  free(a);
  return 0;
}

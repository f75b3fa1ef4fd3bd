// expect: compile-error "private" 10:45
// private(c[0:n]) and copy(c[0:n]) on the same construct give c two data attributes, which is rejected (gcc 12: "appears more than once in data clauses").
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 100;
  float *c = malloc(sizeof(float) * n);
  for (int i = 0; i < n; i++) c[i] = i;
  #pragma acc parallel copy(c[0:n]) private(c[0:n])
  {
    #pragma acc loop gang
    for (int i = 0; i < n; i++) c[i] = 2 * c[i];
  }
  printf("%f\n", c[3]);
  free(c);
  return 0;
}

// expect: compile-error "length" 11:38
// A subarray of a pointer needs a length (OpenACC 3.3 §2.7.1: the length may be omitted only when the array's size is known).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 100;
  float *c = malloc(sizeof(float) * n);
  float out[100];
  for (int i = 0; i < n; i++) c[i] = i;
  #pragma acc parallel loop private(c[0:]) copyout(out)
  for (int i = 0; i < n; i++) { c[0] = i; out[i] = c[0]; }
  printf("%f\n", out[3]);
  free(c);
  return 0;
}

// expect: compile-error "link" 8:23
// declare link inside a function: link is for global data and belongs at file scope.
#include <stdio.h>
#define N 64

static float sum(void) {
  float local[N];
  #pragma acc declare link(local)
  float s = 0;
  for (int i = 0; i < N; i++) local[i] = i;
  #pragma acc parallel loop reduction(+:s) copyin(local)
  for (int i = 0; i < N; i++) s += local[i];
  return s;
}

int main(void) {
  printf("%f\n", sum());
  return 0;
}

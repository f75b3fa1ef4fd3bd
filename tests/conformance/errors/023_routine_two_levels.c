// expect: compile-error "worker" 5:26
// A routine directive may give only one of gang, worker, vector, seq.
#include <stdio.h>

#pragma acc routine gang worker
static void f(int *a) { a[0] = 1; }

int main(void) {
  int a[1];
  f(a);
  return a[0];
}

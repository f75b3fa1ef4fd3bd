// The wait directive: wait (all queues), wait(a, b) lists, wait clause on compute constructs,
// wait(q) async(r).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 5000;
  int *x = malloc(n * sizeof(int)), *y = malloc(n * sizeof(int)), *z = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 2 * i; z[i] = 0; }
  #pragma acc enter data copyin(x[0:n], y[0:n], z[0:n])
  #pragma acc parallel loop present(x[0:n]) async(1)
  for (int i = 0; i < n; i++) x[i] += 1;
  #pragma acc parallel loop present(y[0:n]) async(2)
  for (int i = 0; i < n; i++) y[i] -= 1;
  #pragma acc parallel loop present(x[0:n], y[0:n], z[0:n]) wait(1, 2) async(3)
  for (int i = 0; i < n; i++) z[i] = x[i] + y[i];
  #pragma acc wait(3)
  #pragma acc parallel loop present(z[0:n]) async(4)
  for (int i = 0; i < n; i++) z[i] *= 2;
  #pragma acc parallel loop present(x[0:n]) async(5)
  for (int i = 0; i < n; i++) x[i] = -x[i];
  #pragma acc wait(4) async(5)
  #pragma acc wait
  #pragma acc exit data copyout(x[0:n], y[0:n], z[0:n])
  int errors = 0;
  for (int i = 0; i < n; i++) {
    if (z[i] != 2 * ((i + 1) + (2 * i - 1))) { errors++; printf("FAIL z[%d] = %d\n", i, z[i]); break; }
    if (x[i] != -(i + 1) || y[i] != 2 * i - 1) { errors++; printf("FAIL x/y %d\n", i); break; }
  }
  free(x); free(y); free(z);
  if (errors == 0) printf("wait directive ok\n");
  return errors != 0;
}

// An in-place prefix sum in a `loop auto` nested in a gang loop: the carried dependence makes the auto loop sequential in each gang; an independent auto loop beside it may run in parallel.
// OpenACC 3.3 §2.9.7: auto loops are parallelised only when the compiler proves them independent.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int rows = 48, cols = 1500;
  long *a = malloc(rows * cols * sizeof(long)), *ref = malloc(rows * cols * sizeof(long));
  srand(42);
  for (int p = 0; p < rows * cols; p++) a[p] = ref[p] = rand() % 100 - 20;
  #pragma acc parallel loop gang copy(a[0:rows * cols])
  for (int i = 0; i < rows; i++) {
    #pragma acc loop auto
    for (int j = 0; j < cols; j++) a[i * cols + j] *= 2;              /* independent */
    #pragma acc loop auto
    for (int j = 1; j < cols; j++) a[i * cols + j] += a[i * cols + j - 1];   /* carried */
  }
  for (int i = 0; i < rows; i++) {
    for (int j = 0; j < cols; j++) ref[i * cols + j] *= 2;
    for (int j = 1; j < cols; j++) ref[i * cols + j] += ref[i * cols + j - 1];
  }
  int errors = 0;
  for (int p = 0; p < rows * cols; p++)
    if (a[p] != ref[p]) {
      if (errors++ < 5) printf("FAIL a[%d] = %ld, expected %ld\n", p, a[p], ref[p]);
    }
  free(a); free(ref);
  return errors != 0;
}

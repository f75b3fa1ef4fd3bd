// A `loop auto` whose body copies an element with memcpy from the previous iteration's element (row[j] = row[j-1], cascading row[0] along the row): a library call through pointers keeps the auto loop sequential.
// OpenACC 3.3 §2.9.7: the compiler parallelises an auto loop only when it proves independence; a write through memcpy's pointer is a dependence it cannot rule out.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  const int rows = 30, cols = 257;
  double *a = malloc(rows * cols * sizeof(double));
  srand(42);
  for (int p = 0; p < rows * cols; p++) a[p] = (double)(rand() % 1000) / 8.0;
  double *first = malloc(rows * sizeof(double));
  for (int i = 0; i < rows; i++) first[i] = a[i * cols];
  #pragma acc parallel loop gang copy(a[0:rows * cols])
  for (int i = 0; i < rows; i++) {
    double *row = a + i * cols;
    #pragma acc loop auto
    for (int j = 1; j < cols; j++) memcpy(&row[j], &row[j - 1], sizeof(double));
  }
  int errors = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      if (a[i * cols + j] != first[i]) {
        if (errors++ < 5) printf("FAIL a[%d][%d] = %g, expected %g\n", i, j, a[i * cols + j], first[i]);
      }
  free(a); free(first);
  return errors != 0;
}

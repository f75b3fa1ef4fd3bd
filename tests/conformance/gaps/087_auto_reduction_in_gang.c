// `loop auto reduction(+:s)` nested in a gang loop (s private per row) and `loop auto reduction(max:m)`: reduction variables do not block the auto loop's parallelisation, and results match.
// OpenACC 3.3 §2.9.7/§2.9.11.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int rows = 60, cols = 777;
  int *v = malloc(rows * cols * sizeof(int));
  long *rowsum = malloc(rows * sizeof(long));
  int *rowmax = malloc(rows * sizeof(int));
  srand(42);
  for (int p = 0; p < rows * cols; p++) v[p] = rand() % 10000 - 5000;
  #pragma acc parallel loop gang copyin(v[0:rows * cols]) copyout(rowsum[0:rows], rowmax[0:rows])
  for (int i = 0; i < rows; i++) {
    long s = 0;
    int m = -100000;
    #pragma acc loop auto reduction(+:s)
    for (int j = 0; j < cols; j++) s += v[i * cols + j];
    #pragma acc loop auto reduction(max:m)
    for (int j = 0; j < cols; j++) m = v[i * cols + j] > m ? v[i * cols + j] : m;
    rowsum[i] = s;
    rowmax[i] = m;
  }
  int errors = 0;
  for (int i = 0; i < rows; i++) {
    long s = 0;
    int m = -100000;
    for (int j = 0; j < cols; j++) {
      s += v[i * cols + j];
      if (v[i * cols + j] > m) m = v[i * cols + j];
    }
    if (rowsum[i] != s || rowmax[i] != m) {
      if (errors++ < 5) printf("FAIL row %d: sum %ld (%ld) max %d (%d)\n", i, rowsum[i], s, rowmax[i], m);
    }
  }
  free(v); free(rowsum); free(rowmax);
  return errors != 0;
}

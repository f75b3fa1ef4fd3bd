// An in-place Gauss-Seidel sweep (reads a[j-1] already updated and a[j+1] not yet) in `loop auto` under a gang loop over independent rows, repeated: only the sequential order gives the reference result.
// OpenACC 3.3 §2.9.7: a loop with a carried dependence must not be parallelised by auto.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int rows = 24, cols = 600, sweeps = 4;
  static double a[24][600], r[24][600];
  srand(42);
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) a[i][j] = r[i][j] = (double)(rand() % 1000);
  #pragma acc data copy(a)
  for (int s = 0; s < sweeps; s++) {
    #pragma acc parallel loop gang
    for (int i = 0; i < rows; i++) {
      #pragma acc loop auto
      for (int j = 1; j < cols - 1; j++) a[i][j] = 0.5 * (a[i][j - 1] + a[i][j + 1]);
    }
  }
  for (int s = 0; s < sweeps; s++)
    for (int i = 0; i < rows; i++)
      for (int j = 1; j < cols - 1; j++) r[i][j] = 0.5 * (r[i][j - 1] + r[i][j + 1]);
  int errors = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      if (fabs(a[i][j] - r[i][j]) > 1e-9) {
        if (errors++ < 5) printf("FAIL a[%d][%d] = %.12g, expected %.12g\n", i, j, a[i][j], r[i][j]);
      }
  return errors != 0;
}

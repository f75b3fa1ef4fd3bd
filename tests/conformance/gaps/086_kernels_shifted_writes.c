// kernels loops: iterations writing overlapping elements through a shifted index (polynomial multiplication c[i+j] += a[i]*b[j]: not independent) and a row-wise recurrence whose rows are independent (the outer loop may run in parallel, the inner one stays sequential).
// OpenACC 3.3 §2.5.3/§2.9.7: a kernels loop without independent runs in parallel only when proven independent.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int na = 700, nb = 300, rows = 40, cols = 400;
  long *a = malloc(na * sizeof(long)), *b = malloc(nb * sizeof(long)), *c = malloc((na + nb) * sizeof(long));
  long *ref = malloc((na + nb) * sizeof(long));
  static int g[40][400], gref[40][400];
  srand(42);
  for (int i = 0; i < na; i++) a[i] = rand() % 19 - 9;
  for (int j = 0; j < nb; j++) b[j] = rand() % 23 - 11;
  for (int p = 0; p < na + nb; p++) c[p] = ref[p] = 0;
  for (int r = 0; r < rows; r++)
    for (int q = 0; q < cols; q++) g[r][q] = gref[r][q] = rand() % 7;
  #pragma acc kernels copyin(a[0:na], b[0:nb]) copy(c[0:na + nb], g)
  {
    for (int i = 0; i < na; i++)
      for (int j = 0; j < nb; j++) c[i + j] += a[i] * b[j];
    #pragma acc loop
    for (int r = 0; r < rows; r++)
      for (int q = 1; q < cols; q++) g[r][q] = g[r][q] + g[r][q - 1] % 5;   /* rows independent */
  }
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++) ref[i + j] += a[i] * b[j];
  for (int r = 0; r < rows; r++)
    for (int q = 1; q < cols; q++) gref[r][q] = gref[r][q] + gref[r][q - 1] % 5;
  int errors = 0;
  for (int p = 0; p < na + nb; p++)
    if (c[p] != ref[p]) {
      if (errors++ < 5) printf("FAIL c[%d] = %ld, expected %ld\n", p, c[p], ref[p]);
    }
  for (int r = 0; r < rows; r++)
    for (int q = 0; q < cols; q++)
      if (g[r][q] != gref[r][q]) {
        if (errors++ < 10) printf("FAIL g[%d][%d] = %d, expected %d\n", r, q, g[r][q], gref[r][q]);
      }
  free(a); free(b); free(c); free(ref);
  return errors != 0;
}

// num_gangs(a, b, c) with values known only at run time, including more gangs than iterations and extents of 1: every combination partitions the 3-level nest exactly.
// OpenACC 3.3 multi-dimensional gangs. GCC 12 lacks them: gcc_check.py multiplies the num_gangs values and drops gang(dim:n).
#include <stdio.h>
#include <stdlib.h>

static int check(int g1, int g2, int g3, int n3, int n2, int n1) {
  long *h = malloc((size_t)n3 * n2 * n1 * sizeof(long));
  for (int p = 0; p < n3 * n2 * n1; p++) h[p] = p % 17;
  #pragma acc parallel num_gangs(g1, g2, g3) copy(h[0:n3 * n2 * n1])
  {
    #pragma acc loop gang(dim:3)
    for (int k = 0; k < n3; k++) {
      #pragma acc loop gang(dim:2)
      for (int j = 0; j < n2; j++) {
        #pragma acc loop gang(dim:1)
        for (int i = 0; i < n1; i++) h[(k * n2 + j) * n1 + i] += 100 + k + j * i;
      }
    }
  }
  int errors = 0;
  for (int k = 0; k < n3; k++)
    for (int j = 0; j < n2; j++)
      for (int i = 0; i < n1; i++) {
        int p = (k * n2 + j) * n1 + i;
        long e = p % 17 + 100 + k + j * i;
        if (h[p] != e) {
          if (errors++ < 3) printf("FAIL grid (%d,%d,%d) h[%d] = %ld, expected %ld\n", g1, g2, g3, p, h[p], e);
        }
      }
  free(h);
  return errors;
}

int main(void) {
  srand(42);
  int errors = 0;
  for (int t = 0; t < 6; t++) {
    int g1 = 1 + rand() % 5, g2 = 1 + rand() % 4, g3 = 1 + rand() % 6;
    int n3 = 1 + rand() % 9, n2 = 1 + rand() % 7, n1 = 1 + rand() % 40;
    errors += check(g1, g2, g3, n3, n2, n1);
  }
  errors += check(1, 1, 1, 5, 6, 7);
  errors += check(40, 1, 2, 3, 3, 3);    /* more gangs along dimension 1 than iterations */
  errors += check(2, 9, 1, 4, 2, 50);
  return errors != 0;
}

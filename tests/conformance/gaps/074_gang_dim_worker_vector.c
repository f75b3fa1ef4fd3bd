// A gang(dim:2) loop holding a gang(dim:1) worker loop holding a vector loop, under num_gangs(2, 6): levels below a multi-dimensional gang nest.
// OpenACC 3.3 §1.2: a loop with gang(dim:d) and worker spreads its iterations over all workers of all gangs of dimension d.
// GCC 12 lacks gang grids: gcc_check.py multiplies the num_gangs values and drops gang(dim:n) (gcc then picks the levels).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int nb = 7, nr = 19, nc = 64;
  float *x = malloc(nb * nr * nc * sizeof(float)), *y = malloc(nb * nr * nc * sizeof(float));
  srand(42);
  for (int p = 0; p < nb * nr * nc; p++) { x[p] = (float)(rand() % 1000) / 250.0f; y[p] = 0.0f; }
  #pragma acc parallel num_gangs(2, 6) num_workers(2) vector_length(16) copyin(x[0:nb * nr * nc]) copyout(y[0:nb * nr * nc])
  {
    #pragma acc loop gang(dim:2)
    for (int b = 0; b < nb; b++) {
      #pragma acc loop gang(dim:1) worker
      for (int r = 0; r < nr; r++) {
        #pragma acc loop vector
        for (int c = 0; c < nc; c++) {
          int p = (b * nr + r) * nc + c;
          y[p] = sqrtf(x[p]) + (float)(b - r);
        }
      }
    }
  }
  int errors = 0;
  for (int b = 0; b < nb; b++)
    for (int r = 0; r < nr; r++)
      for (int c = 0; c < nc; c++) {
        int p = (b * nr + r) * nc + c;
        float e = sqrtf(x[p]) + (float)(b - r);
        if (fabsf(y[p] - e) > 1e-5f) {
          if (errors++ < 5) printf("FAIL y[%d] = %g, expected %g\n", p, y[p], e);
        }
      }
  free(x); free(y);
  return errors != 0;
}

// num_gangs(3, 4) with only a gang(dim:2) loop: gangs that share a dimension-2 coordinate run the same iterations, so each iteration runs once per gang along dimension 1 (3 times).
// OpenACC 3.3 §2.9.2/§1.2: after a gang(dim:2) loop the program is in GP2, GR1 mode. The count is observed with atomics.
// GCC 12 has no gang grid: under gcc (ACCJIT_GCC_VALIDATION) its host fallback runs one gang, so each iteration runs once.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 250;
  int *runs = malloc(n * sizeof(int));
  double *v = malloc(n * sizeof(double));
  srand(42);
  for (int i = 0; i < n; i++) { runs[i] = 0; v[i] = (double)(rand() % 1000) * 0.25; }
  #pragma acc parallel num_gangs(3, 4) copy(runs[0:n], v[0:n])
  {
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < n; i++) {
      #pragma acc atomic update
      runs[i] += 1;
      v[i] = (double)i * 0.5 + 1.0;   /* idempotent: redundant gangs write the same value */
    }
  }
#ifdef ACCJIT_GCC_VALIDATION
  const int expected = 1;
#else
  const int expected = 3;
#endif
  int errors = 0;
  for (int i = 0; i < n; i++) {
    if (runs[i] != expected) {
      if (errors++ < 5) printf("FAIL iteration %d ran %d times, expected %d\n", i, runs[i], expected);
    }
    if (v[i] != (double)i * 0.5 + 1.0) {
      if (errors++ < 5) printf("FAIL v[%d] = %g\n", i, v[i]);
    }
  }
  free(runs); free(v);
  return errors != 0;
}

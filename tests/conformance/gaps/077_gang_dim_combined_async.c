// Combined `parallel loop gang(dim:2) num_gangs(2, 3)` holding `loop gang(dim:1)`, launched async on two queues and waited for: the grid reaches asynchronous launches too.
// OpenACC 3.3 multi-dimensional gangs. GCC 12 lacks them: gcc_check.py multiplies the num_gangs values and drops gang(dim:n).
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 40, m = 90;
  double *a = malloc(n * m * sizeof(double)), *b = malloc(n * m * sizeof(double));
  srand(42);
  for (int p = 0; p < n * m; p++) { a[p] = rand() % 100; b[p] = rand() % 100; }
  #pragma acc data copy(a[0:n * m], b[0:n * m])
  {
    #pragma acc parallel loop gang(dim:2) num_gangs(2, 3) async(1)
    for (int i = 0; i < n; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < m; j++) a[i * m + j] = a[i * m + j] * 0.5 + i;
    }
    #pragma acc parallel loop gang(dim:2) num_gangs(4, 2) async(2)
    for (int i = 0; i < n; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < m; j++) b[i * m + j] = b[i * m + j] + j * 2.0;
    }
    #pragma acc wait(1, 2)
  }
  srand(42);
  int errors = 0;
  for (int p = 0; p < n * m; p++) {
    double ea = (double)(rand() % 100) * 0.5 + p / m;
    double eb = (double)(rand() % 100) + (p % m) * 2.0;
    if (a[p] != ea || b[p] != eb) {
      if (errors++ < 5) printf("FAIL p=%d a=%g (%g) b=%g (%g)\n", p, a[p], ea, b[p], eb);
    }
  }
  free(a); free(b);
  return errors != 0;
}

// gang(dim:) without a matching num_gangs value: with num_gangs(n) dimension 2 has extent 1, and with no num_gangs the device chooses; a gang(dim:2) > gang(dim:1) nest still runs every iteration once.
// OpenACC 3.3: num_gangs values left out default to 1. GCC 12 lacks gang(dim:): gcc_check.py drops it.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 33, m = 58;
  int *a = malloc(n * m * sizeof(int)), *b = malloc(n * m * sizeof(int));
  srand(42);
  for (int p = 0; p < n * m; p++) a[p] = b[p] = rand() % 50;
  #pragma acc parallel num_gangs(5) copy(a[0:n * m])
  {
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < n; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < m; j++) a[i * m + j] = a[i * m + j] * 2 + i;
    }
  }
  #pragma acc parallel copy(b[0:n * m])
  {
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < n; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < m; j++) b[i * m + j] = b[i * m + j] * 2 + i;
    }
  }
  int errors = 0;
  srand(42);
  for (int p = 0; p < n * m; p++) {
    int e = (rand() % 50) * 2 + p / m;
    if (a[p] != e || b[p] != e) {
      if (errors++ < 5) printf("FAIL p=%d a=%d b=%d expected %d\n", p, a[p], b[p], e);
    }
  }
  free(a); free(b);
  return errors != 0;
}

// num_gangs(a, b, c) with gang(dim:3) > gang(dim:2) > gang(dim:1) nested loops: a 3-D gang grid; every point of a 3-D array is updated exactly once.
// OpenACC 3.3 multi-dimensional gangs. GCC 12 lacks them: gcc_check.py rewrites num_gangs(a, b, c) to their product and
// drops gang(dim:n), so gcc validates the program's logic only.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int nz = 9, ny = 14, nx = 37;
  int *u = malloc(nz * ny * nx * sizeof(int));
  int *ref = malloc(nz * ny * nx * sizeof(int));
  srand(42);
  for (int i = 0; i < nz * ny * nx; i++) u[i] = ref[i] = rand() % 1000;
  #pragma acc parallel num_gangs(3, 2, 5) copy(u[0:nz * ny * nx])
  {
    #pragma acc loop gang(dim:3)
    for (int k = 0; k < nz; k++) {
      #pragma acc loop gang(dim:2)
      for (int j = 0; j < ny; j++) {
        #pragma acc loop gang(dim:1)
        for (int i = 0; i < nx; i++) {
          int p = (k * ny + j) * nx + i;
          u[p] = 3 * u[p] + k - 2 * j + i;     /* not idempotent: each point must run once */
        }
      }
    }
  }
  for (int k = 0; k < nz; k++)
    for (int j = 0; j < ny; j++)
      for (int i = 0; i < nx; i++) {
        int p = (k * ny + j) * nx + i;
        ref[p] = 3 * ref[p] + k - 2 * j + i;
      }
  int errors = 0;
  for (int p = 0; p < nz * ny * nx; p++)
    if (u[p] != ref[p]) {
      if (errors++ < 5) printf("FAIL u[%d] = %d, expected %d\n", p, u[p], ref[p]);
    }
  free(u); free(ref);
  return errors != 0;
}

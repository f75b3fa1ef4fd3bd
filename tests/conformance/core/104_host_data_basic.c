// host_data use_device: pass device addresses to a "library" routine that uses deviceptr.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

static void lib_axpy(int n, double a, const double *x, double *y) {   /* takes device pointers */
  #pragma acc parallel loop deviceptr(x, y)
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

int main(void) {
  const int n = 3000;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { x[i] = i; y[i] = 1.0; }
  int errors = 0;
  #pragma acc data copyin(x[0:n]) copy(y[0:n])
  {
    #pragma acc host_data use_device(x, y)
    {
      lib_axpy(n, 2.0, x, y);
      if (acc_hostptr(x) == NULL) { errors++; printf("FAIL acc_hostptr of device address\n"); }
    }
  }
  for (int i = 0; i < n; i++) if (y[i] != 1.0 + 2.0 * i) { errors++; printf("FAIL y[%d] = %g\n", i, y[i]); break; }
  free(x); free(y);
  if (errors == 0) printf("host_data ok\n");
  return errors != 0;
}

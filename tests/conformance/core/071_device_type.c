// device_type(*) / dtype(host) / device_type(nvidia) clause groups: results must not depend on them.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 3000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  #pragma acc parallel loop copy(a[0:n]) num_gangs(4) device_type(nvidia) num_gangs(80) vector_length(128) device_type(*) num_gangs(2)
  for (int i = 0; i < n; i++) a[i] += 1.0;
  #pragma acc parallel loop copy(a[0:n]) dtype(host) vector_length(1) dtype(radeon) vector_length(64)
  for (int i = 0; i < n; i++) a[i] *= 2.0;
  #pragma acc kernels copy(a[0:n]) device_type(*) num_workers(2)
  {
    #pragma acc loop device_type(nvidia) gang vector device_type(*) seq
    for (int i = 0; i < n; i++) a[i] -= 3.0;
  }
  long count = 0;
  /* a is a pointer: its data needs a clause on a device without shared memory. */
  #pragma acc parallel loop reduction(+:count) copyin(a[0:n]) device_type(host, multicore) num_gangs(3) device_type(*) num_gangs(5)
  for (int i = 0; i < n; i++) count += (a[i] > 100.0);
  int errors = 0;
  long want = 0;
  for (int i = 0; i < n; i++) {
    double v = (i * 0.5 + 1.0) * 2.0 - 3.0;
    if (a[i] != v) { errors++; printf("FAIL a[%d] = %g want %g\n", i, a[i], v); break; }
    want += v > 100.0;
  }
  if (count != want) { errors++; printf("FAIL count %ld want %ld\n", count, want); }
  free(a);
  if (errors == 0) printf("device_type ok\n");
  return errors != 0;
}

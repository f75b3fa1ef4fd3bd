// self clause on compute constructs: self / self(true) runs on the local device (the host),
// self(false) on the current device. Results are identical either way.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 2000;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i * 0.5;
  int where = -1;
  #pragma acc parallel loop self copy(a[0:n]) copy(where)
  for (int i = 0; i < n; i++) {
    a[i] += 1.0;
    if (i == 0) where = acc_on_device(acc_device_host);
  }
  int errors = 0;
  if (where != 1) { errors++; printf("FAIL self: not on host (%d)\n", where); }
  int local = 1;
  #pragma acc parallel loop self(local) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2.0;
  #pragma acc parallel loop self(local - 1) copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] -= 1.0;
  long cnt = 0;
  #pragma acc kernels self(n > 10) copyin(a[0:n]) copy(cnt)
  {
    for (int i = 0; i < n; i++) if (a[i] > 100.0) cnt++;
  }
  long want = 0;
  for (int i = 0; i < n; i++) {
    double v = (i * 0.5 + 1.0) * 2.0 - 1.0;
    if (a[i] != v) { errors++; printf("FAIL a[%d] = %g\n", i, a[i]); break; }
    want += v > 100.0;
  }
  if (cnt != want) { errors++; printf("FAIL kernels self count %ld %ld\n", cnt, want); }
  int s = 0;
  #pragma acc serial self(1) copy(s)
  s = acc_on_device(acc_device_host) + 10;
  if (s != 11) { errors++; printf("FAIL serial self %d\n", s); }
  free(a);
  if (errors == 0) printf("self clause ok\n");
  return errors != 0;
}

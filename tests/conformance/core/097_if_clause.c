// if clause on compute constructs: if(0) runs the region on the local thread (results still
// correct, acc_on_device(acc_device_host) true inside), if(1) on the current device.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

static int run(int cond, int n, int *on_host) {
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  int host_flag = -1;
  #pragma acc parallel loop if(cond) copy(a[0:n]) copyout(host_flag)
  for (int i = 0; i < n; i++) {
    a[i] = a[i] * a[i] + 1;
    if (i == 0) host_flag = acc_on_device(acc_device_host);
  }
  int bad = 0;
  for (int i = 0; i < n; i++) bad += a[i] != i * i + 1;
  *on_host = host_flag;
  free(a);
  return bad;
}

int main(void) {
  int errors = 0, on_host;
  if (run(0, 1000, &on_host)) { errors++; printf("FAIL if(0) results\n"); }
  if (on_host != 1) { errors++; printf("FAIL if(0) did not run on the host (%d)\n", on_host); }
  if (run(1, 1000, &on_host)) { errors++; printf("FAIL if(1) results\n"); }
  int n = 77;
  long s = 0;
  #pragma acc parallel loop if(n > 1000) reduction(+:s)
  for (int i = 0; i < n; i++) s += i;
  if (s != 77 * 76 / 2) { errors++; printf("FAIL runtime if false %ld\n", s); }
  s = 0;
  #pragma acc kernels if(n < 1000) copy(s)
  {
    for (int i = 0; i < n; i++) s += 2;
  }
  if (s != 154) { errors++; printf("FAIL kernels if %ld\n", s); }
  int ran = 0;
  #pragma acc serial if(0) copy(ran)
  ran = acc_on_device(acc_device_host) ? 2 : 1;
  if (ran != 2) { errors++; printf("FAIL serial if(0) %d\n", ran); }
  if (errors == 0) printf("if clause ok\n");
  return errors != 0;
}

// expect: fail "device type unavailable"
// set device_type(radeon) on a machine with no such device: acc_error_device_type_unavailable, as acc_set_device_type(acc_device_radeon) gives.
#include <stdio.h>
#include <openacc.h>
/* gcc 12 ignores 'set'; gcc_check.py turns it into acc_set_device_type(acc_device_radeon),
   which libgomp also refuses. */

int main(void) {
  int q = 2;
  #pragma acc set device_type(host) default_async(q)
  printf("default async %d\n", acc_get_default_async());
  #pragma acc set device_type(radeon) if(q > 1)
  printf("FAIL: set of an unavailable device type returned\n");
  return 1;
}

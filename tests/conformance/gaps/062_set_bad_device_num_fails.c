// expect: fail "device unavailable"
// set device_num(n) with n not a device of the current type: acc_error_device_unavailable, like acc_set_device_num.
#include <stdio.h>
#include <openacc.h>
/* gcc 12 ignores 'set'; gcc's host fallback accepts any device number, so the gcc run is
   informational only. */

int main(void) {
  acc_device_t t = acc_get_device_type();
  int n = acc_get_num_devices(t);
  #pragma acc set device_num(n - 1)
  printf("device %d of %d set\n", n - 1, n);
  #pragma acc set device_num(n + 7)
  printf("FAIL: set device_num(%d) returned\n", n + 7);
  return 1;
}

// expect: fail "device unavailable"
// init device_type(host) device_num(n) with n past the last host device: acc_error_device_unavailable.
#include <stdio.h>
#include <openacc.h>
/* gcc 12 ignores 'init'; on gcc_check.py's rewrite its single host device accepts any number,
   so the gcc run is informational only. */

int main(void) {
  int n = acc_get_num_devices(acc_device_host);
  printf("host devices: %d\n", n);
  #pragma acc init device_type(host) device_num(0)
  #pragma acc init device_type(host) device_num(n + 3)
  printf("FAIL: init of device %d returned\n", n + 3);
  return 1;
}

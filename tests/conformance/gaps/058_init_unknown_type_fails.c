// expect: fail "device type unavailable"
// init device_type(name) where no named type has a device: acc_error_device_type_unavailable (a runtime error, not a compile error).
#include <stdio.h>
#include <openacc.h>
/* gcc 12 ignores 'init'; gcc_check.py turns it into an init of acc_device_default (unknown
   names have no acc_device_t), so the gcc run is informational only. */

int main(void) {
  int n = 64, a[64];
  for (int i = 0; i < n; i++) a[i] = i * 3 - 7;
  #pragma acc parallel loop copy(a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2;
  printf("before init: %d\n", a[10]);
  /* A type accjit does not know, and one it knows but has no device for. */
  #pragma acc init device_type(tpu_v9, radeon)
  printf("FAIL: init of an unavailable device type returned\n");
  return 1;
}

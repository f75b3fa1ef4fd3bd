// expect: fail "device type unavailable"
// shutdown device_type(list) where no named type has a device: acc_error_device_type_unavailable; an if(false) one before it does nothing.
#include <stdio.h>
#include <openacc.h>
/* gcc 12 ignores 'shutdown'; gcc_check.py rewrites it to acc_shutdown of the first name's type. */

int main(void) {
  int off = 0;
  #pragma acc shutdown device_type(opencl, radeon) if(off)
  printf("guarded shutdown skipped\n");
  #pragma acc shutdown device_type(opencl, radeon, no_such_device)
  printf("FAIL: shutdown of unavailable device types returned\n");
  return 1;
}

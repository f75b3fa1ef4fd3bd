// expect: fail "null pointer"
// acc_memcpy_to_device with a NULL destination and bytes != 0: acc_error_invalid_null_pointer.
// gcc 12 fails here too: 108_fail_memcpy_null: ../../../src/libgomp/oacc-mem.c:181: memcpy_tofrom_device: Assertion `thr && thr->dev' failed.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int h[16];
  for (int i = 0; i < 16; i++) h[i] = i;
  void *dst = NULL;
  acc_memcpy_to_device(dst, h, sizeof h);
  printf("FAIL: acc_memcpy_to_device(NULL, ...) returned\n");
  return 0;
}

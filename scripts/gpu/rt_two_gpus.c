// Two nvidia devices in one program (issue 9 must-show, nvidia-h200-x2):
// each device has its own present table; acc_set_device_num picks where data
// and kernels go; acc_memcpy_d2d copies between the two device copies.
// Run: ACC_DEVICE_TYPE=nvidia accjit run scripts/gpu/rt_two_gpus.c
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  int ndev = acc_get_num_devices(acc_device_nvidia);
  if (ndev < 2) { printf("SKIP: %d nvidia device(s)\n", ndev); return 0; }
  const int n = 1 << 20;
  float *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  srand(42);
  for (int i = 0; i < n; i++) { a[i] = rand() / (float)RAND_MAX; b[i] = 0.0f; }
  int errors = 0;

  acc_set_device_num(0, acc_device_nvidia);
  #pragma acc enter data copyin(a[0:n])
  acc_set_device_num(1, acc_device_nvidia);
  if (acc_is_present(a, n * sizeof *a)) { printf("FAIL: a present on device 1\n"); errors++; }
  #pragma acc enter data create(b[0:n])
  acc_set_device_num(0, acc_device_nvidia);
  if (acc_is_present(b, n * sizeof *b)) { printf("FAIL: b present on device 0\n"); errors++; }

  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = 2.0f * a[i] + 1.0f;          /* on device 0 */

  acc_set_device_num(1, acc_device_nvidia);
  #pragma acc enter data create(a[0:n])                            /* a's copy on device 1 */
  acc_memcpy_d2d(a, a, n * sizeof *a, 1, 0);                       /* device 0 -> device 1 */
  #pragma acc parallel loop present(a[0:n], b[0:n])
  for (int i = 0; i < n; i++) b[i] = a[i] * a[i];                 /* on device 1 */
  #pragma acc exit data copyout(b[0:n]) delete(a[0:n])

  acc_set_device_num(0, acc_device_nvidia);
  #pragma acc exit data copyout(a[0:n])

  srand(42);
  for (int i = 0; i < n; i++) {
    float x = 2.0f * (rand() / (float)RAND_MAX) + 1.0f;
    if (a[i] != x || b[i] != x * x) { if (errors++ < 5) printf("FAIL i=%d a=%g b=%g want %g %g\n", i, a[i], b[i], x, x * x); }
  }
  printf("two devices: %s (%s / %s)\n", errors ? "FAIL" : "ok",
         acc_get_property_string(0, acc_device_nvidia, acc_property_name), acc_get_property_string(1, acc_device_nvidia, acc_property_name));
  free(a); free(b);
  return errors != 0;
}

// openacc.h runtime calls in host code around compute regions: device type queries,
// acc_is_present/acc_deviceptr inside and after data regions, acc_init.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

/* accjit keeps a present table on every device. gcc's host fallback (used only to validate this
   file) treats all memory as shared and reports every address present. */
#ifdef ACCJIT_GCC_VALIDATION
static const int tracked = 0;
#else
static const int tracked = 1;
#endif

int main(void) {
  int errors = 0;
  acc_device_t t = acc_get_device_type();
  acc_init(t == acc_device_none ? acc_device_default : t);
  t = acc_get_device_type();
  if (acc_get_num_devices(t) < 1) { errors++; printf("FAIL no device of current type\n"); }
  acc_set_device_type(t);
  if (acc_get_device_type() != t) { errors++; printf("FAIL set/get device type\n"); }
  const int n = 1000;
  float *a = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = i;
  if (tracked && acc_is_present(a, n * sizeof(float))) { errors++; printf("FAIL present before data region\n"); }
  #pragma acc data copy(a[0:n])
  {
    if (!acc_is_present(a, n * sizeof(float))) { errors++; printf("FAIL not present inside data region\n"); }
    if (acc_deviceptr(a) == NULL) { errors++; printf("FAIL acc_deviceptr NULL inside region\n"); }
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] = a[i] * 0.5f;
  }
  if (tracked && acc_is_present(a, n * sizeof(float))) { errors++; printf("FAIL still present after data region\n"); }
  for (int i = 0; i < n; i++) if (a[i] != i * 0.5f) { errors++; printf("FAIL a[%d]\n", i); break; }
  free(a);
  if (errors == 0) printf("runtime calls in host code ok\n");
  return errors != 0;
}

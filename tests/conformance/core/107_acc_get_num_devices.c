// acc_get_num_devices, acc_get_device_type, acc_get_device_num used from host code.
#include <stdio.h>
#include <openacc.h>

int main(void) {
  int errors = 0;
  int nhost = acc_get_num_devices(acc_device_host);
  if (nhost < 1) { errors++; printf("FAIL acc_get_num_devices(host) = %d\n", nhost); }
  acc_device_t t = acc_get_device_type();
  int ncur = acc_get_num_devices(t);
  if (t != acc_device_none && ncur < 1) { errors++; printf("FAIL no devices of the current type %d\n", (int)t); }
  int num = acc_get_device_num(t);
  if (t != acc_device_none && (num < 0 || num >= ncur)) { errors++; printf("FAIL device num %d of %d\n", num, ncur); }
  int ndef = acc_get_num_devices(acc_device_default);
  if (ndef < 0) { errors++; printf("FAIL negative count\n"); }
  int x[100];
  #pragma acc parallel loop copyout(x)
  for (int i = 0; i < 100; i++) x[i] = i * 3;
  if (acc_get_device_type() == acc_device_none) { errors++; printf("FAIL device type still none after a region\n"); }
  for (int i = 0; i < 100; i++) if (x[i] != 3 * i) { errors++; printf("FAIL x[%d]\n", i); break; }
  printf("host devices: %d, current type %d has %d device(s), number %d\n", nhost, (int)acc_get_device_type(), acc_get_num_devices(acc_get_device_type()), acc_get_device_num(acc_get_device_type()));
  if (errors == 0) printf("device queries ok\n");
  return errors != 0;
}

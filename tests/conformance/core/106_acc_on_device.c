// acc_on_device: true for acc_device_host in host code; inside regions host/not_host disagree.
#include <stdio.h>
#include <openacc.h>

#pragma acc routine seq
static int where(void) { return acc_on_device(acc_device_host) * 2 + acc_on_device(acc_device_not_host); }

int main(void) {
  int errors = 0;
  if (!acc_on_device(acc_device_host)) { errors++; printf("FAIL host code: acc_on_device(host) false\n"); }
  if (acc_on_device(acc_device_not_host)) { errors++; printf("FAIL host code: acc_on_device(not_host) true\n"); }
  int codes[64];
  #pragma acc parallel loop copyout(codes)
  for (int i = 0; i < 64; i++) codes[i] = where();
  for (int i = 0; i < 64; i++)
    if (codes[i] != 1 && codes[i] != 2) { errors++; printf("FAIL inconsistent acc_on_device in region: %d\n", codes[i]); break; }
  for (int i = 1; i < 64; i++)
    if (codes[i] != codes[0]) { errors++; printf("FAIL iterations disagree\n"); break; }
  int in_kernels = -1, in_serial = -1;
  #pragma acc kernels copyout(in_kernels)
  in_kernels = acc_on_device(acc_device_host) ^ acc_on_device(acc_device_not_host);
  #pragma acc serial copyout(in_serial)
  in_serial = acc_on_device(acc_device_host) || acc_on_device(acc_device_not_host);
  if (in_kernels != 1 || in_serial != 1) { errors++; printf("FAIL kernels/serial %d %d\n", in_kernels, in_serial); }
  int host_fallback = -1;
  #pragma acc parallel if(0) copyout(host_fallback)
  host_fallback = acc_on_device(acc_device_host);
  if (host_fallback != 1) { errors++; printf("FAIL if(0) region not on host\n"); }
  printf("regions run where acc_on_device(acc_device_host) = %d\n", codes[0] == 2);
  if (errors == 0) printf("acc_on_device ok\n");
  return errors != 0;
}

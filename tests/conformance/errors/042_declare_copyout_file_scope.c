// expect: compile-error "copyout" 6:21
// declare copyout at file scope: only create, copyin, deviceptr, device_resident and link are allowed on globals (a global has no function exit to copy out at).
#include <stdio.h>
#define N 128
float results[N];
#pragma acc declare copyout(results[0:N])

int main(void) {
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) results[i] = i * 0.5f;
  printf("%f\n", results[3]);
  return 0;
}

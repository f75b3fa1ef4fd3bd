// expect: compile-error "firstprivate" 11:7
// firstprivate is a clause of parallel and serial (OpenACC 3.3 §2.5.14); the loop construct takes private only (§2.9).
#include <stdio.h>

int main(void) {
  int n = 1000;
  double scale[4] = {1, 2, 3, 4}, out[1000];
  #pragma acc parallel copyout(out)
  {
    #pragma acc loop gang \
      firstprivate(scale)
    for (int i = 0; i < n; i++) out[i] = scale[i % 4] * i;
  }
  printf("%f\n", out[5]);
  return 0;
}

// num_gangs(a, b) with a gang(dim:2) loop holding a gang(dim:1) loop: the 2-D gang grid partitions both loops; every element is updated exactly once.
// OpenACC 3.3 multi-dimensional gangs. GCC 12 has neither num_gangs with several values nor gang(dim:): gcc_check.py
// rewrites num_gangs(a, b) to num_gangs((a)*(b)) and drops gang(dim:n), so gcc validates the program's logic only.
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

/* Device code may contract a * b + c into one fused multiply-add (nvcc, NVHPC and GCC do so by default;
   C leaves FP_CONTRACT to the implementation), so results are compared within a few units in the last
   place of the terms involved, not bit for bit. */
int main(void) {
  const int rows = 45, cols = 173;
  float *a = malloc(rows * cols * sizeof(float));
  float *w = malloc(cols * sizeof(float));
  float *ref = malloc(rows * cols * sizeof(float));
  srand(42);
  for (int j = 0; j < cols; j++) w[j] = (float)(rand() % 1000) / 100.0f;
  for (int i = 0; i < rows * cols; i++) a[i] = ref[i] = (float)(rand() % 200) - 100.0f;
  #pragma acc parallel num_gangs(4, 3) copy(a[0:rows * cols]) copyin(w[0:cols])
  {
    #pragma acc loop gang(dim:2)
    for (int i = 0; i < rows; i++) {
      #pragma acc loop gang(dim:1)
      for (int j = 0; j < cols; j++)
        a[i * cols + j] += w[j] * (float)(i + 1);   /* += : a second execution would show */
    }
  }
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) ref[i * cols + j] += w[j] * (float)(i + 1);
  int errors = 0;
  for (int i = 0; i < rows * cols; i++)
    if (fabsf(a[i] - ref[i]) > 1e-6f * (fabsf(ref[i]) + fabsf(w[i % cols] * (float)(i / cols + 1)) + 1.0f)) {
      if (errors++ < 5) printf("FAIL a[%d] = %g, expected %g\n", i, a[i], ref[i]);
    }
  free(a); free(w); free(ref);
  return errors != 0;
}

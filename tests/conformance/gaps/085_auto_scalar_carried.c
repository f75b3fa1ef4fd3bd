// A `loop auto` nested in a gang loop that writes a scalar read by the next iteration (an exponential moving average): the loop-carried scalar makes it sequential.
// OpenACC 3.3 §2.9.7: auto does not assert independence; the compiler must prove it.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
  const int series = 32, len = 900;
  float *x = malloc(series * len * sizeof(float)), *ema = malloc(series * len * sizeof(float));
  srand(42);
  for (int p = 0; p < series * len; p++) x[p] = (float)(rand() % 10000) / 100.0f;
  #pragma acc parallel loop gang copyin(x[0:series * len]) copyout(ema[0:series * len])
  for (int s = 0; s < series; s++) {
    float level = x[s * len];
    #pragma acc loop auto
    for (int t = 0; t < len; t++) {
      level = 0.9f * level + 0.1f * x[s * len + t];
      ema[s * len + t] = level;
    }
  }
  int errors = 0;
  for (int s = 0; s < series; s++) {
    float level = x[s * len];
    for (int t = 0; t < len; t++) {
      level = 0.9f * level + 0.1f * x[s * len + t];
      if (fabsf(ema[s * len + t] - level) > 1e-3f * fabsf(level)) {
        if (errors++ < 5) printf("FAIL ema[%d][%d] = %g, expected %g\n", s, t, ema[s * len + t], level);
      }
    }
  }
  free(x); free(ema);
  return errors != 0;
}

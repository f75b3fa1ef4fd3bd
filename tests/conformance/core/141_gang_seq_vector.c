// gang loop over blocks, a seq time loop inside, vector loop innermost (1-D heat per block).
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NBLK 16
#define LEN 64
#define STEPS 20

int main(void) {
  static double u[NBLK][LEN], w[NBLK][LEN], ref[NBLK][LEN], tmp[LEN];
  for (int b = 0; b < NBLK; b++)
    for (int i = 0; i < LEN; i++) ref[b][i] = u[b][i] = (i == LEN / 2) ? 100.0 + b : 0.0;
  #pragma acc parallel loop gang copy(u) create(w)
  for (int b = 0; b < NBLK; b++) {
    #pragma acc loop seq
    for (int t = 0; t < STEPS; t++) {
      #pragma acc loop vector
      for (int i = 1; i < LEN - 1; i++) w[b][i] = u[b][i] + 0.25 * (u[b][i - 1] - 2 * u[b][i] + u[b][i + 1]);
      #pragma acc loop vector
      for (int i = 1; i < LEN - 1; i++) u[b][i] = w[b][i];
    }
  }
  for (int b = 0; b < NBLK; b++)
    for (int t = 0; t < STEPS; t++) {
      for (int i = 1; i < LEN - 1; i++) tmp[i] = ref[b][i] + 0.25 * (ref[b][i - 1] - 2 * ref[b][i] + ref[b][i + 1]);
      for (int i = 1; i < LEN - 1; i++) ref[b][i] = tmp[i];
    }
  int errors = 0;
  for (int b = 0; b < NBLK; b++) {
    double heat = 0;
    for (int i = 0; i < LEN; i++) {
      heat += u[b][i];
      if (fabs(u[b][i] - ref[b][i]) > 1e-9) { errors++; printf("FAIL u[%d][%d]\n", b, i); b = NBLK; break; }
    }
    if (b < NBLK && fabs(heat - (100.0 + b)) > 1e-6) { errors++; printf("FAIL heat not conserved in block %d\n", b); }
  }
  if (errors == 0) printf("gang/seq/vector nest ok\n");
  return errors != 0;
}

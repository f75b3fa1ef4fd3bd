// per-gang sections: a gang loop over blocks, inside it a worker loop reducing a row section cnt[b][0:K] of the gang's block and a vector loop reducing a scalar.
// GCC 12 is wrong here: it compiles the program but its worker-level reduction of the row section cnt[b][0:K] is lost
// (every count stays 0); the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

#define B 8
#define K 6
#define M 500

int main(void) {
  int *v = malloc(B * M * sizeof(int));
  srand(42);
  for (int i = 0; i < B * M; i++) v[i] = rand() % 9973;
  int cnt[B][K], wc[B][K];
  double mean[B], wm[B];
  for (int b = 0; b < B; b++) for (int k = 0; k < K; k++) cnt[b][k] = wc[b][k] = 0;
  #pragma acc parallel num_gangs(4) num_workers(4) copyin(v[0:B*M]) copy(cnt, mean)
  {
    #pragma acc loop gang
    for (int b = 0; b < B; b++) {
      #pragma acc loop worker reduction(+:cnt[b][0:K])
      for (int j = 0; j < M; j++) cnt[b][v[b * M + j] % K] += 1;
      double s = 0.0;
      #pragma acc loop vector reduction(+:s)
      for (int j = 0; j < M; j++) s += v[b * M + j];
      mean[b] = s / M;
    }
  }
  for (int b = 0; b < B; b++) {
    double s = 0.0;
    for (int j = 0; j < M; j++) { wc[b][v[b * M + j] % K] += 1; s += v[b * M + j]; }
    wm[b] = s / M;
  }
  int errors = 0;
  for (int b = 0; b < B; b++) {
    if (mean[b] != wm[b]) { errors++; printf("FAIL mean %d %g %g\n", b, mean[b], wm[b]); }
    for (int k = 0; k < K; k++) if (cnt[b][k] != wc[b][k]) { errors++; printf("FAIL cnt %d %d %d %d\n", b, k, cnt[b][k], wc[b][k]); }
  }
  free(v);
  if (errors == 0) printf("per-gang row reductions ok\n");
  return errors != 0;
}

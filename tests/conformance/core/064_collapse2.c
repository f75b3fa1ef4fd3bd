// collapse(2) over a rectangular 2-D iteration space (non-square, non-power-of-two).
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

/* Device code may contract a * b + c into one fused multiply-add (nvcc, NVHPC and GCC do so by default;
   C leaves FP_CONTRACT to the implementation), so results are compared within a few units in the last
   place of the terms involved, not bit for bit. */
#define N 37
#define M 53

int main(void) {
  static double a[N][M], b[N][M];
  srand(8);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) a[i][j] = rand() % 1000 * 0.01;
  #pragma acc parallel loop collapse(2) copyin(a) copyout(b)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) b[i][j] = a[i][j] * i + j;
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (fabs(b[i][j] - (a[i][j] * i + j)) > 1e-14 * (fabs(a[i][j] * i) + j + 1)) { if (errors++ < 5) printf("FAIL b[%d][%d]\n", i, j); }
  int count[N * M];
  for (int k = 0; k < N * M; k++) count[k] = 0;
  #pragma acc parallel copy(count)
  {
    #pragma acc loop gang collapse(2)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < M; j++) count[i * M + j] += 1;          /* each pair visited once */
  }
  for (int k = 0; k < N * M; k++) if (count[k] != 1) { errors++; printf("FAIL visit %d = %d\n", k, count[k]); break; }
  long sum = 0;
  #pragma acc parallel loop collapse(2) reduction(+:sum)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) sum += i * j;
  if (sum != (long)(N * (N - 1) / 2) * (M * (M - 1) / 2)) { errors++; printf("FAIL collapse reduction %ld\n", sum); }
  if (errors == 0) printf("collapse(2) ok\n");
  return errors != 0;
}

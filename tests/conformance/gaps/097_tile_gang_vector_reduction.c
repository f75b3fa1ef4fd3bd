// tile(16, 8) on a gang vector loop nest with reductions (+ on double, max on int, * on long with small factors) and a gang worker vector tile with a private temporary; sizes 61 x 203 are not multiples of the tiles.
// OpenACC 3.3 §2.9.8: gang goes to the tile loops, vector to the element loops, worker to the tile loops when vector is present.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define N 61
#define M 203

/* Device code may contract a * b + c into one fused multiply-add (nvcc, NVHPC and GCC do so by default;
   C leaves FP_CONTRACT to the implementation), so results are compared within a few units in the last
   place of the terms involved, not bit for bit. */
int main(void) {
  static double a[N][M];
  static int w[N][M];
  static double out[N][M], rout[N][M];
  srand(42);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) { a[i][j] = (double)(rand() % 2000 - 1000) / 13.0; w[i][j] = rand() % 100000; }
  double sum = 1.5, rsum = 1.5;
  int mx = -5, rmx = -5;
  long prod = 3, rprod = 3;
  #pragma acc parallel loop gang vector tile(16, 8) reduction(+:sum) reduction(max:mx) reduction(*:prod) copyin(a, w)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      sum += a[i][j] * (i + 1);
      mx = w[i][j] > mx ? w[i][j] : mx;
      if ((i * M + j) % 997 == 0) prod *= 1 + (w[i][j] % 3);
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      rsum += a[i][j] * (i + 1);
      rmx = w[i][j] > rmx ? w[i][j] : rmx;
      if ((i * M + j) % 997 == 0) rprod *= 1 + (w[i][j] % 3);
    }
  double t;
  #pragma acc parallel loop gang worker vector tile(8, 2) private(t) copyin(a) copyout(out)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      t = a[i][j] * a[i][j];
      out[i][j] = t - j;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) rout[i][j] = a[i][j] * a[i][j] - j;
  int errors = 0;
  if (fabs(sum - rsum) > 1e-6 * fabs(rsum)) { errors++; printf("FAIL sum=%.12g (%.12g)\n", sum, rsum); }
  if (mx != rmx) { errors++; printf("FAIL max=%d (%d)\n", mx, rmx); }
  if (prod != rprod) { errors++; printf("FAIL prod=%ld (%ld)\n", prod, rprod); }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (fabs(out[i][j] - rout[i][j]) > 1e-14 * (a[i][j] * a[i][j] + j + 1)) {
        if (errors++ < 5) printf("FAIL out(%d,%d)=%g (%g)\n", i, j, out[i][j], rout[i][j]);
      }
  return errors != 0;
}

// private on loop constructs at gang, worker and vector level; temporaries per iteration.
#include <stdio.h>
#include <stdlib.h>

#define N 64
#define M 96

int main(void) {
  static int a[N][M], out[N][M];
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) a[i][j] = (i * 31 + j * 17) % 101;
  int t, u;
  #pragma acc parallel copyin(a) copyout(out)
  {
    #pragma acc loop gang private(t)
    for (int i = 0; i < N; i++) {
      t = i * 1000;
      #pragma acc loop vector private(u)
      for (int j = 0; j < M; j++) {
        u = a[i][j] * 2;
        out[i][j] = t + u;
      }
    }
  }
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (out[i][j] != i * 1000 + a[i][j] * 2) { errors++; printf("FAIL out[%d][%d]\n", i, j); i = N; break; }
  double tmp[3];
  static double res[N];
  #pragma acc parallel loop gang worker private(tmp) copyout(res)
  for (int i = 0; i < N; i++) {
    tmp[0] = i; tmp[1] = i * 0.5; tmp[2] = i * 0.25;
    res[i] = tmp[0] + tmp[1] + tmp[2];
  }
  for (int i = 0; i < N; i++) if (res[i] != i * 1.75) { errors++; printf("FAIL res[%d]\n", i); break; }
  if (errors == 0) printf("loop private ok\n");
  return errors != 0;
}

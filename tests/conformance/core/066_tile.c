// tile(4,4) on a 2-D loop nest (sizes not multiples of 4) and a tiled transpose.
#include <stdio.h>
#include <stdlib.h>

#define N 30
#define M 45

int main(void) {
  static int a[N][M], t[M][N], visits[N][M];
  srand(12);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) { a[i][j] = rand() % 1000; visits[i][j] = 0; }
  #pragma acc parallel loop tile(4, 4) copyin(a) copyout(t)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) t[j][i] = a[i][j];
  #pragma acc parallel loop tile(4, 4) copy(visits)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) visits[i][j] += 1;
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      if (t[j][i] != a[i][j]) { if (errors++ < 5) printf("FAIL t[%d][%d]\n", j, i); }
      if (visits[i][j] != 1) { if (errors++ < 5) printf("FAIL visits[%d][%d] = %d\n", i, j, visits[i][j]); }
    }
  long s = 0;
  #pragma acc parallel loop tile(8, 2) reduction(+:s) copyin(a)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) s += a[i][j] % 13;
  long w = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) w += a[i][j] % 13;
  if (s != w) { errors++; printf("FAIL tiled reduction %ld %ld\n", s, w); }
  if (errors == 0) printf("tile ok\n");
  return errors != 0;
}

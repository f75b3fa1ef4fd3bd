// Global fixed 2-D arrays with row-block sections a[lo:len][0:M] in data and update clauses.
#include <stdio.h>

#define N 60
#define M 40
double A[N][M], B[N][M];

int main(void) {
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) { A[i][j] = i * M + j; B[i][j] = -1; }
  #pragma acc data copyin(A[0:N][0:M]) copyout(B[10:30][0:M])
  {
    #pragma acc parallel loop collapse(2) present(A[0:N][0:M], B[10:30][0:M])
    for (int i = 10; i < 40; i++)
      for (int j = 0; j < M; j++) B[i][j] = A[i][j] + A[i - 10][j];
  }
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      double want = (i >= 10 && i < 40) ? (double)(i * M + j) + ((i - 10) * M + j) : -1;
      if (B[i][j] != want) { errors++; printf("FAIL B[%d][%d] = %g\n", i, j, B[i][j]); i = N; break; }
    }
  #pragma acc enter data copyin(A)
  for (int j = 0; j < M; j++) A[5][j] = 1000 + j;
  #pragma acc update device(A[5:1][0:M])
  #pragma acc parallel loop present(A)
  for (int j = 0; j < M; j++) A[5][j] += 1;
  #pragma acc update self(A[5:1][0:M])
  #pragma acc exit data delete(A)
  for (int j = 0; j < M; j++) if (A[5][j] != 1001 + j) { errors++; printf("FAIL row update %d\n", j); break; }
  if (A[4][0] != 4 * M || A[6][M - 1] != 6 * M + M - 1) { errors++; printf("FAIL neighbouring rows\n"); }
  if (errors == 0) printf("global 2-D sections ok\n");
  return errors != 0;
}

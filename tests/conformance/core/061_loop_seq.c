// loop seq: a loop with a carried dependence inside a parallel gang loop runs in order.
#include <stdio.h>
#include <stdlib.h>

#define ROWS 64
#define COLS 200

int main(void) {
  static long a[ROWS][COLS], ref[ROWS][COLS];
  srand(21);
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++) ref[i][j] = a[i][j] = rand() % 10;
  #pragma acc parallel loop gang copy(a)
  for (int i = 0; i < ROWS; i++) {
    #pragma acc loop seq
    for (int j = 1; j < COLS; j++) a[i][j] += a[i][j - 1];       /* running prefix sum per row */
  }
  for (int i = 0; i < ROWS; i++)
    for (int j = 1; j < COLS; j++) ref[i][j] += ref[i][j - 1];
  int errors = 0;
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      if (a[i][j] != ref[i][j]) { if (errors++ < 5) printf("FAIL a[%d][%d]\n", i, j); }
  int v[100];
  for (int i = 0; i < 100; i++) v[i] = 1;
  #pragma acc parallel loop seq copy(v)
  for (int i = 1; i < 100; i++) v[i] = v[i - 1] * 3 % 1001;
  int w = 1;
  for (int i = 1; i < 100; i++) w = w * 3 % 1001;
  if (v[99] != w) { errors++; printf("FAIL parallel loop seq %d %d\n", v[99], w); }
  if (errors == 0) printf("loop seq ok\n");
  return errors != 0;
}

// tile(4, *, 3) over a 3-loop nest (a 7-point stencil on a 19 x 45 x 23 grid, no size a multiple of its tile) and tile(*, *) over a 2-loop nest: `*` takes the implementation's size (accjit: 32).
// OpenACC 3.3 §2.9.8: tile(*) lets the implementation choose; partial tiles at the edges must be correct.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define X 19
#define Y 45
#define Z 23

int main(void) {
  static double u[X][Y][Z], v[X][Y][Z], ref[X][Y][Z];
  static double s[70][90], rs[70][90];
  srand(42);
  for (int i = 0; i < X; i++)
    for (int j = 0; j < Y; j++)
      for (int k = 0; k < Z; k++) { u[i][j][k] = (double)(rand() % 10000) / 100.0; v[i][j][k] = ref[i][j][k] = 0.0; }
  #pragma acc parallel loop gang vector tile(4, *, 3) copyin(u) copy(v)
  for (int i = 1; i < X - 1; i++)
    for (int j = 1; j < Y - 1; j++)
      for (int k = 1; k < Z - 1; k++)
        v[i][j][k] = (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k] + u[i][j + 1][k] + u[i][j][k - 1] + u[i][j][k + 1] - 6.0 * u[i][j][k]) / 6.0;
  for (int i = 1; i < X - 1; i++)
    for (int j = 1; j < Y - 1; j++)
      for (int k = 1; k < Z - 1; k++)
        ref[i][j][k] = (u[i - 1][j][k] + u[i + 1][j][k] + u[i][j - 1][k] + u[i][j + 1][k] + u[i][j][k - 1] + u[i][j][k + 1] - 6.0 * u[i][j][k]) / 6.0;
  #pragma acc parallel loop tile(*, *) copyout(s)
  for (int i = 0; i < 70; i++)
    for (int j = 0; j < 90; j++) s[i][j] = sin(0.01 * i) * cos(0.02 * j) + i * 90 + j;
  for (int i = 0; i < 70; i++)
    for (int j = 0; j < 90; j++) rs[i][j] = sin(0.01 * i) * cos(0.02 * j) + i * 90 + j;
  int errors = 0;
  for (int i = 0; i < X; i++)
    for (int j = 0; j < Y; j++)
      for (int k = 0; k < Z; k++)
        if (fabs(v[i][j][k] - ref[i][j][k]) > 1e-9) {
          if (errors++ < 5) printf("FAIL v(%d,%d,%d)=%g (%g)\n", i, j, k, v[i][j][k], ref[i][j][k]);
        }
  for (int i = 0; i < 70; i++)
    for (int j = 0; j < 90; j++)
      if (fabs(s[i][j] - rs[i][j]) > 1e-9) {
        if (errors++ < 5) printf("FAIL s(%d,%d)=%g (%g)\n", i, j, s[i][j], rs[i][j]);
      }
  return errors != 0;
}

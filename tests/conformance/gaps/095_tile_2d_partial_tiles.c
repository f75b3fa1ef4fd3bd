// tile(8, 4) over a 2-loop nest whose trip counts (37 x 53) are not multiples of the tiles, with a stride-2 inner loop and a descending outer loop: every element of the partial edge tiles is written once.
// OpenACC 3.3 §2.9.8: the first size is the innermost loop's; each loop splits into a tile loop and an element loop.
#include <stdio.h>
#include <stdlib.h>

#define N 37
#define M 106

int main(void) {
  static float a[N][M], b[N][M], ref[N][M];
  static int hits[N][M];
  srand(42);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) { a[i][j] = (float)(rand() % 1000) / 7.0f; b[i][j] = -1.0f; hits[i][j] = 0; }
  #pragma acc parallel loop tile(8, 4) copyin(a) copy(b, hits)
  for (int i = N - 1; i >= 0; i--)
    for (int j = 1; j < M; j += 2) {
      b[i][j] = a[i][j] * 2.0f + (float)(i - j);
      hits[i][j] += 1;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) ref[i][j] = (j % 2 == 1) ? a[i][j] * 2.0f + (float)(i - j) : -1.0f;
  int errors = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      if (b[i][j] != ref[i][j] || hits[i][j] != (j % 2)) {
        if (errors++ < 5) printf("FAIL (%d,%d): b=%g (%g) hits=%d\n", i, j, b[i][j], ref[i][j], hits[i][j]);
      }
  return errors != 0;
}

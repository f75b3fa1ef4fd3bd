// Fixed-size arrays in 1, 2 and 3 dimensions: initialisers, indexing, passing.
#include <stdio.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

static int sum2(int rows, int a[][4]) {
  int s = 0;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < 4; j++) s += a[i][j];
  return s;
}
static double trace3(double c[3][3][3]) { return c[0][0][0] + c[1][1][1] + c[2][2][2]; }

int main(void) {
  int v[8] = {5, 3, 9};            /* rest zero */
  CHECK(v[0] == 5 && v[2] == 9 && v[3] == 0 && v[7] == 0);
  int m[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
  CHECK(m[1][2] == 7 && m[2][3] == 12);
  CHECK(sum2(3, m) == 78);
  CHECK(&m[1][0] == &m[0][4 - 4] + 4);      /* rows are contiguous */
  int *flat = &m[0][0];
  CHECK(flat[9] == 10);
  double c[3][3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++) c[i][j][k] = i * 9 + j * 3 + k;
  CHECK(c[2][1][0] == 21 && trace3(c) == 0 + 13 + 26);
  char grid[2][3][4] = {{"abc", "def", "ghi"}, {"jkl", "mno", "pqr"}};
  CHECK(grid[1][2][1] == 'q' && grid[0][1][3] == '\0');
  int t[4][4];
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) t[i][j] = (i == j) ? 1 : i - j;
  int anti = 0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) anti += t[i][j] + t[j][i];
  CHECK(anti == 8);
  int z[] = {[2] = 7, [5] = 1};
  CHECK(sizeof z / sizeof z[0] == 6 && z[2] == 7 && z[4] == 0);
  if (errors == 0) printf("fixed arrays ok\n");
  return errors != 0;
}

// Variable-length arrays in 1, 2 and 3 dimensions, sizes from runtime values.
#include <stdio.h>
#include <stdlib.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

static long run(int n, int m, int p) {
  double v[n];
  int a[n][m];
  short c[n][m][p];
  CHECK(sizeof v == n * sizeof(double));
  CHECK(sizeof a == (size_t)n * m * sizeof(int));
  CHECK(sizeof c[0] == (size_t)m * p * sizeof(short));
  for (int i = 0; i < n; i++) v[i] = i * 0.5;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i][j] = i * m + j;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++) c[i][j][k] = (short)(i - j + k);
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      CHECK(a[i][j] == i * m + j);
      for (int k = 0; k < p; k++) s += c[i][j][k];
    }
  CHECK(v[n - 1] == (n - 1) * 0.5);
  return s;
}

int main(void) {
  srand(7);
  for (int rep = 0; rep < 5; rep++) {
    int n = 2 + rand() % 9, m = 1 + rand() % 7, p = 1 + rand() % 5;
    long expect = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        for (int k = 0; k < p; k++) expect += i - j + k;
    long got = run(n, m, p);
    CHECK(got == expect);
  }
  int len = 5;
  char name[len + 1];
  for (int i = 0; i < len; i++) name[i] = 'a' + i;
  name[len] = 0;
  CHECK(name[4] == 'e' && sizeof name == 6);
  if (errors == 0) printf("VLAs ok\n");
  return errors != 0;
}

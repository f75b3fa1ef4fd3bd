// A kernels region with an explicit `loop gang` over independent blocks holding inner loops the compiler must decide: a dependent one (running max along a row, carried through the array) and an independent one (scaling).
// OpenACC 3.3 §2.5.3/§2.9.7: in kernels, a loop without independent is auto; it runs in parallel only when proven independent.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static int a[50][300], b[50][300], ra[50][300], rb[50][300];
  const int n = 50, m = 300;
  srand(42);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) { a[i][j] = ra[i][j] = rand() % 10000; b[i][j] = rb[i][j] = rand() % 100; }
  #pragma acc kernels copy(a, b)
  {
    #pragma acc loop gang
    for (int i = 0; i < n; i++) {
      #pragma acc loop
      for (int j = 1; j < m; j++) a[i][j] = a[i][j] > a[i][j - 1] ? a[i][j] : a[i][j - 1];
      for (int j = 0; j < m; j++) b[i][j] = b[i][j] * 3 - j;
    }
  }
  for (int i = 0; i < n; i++) {
    for (int j = 1; j < m; j++) ra[i][j] = ra[i][j] > ra[i][j - 1] ? ra[i][j] : ra[i][j - 1];
    for (int j = 0; j < m; j++) rb[i][j] = rb[i][j] * 3 - j;
  }
  int errors = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (a[i][j] != ra[i][j] || b[i][j] != rb[i][j]) {
        if (errors++ < 5) printf("FAIL (%d,%d): a=%d (%d) b=%d (%d)\n", i, j, a[i][j], ra[i][j], b[i][j], rb[i][j]);
      }
  return errors != 0;
}

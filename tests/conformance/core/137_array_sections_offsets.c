// Array sections with nonzero starts: copyin(a[lo:len]), copyout(b[lo:len]); untouched parts stay.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1000, lo = 250, len = 400;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = -1; }
  #pragma acc parallel loop copyin(a[lo:len]) copyout(b[lo:len])
  for (int i = lo; i < lo + len; i++) b[i] = a[i] * 2;
  int errors = 0;
  for (int i = 0; i < n; i++) {
    int want = (i >= lo && i < lo + len) ? 2 * i : -1;
    if (b[i] != want) { errors++; printf("FAIL b[%d] = %d\n", i, b[i]); break; }
  }
  double m[10][20];
  for (int i = 0; i < 10; i++) for (int j = 0; j < 20; j++) m[i][j] = i + j / 100.0;
  #pragma acc parallel loop copy(m[3:4][0:20])
  for (int i = 3; i < 7; i++)
    for (int j = 0; j < 20; j++) m[i][j] *= -1.0;
  for (int i = 0; i < 10; i++)
    for (int j = 0; j < 20; j++) {
      double want = (i >= 3 && i < 7) ? -(i + j / 100.0) : i + j / 100.0;
      if (m[i][j] != want) { errors++; printf("FAIL m[%d][%d]\n", i, j); i = 10; break; }
    }
  int *p = a + 100;
  #pragma acc parallel loop copy(p[0:10])
  for (int i = 0; i < 10; i++) p[i] += 1000;
  for (int i = 100; i < 110; i++) if (a[i] != i + 1000) { errors++; printf("FAIL pointer section %d\n", i); break; }
  if (a[99] != 99 || a[110] != 110) { errors++; printf("FAIL neighbours touched\n"); }
  free(a); free(b);
  if (errors == 0) printf("array sections ok\n");
  return errors != 0;
}

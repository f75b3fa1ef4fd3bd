// Loops with negative steps: for (i = n-1; i >= 0; i--), i -= 3, and > bounds.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1000;
  int *a = malloc(n * sizeof(int)), *hit = calloc(n, sizeof(int));
  #pragma acc parallel loop copyout(a[0:n])
  for (int i = n - 1; i >= 0; i--) a[i] = n - i;
  int errors = 0;
  for (int i = 0; i < n; i++) if (a[i] != n - i) { errors++; printf("FAIL a[%d] = %d\n", i, a[i]); break; }
  #pragma acc parallel loop copy(hit[0:n])
  for (int i = n - 1; i > 0; i -= 3) hit[i] += 1;
  for (int i = 0; i < n; i++) {
    int want = (i > 0 && (n - 1 - i) % 3 == 0) ? 1 : 0;
    if (hit[i] != want) { errors++; printf("FAIL hit[%d] = %d\n", i, hit[i]); break; }
  }
  long s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (long i = 100; i >= -100; i--) s += i * i;
  if (s != 2 * 338350) { errors++; printf("FAIL sum of squares %ld\n", s); }
  int cnt = 0;
  #pragma acc parallel loop reduction(+:cnt)
  for (int i = 10; i > 10; i--) cnt++;
  if (cnt != 0) { errors++; printf("FAIL empty descending loop\n"); }
  static int m[20][30];
  #pragma acc parallel loop collapse(2) copyout(m)
  for (int i = 19; i >= 0; i--)
    for (int j = 29; j >= 0; j -= 1) m[i][j] = i * 100 + j;
  for (int i = 0; i < 20; i++) for (int j = 0; j < 30; j++) if (m[i][j] != i * 100 + j) { errors++; printf("FAIL collapse descending\n"); i = 20; break; }
  free(a); free(hit);
  if (errors == 0) printf("negative steps ok\n");
  return errors != 0;
}

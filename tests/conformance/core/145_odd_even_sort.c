// Odd-even transposition sort: n phases launched from the host, each phase a parallel loop.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 600;
  int *a = malloc(n * sizeof(int));
  srand(9);
  long sum = 0;
  for (int i = 0; i < n; i++) { a[i] = rand() % 10000; sum += a[i]; }
  #pragma acc data copy(a[0:n])
  for (int phase = 0; phase < n; phase++) {
    int start = phase % 2;
    #pragma acc parallel loop present(a[0:n])
    for (int i = start; i < n - 1; i += 2)
      if (a[i] > a[i + 1]) { int t = a[i]; a[i] = a[i + 1]; a[i + 1] = t; }
  }
  int errors = 0;
  long s2 = 0;
  for (int i = 0; i < n; i++) {
    s2 += a[i];
    if (i && a[i - 1] > a[i]) { errors++; printf("FAIL not sorted at %d\n", i); break; }
  }
  if (s2 != sum) { errors++; printf("FAIL elements changed\n"); }
  free(a);
  if (errors == 0) printf("odd-even sort ok\n");
  return errors != 0;
}

// Host recursion (quicksort, recursive sum) mixed with device loops that verify the results.
#include <stdio.h>
#include <stdlib.h>

static void quicksort(int *a, int lo, int hi) {
  if (lo >= hi) return;
  int p = a[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (a[i] < p) i++;
    while (a[j] > p) j--;
    if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
  }
  quicksort(a, lo, j);
  quicksort(a, i, hi);
}
static long rsum(const int *a, int n) { return n == 1 ? a[0] : rsum(a, n / 2) + rsum(a + n / 2, n - n / 2); }

int main(void) {
  const int n = 5000;
  int *a = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) a[i] = rand() % 100000;
  long before = rsum(a, n);
  quicksort(a, 0, n - 1);
  int unsorted = 0;
  long dev_sum = 0;
  #pragma acc parallel loop copyin(a[0:n]) reduction(+:unsorted, dev_sum)
  for (int i = 0; i < n; i++) {
    if (i > 0 && a[i - 1] > a[i]) unsorted++;
    dev_sum += a[i];
  }
  int errors = 0;
  if (unsorted) { errors++; printf("FAIL %d inversions\n", unsorted); }
  if (dev_sum != before || rsum(a, n) != before) { errors++; printf("FAIL sums %ld %ld\n", dev_sum, before); }
  free(a);
  if (errors == 0) printf("recursion with acc ok\n");
  return errors != 0;
}

// Loop trip counts 0, 1, 2, odd, prime and large, in parallel loops and reductions.
#include <stdio.h>
#include <stdlib.h>

static int check(int n) {
  int *a = malloc((n + 1) * sizeof(int));
  for (int i = 0; i <= n; i++) a[i] = -1;
  long s = 0;
  #pragma acc parallel loop copy(a[0:n+1]) reduction(+:s)
  for (int i = 0; i < n; i++) { a[i] = i; s += i + 1; }
  int bad = a[n] != -1;                      /* untouched sentinel */
  for (int i = 0; i < n; i++) bad += a[i] != i;
  if (s != (long)n * (n + 1) / 2) bad++;
  int m = 0;
  #pragma acc parallel loop reduction(max:m)
  for (int i = 0; i < n; i++) if (i + 1 > m) m = i + 1;
  if (m != n) bad++;
  free(a);
  return bad;
}

int main(void) {
  int sizes[] = {0, 1, 2, 3, 7, 31, 63, 64, 65, 127, 1001, 4093, 65537};
  int errors = 0;
  for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
    if (check(sizes[k])) { errors++; printf("FAIL trip count %d\n", sizes[k]); }
  int lo = 10, hi = 5, ran = 0;
  #pragma acc parallel loop reduction(+:ran)
  for (int i = lo; i < hi; i++) ran++;
  if (ran != 0) { errors++; printf("FAIL empty range ran %d\n", ran); }
  if (errors == 0) printf("trip counts ok\n");
  return errors != 0;
}

// break, continue and goto (forward, backward, out of nested loops, cleanup pattern).
#include <stdio.h>
#include <stdlib.h>

static int find_pair(int *v, int n, int target, int *pi, int *pj) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (v[i] + v[j] == target) { *pi = i; *pj = j; goto found; }
  return 0;
found:
  return 1;
}
static int work(int fail_at) {
  int rc = -1;
  double *a = malloc(64), *b = NULL;
  if (fail_at == 1) goto out_a;
  b = malloc(64);
  if (fail_at == 2) goto out_b;
  rc = 0;
out_b:
  free(b);
out_a:
  free(a);
  return rc;
}

int main(void) {
  int errors = 0;
  int v[] = {8, 3, 11, 5, 9, 14};
  int i = -1, j = -1;
  if (!find_pair(v, 6, 19, &i, &j) || i != 0 || j != 2) { errors++; printf("FAIL find_pair %d %d\n", i, j); }
  if (find_pair(v, 6, 100, &i, &j)) { errors++; printf("FAIL find none\n"); }
  if (work(0) != 0 || work(1) != -1 || work(2) != -1) { errors++; printf("FAIL cleanup\n"); }
  int odd_sum = 0;
  for (int k = 0; k < 100; k++) {
    if (k % 2 == 0) continue;
    if (k > 50) break;
    odd_sum += k;
  }
  if (odd_sum != 625) { errors++; printf("FAIL odd sum %d\n", odd_sum); }
  int n = 0;
again:
  n++;
  if (n < 5) goto again;
  if (n != 5) { errors++; printf("FAIL backward goto\n"); }
  int w = 0;
  while (1) { w++; do { if (w > 3) break; } while (0); if (w > 6) break; }
  if (w != 7) { errors++; printf("FAIL nested break %d\n", w); }
  if (errors == 0) printf("break/continue/goto ok\n");
  return errors != 0;
}

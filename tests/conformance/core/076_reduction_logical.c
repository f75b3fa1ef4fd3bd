// reduction(&&:) and reduction(||:) on int (and long) flags: all/any predicates.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 5000;
  int *v = malloc(n * sizeof(int));
  srand(31);
  for (int i = 0; i < n; i++) v[i] = 1 + rand() % 1000;      /* all positive */
  v[n / 3] = 1001;                                           /* exactly one value above 1000 */
  int all_pos = 1, any_big = 0, all_small = 1, any_neg = 0;
  long all_odd = 1, any_zero = 0;
  #pragma acc parallel loop copyin(v[0:n]) reduction(&&:all_pos, all_small, all_odd) reduction(||:any_big, any_neg, any_zero)
  for (int i = 0; i < n; i++) {
    all_pos = all_pos && v[i] > 0;
    all_small = all_small && (v[i] <= 1000);
    all_odd = all_odd && (v[i] % 2);
    any_big = any_big || v[i] > 1000;
    any_neg = any_neg || v[i] < 0;
    any_zero = any_zero || v[i] == 0;
  }
  int errors = 0;
  if (all_pos != 1 || any_big != 1) { errors++; printf("FAIL true results %d %d\n", all_pos, any_big); }
  if (all_small != 0 || any_neg != 0) { errors++; printf("FAIL false results %d %d\n", all_small, any_neg); }
  if (all_odd != 0 || any_zero != 0) { errors++; printf("FAIL long flags\n"); }
  int start_false = 0, start_true = 1;
  #pragma acc parallel loop reduction(&&:start_false) reduction(||:start_true)
  for (int i = 0; i < 100; i++) { start_false = start_false && 1; start_true = start_true || 0; }
  if (start_false != 0 || start_true != 1) { errors++; printf("FAIL initial values kept %d %d\n", start_false, start_true); }
  free(v);
  if (errors == 0) printf("reduction && || ok\n");
  return errors != 0;
}

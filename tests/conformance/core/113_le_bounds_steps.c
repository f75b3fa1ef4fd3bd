// Inclusive <= and >= bounds, step 3 and other strides, unsigned induction variables.
#include <stdio.h>

int main(void) {
  static int a[1000];
  int errors = 0;
  #pragma acc parallel loop copy(a)
  for (int i = 0; i <= 999; i += 3) a[i] = i / 3 + 1;
  for (int i = 0; i < 1000; i++) {
    int want = i % 3 == 0 ? i / 3 + 1 : 0;
    if (a[i] != want) { errors++; printf("FAIL a[%d] = %d\n", i, a[i]); break; }
  }
  long s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 1; i <= 100; i++) s += i;
  if (s != 5050) { errors++; printf("FAIL <= sum %ld\n", s); }
  s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = 7; i <= 7; i++) s += i;            /* exactly one iteration */
  if (s != 7) { errors++; printf("FAIL single <= iteration\n"); }
  s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (unsigned u = 5; u < 1000u; u += 7) s += u;
  long w = 0;
  for (unsigned u = 5; u < 1000u; u += 7) w += u;
  if (s != w) { errors++; printf("FAIL unsigned stride %ld %ld\n", s, w); }
  int c = 0;
  #pragma acc parallel loop reduction(+:c)
  for (int i = 50; i >= 2; i -= 4) c++;
  if (c != 13) { errors++; printf("FAIL >= stride count %d\n", c); }
  s = 0;
  #pragma acc parallel loop reduction(+:s)
  for (int i = -30; i <= 30; i += 5) s += i;
  if (s != 0) { errors++; printf("FAIL symmetric range %ld\n", s); }
  if (errors == 0) printf("bounds and steps ok\n");
  return errors != 0;
}

// while, do-while and for loops with declarations in the init clause; nested scopes.
#include <stdio.h>

int main(void) {
  int errors = 0;
  int n = 27, steps = 0;
  while (n != 1) { n = (n % 2) ? 3 * n + 1 : n / 2; steps++; }       /* Collatz */
  if (steps != 111) { errors++; printf("FAIL collatz %d\n", steps); }
  int digits = 0; long v = 0;
  do { digits++; v /= 10; } while (v != 0);                          /* body runs once for 0 */
  if (digits != 1) { errors++; printf("FAIL do-while\n"); }
  long sum = 0;
  for (int i = 0, j = 100; i < j; i += 3, j -= 2) sum += j - i;
  long check = 0; int i2 = 0, j2 = 100;
  while (i2 < j2) { check += j2 - i2; i2 += 3; j2 -= 2; }
  if (sum != check) { errors++; printf("FAIL multi-var for %ld %ld\n", sum, check); }
  int x = 5;
  for (int x = 0; x < 3; x++) { int y = x * 2; (void)y; }   /* shadows outer x */
  if (x != 5) { errors++; printf("FAIL shadowing\n"); }
  int count = 0;
  for (;;) { if (++count == 10) break; }
  if (count != 10) { errors++; printf("FAIL for(;;)\n"); }
  unsigned k = 10; int iters = 0;
  while (k--) iters++;
  if (iters != 10 || k != 4294967295u) { errors++; printf("FAIL while k--\n"); }
  double prod = 1;
  for (double d = 1.0; d <= 2.0; d += 0.25) prod *= d;
  if (prod != 1.0 * 1.25 * 1.5 * 1.75 * 2.0) { errors++; printf("FAIL float loop\n"); }
  int tri = 0;
  for (int a = 0; a < 10; a++)
    for (int b = a; b < 10; b++) tri++;
  if (tri != 55) { errors++; printf("FAIL triangle loop\n"); }
  if (errors == 0) printf("loops ok\n");
  return errors != 0;
}

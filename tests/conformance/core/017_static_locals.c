// Static local variables keep their value between calls; static arrays.
#include <stdio.h>

static int next_id(void) {
  static int id = 100;
  return id++;
}
static int fib_memo(int n) {
  static long memo[64];
  static int ready = 0;
  if (!ready) { memo[0] = 0; memo[1] = 1; for (int i = 2; i < 64; i++) memo[i] = -1; ready = 1; }
  if (memo[n] < 0) memo[n] = fib_memo(n - 1) + fib_memo(n - 2);
  return (int)memo[n];
}
static double running_mean(double x) {
  static double sum;
  static int count;
  sum += x;
  return sum / ++count;
}

int main(void) {
  int errors = 0;
  int a = next_id(), b = next_id(), c = next_id();
  if (a != 100 || b != 101 || c != 102) { errors++; printf("FAIL ids %d %d %d\n", a, b, c); }
  if (fib_memo(40) != 102334155 || fib_memo(10) != 55) { errors++; printf("FAIL fib\n"); }
  double m = 0;
  for (int i = 1; i <= 9; i++) m = running_mean(i);
  if (m != 5.0) { errors++; printf("FAIL mean %g\n", m); }
  for (int i = 0; i < 3; i++) {
    static int inner = 0;         /* initialised once, not per iteration */
    inner += 10;
    if (inner != 10 * (i + 1)) { errors++; printf("FAIL inner %d\n", inner); }
  }
  if (errors == 0) printf("static locals ok\n");
  return errors != 0;
}

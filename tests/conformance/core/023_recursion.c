// Recursion: fib, Ackermann (small), Euclid, permutations, Tower of Hanoi.
#include <stdio.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}
static long hanoi(int n, int from, int to, int via) {
  if (n == 0) return 0;
  return hanoi(n - 1, from, via, to) + 1 + hanoi(n - 1, via, to, from);
}
static int perms(int *a, int k, int n) {
  if (k == n) return 1;
  int c = 0;
  for (int i = k; i < n; i++) {
    int t = a[k]; a[k] = a[i]; a[i] = t;
    c += perms(a, k + 1, n);
    t = a[k]; a[k] = a[i]; a[i] = t;
  }
  return c;
}
static double power(double x, int n) {
  if (n == 0) return 1;
  double h = power(x, n / 2);
  return n % 2 ? h * h * x : h * h;
}

int main(void) {
  int errors = 0;
  if (fib(20) != 6765) { errors++; printf("FAIL fib %ld\n", fib(20)); }
  if (ack(2, 3) != 9 || ack(3, 3) != 61) { errors++; printf("FAIL ack %d\n", ack(3, 3)); }
  if (hanoi(12, 1, 3, 2) != 4095) { errors++; printf("FAIL hanoi\n"); }
  int a[6] = {1, 2, 3, 4, 5, 6};
  if (perms(a, 0, 6) != 720 || a[0] != 1 || a[5] != 6) { errors++; printf("FAIL perms\n"); }
  if (power(1.5, 11) != 86.49755859375) { errors++; printf("FAIL power %.17g\n", power(1.5, 11)); }
  if (errors == 0) printf("recursion ok\n");
  return errors != 0;
}

// Recursion inside routine seq functions: fib, gcd, Ackermann (small) from a parallel loop.
#include <stdio.h>

#pragma acc routine seq
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

#pragma acc routine seq
static int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }

#pragma acc routine seq
static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

int main(void) {
  int f[20], g[64], a[4];
  #pragma acc parallel loop copyout(f)
  for (int i = 0; i < 20; i++) f[i] = fib(i);
  #pragma acc parallel loop copyout(g)
  for (int i = 0; i < 64; i++) g[i] = gcd(i * 12 + 18, 48);
  #pragma acc parallel loop copyout(a)
  for (int i = 0; i < 4; i++) a[i] = ack(2, i);
  int errors = 0;
  int x = 0, y = 1;
  for (int i = 0; i < 20; i++) {
    if (f[i] != x) { errors++; printf("FAIL fib(%d) = %d\n", i, f[i]); }
    int t = x + y; x = y; y = t;
  }
  for (int i = 0; i < 64; i++) {
    int p = i * 12 + 18, q = 48;
    while (q) { int t = p % q; p = q; q = t; }
    if (g[i] != p) { errors++; printf("FAIL gcd %d\n", i); }
  }
  for (int i = 0; i < 4; i++) if (a[i] != 2 * i + 3) { errors++; printf("FAIL ack(2,%d) = %d\n", i, a[i]); }
  if (errors == 0) printf("recursive routines ok\n");
  return errors != 0;
}

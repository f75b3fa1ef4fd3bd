// routine bind(identifier) and bind("string"), and the named form routine(name).
// The bound device versions compute the same values differently, so results do not depend
// on whether the host or the device version runs.
#include <stdio.h>

#pragma acc routine seq
int tri_loop(int n) { int s = 0; for (int i = 1; i <= n; i++) s += i; return s; }

#pragma acc routine seq
int cube_loop(int n) { int s = 0; for (int i = 0; i < n; i++) s += n * n; return s; }

#pragma acc routine seq bind(tri_loop)
int tri(int n) { return n * (n + 1) / 2; }

#pragma acc routine seq bind("cube_loop")
int cube(int n) { return n * n * n; }

int twice(int n);
#pragma acc routine(twice) seq

int main(void) {
  int t[50], c[50], w[50];
  #pragma acc parallel loop copyout(t, c, w)
  for (int i = 0; i < 50; i++) { t[i] = tri(i); c[i] = cube(i); w[i] = twice(i); }
  int errors = 0;
  for (int i = 0; i < 50; i++) {
    if (t[i] != i * (i + 1) / 2) { errors++; printf("FAIL tri(%d) = %d\n", i, t[i]); }
    if (c[i] != i * i * i) { errors++; printf("FAIL cube(%d) = %d\n", i, c[i]); }
    if (w[i] != 2 * i) { errors++; printf("FAIL twice(%d) = %d\n", i, w[i]); }
  }
  if (tri_loop(10) != tri(10) || cube_loop(7) != cube(7)) { errors++; printf("FAIL host versions\n"); }
  if (errors == 0) printf("routine bind ok\n");
  return errors != 0;
}

int twice(int n) { return n + n; }

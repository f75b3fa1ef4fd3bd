// every reduction operator defined on float and double (+ * max min && ||), with exactly representable partial results.
// gcc 12 -fopenacc accepts and passes this program (gcc_check.py).
#include <stdio.h>
#include <stdlib.h>

#define PRAGMA(x) _Pragma(#x)
/* One reduction of `s` (type T, starting at INIT) with operator OP over n
   iterations, UPDATE written in terms of s and x = XEXPR, checked against the
   same loop run sequentially. */
#define CHECK(T, OP, INIT, XEXPR, UPDATE, NAME) do { \
    T s = (INIT); \
    PRAGMA(acc parallel loop copyin(v[0:n]) reduction(OP:s)) \
    for (int i = 0; i < n; i++) { T x = (T)(XEXPR); UPDATE; } \
    T w = (INIT); \
    { T s = w; for (int i = 0; i < n; i++) { T x = (T)(XEXPR); UPDATE; } w = s; } \
    if (s != w) { errors++; printf("FAIL %s %s: %lld %lld\n", NAME, #OP, (long long)s, (long long)w); } \
  } while (0)

int main(void) {
  const int n = 5000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand();
  int errors = 0;

  CHECK(float, +, 0.5, (v[i] % 401 - 200) * 0.25, s += x, "float");
  CHECK(float, *, 3.0, (i % 500 == 7) ? 2.0 : ((i % 500 == 9) ? 0.5 : ((v[i] % 5 == 0) ? -1.0 : 1.0)), s *= x, "float");
  CHECK(float, max, -1e30, (v[i] % 100003) * 0.125 - 6000.0, s = x > s ? x : s, "float");
  CHECK(float, min, 1e30, (v[i] % 100003) * 0.125 - 6000.0, s = x < s ? x : s, "float");
  CHECK(float, max, -1e30, -1e31, s = x > s ? x : s, "float");
  CHECK(float, &&, 1.0, (v[i] % 4999) * 0.5, s = s && x, "float");
  CHECK(float, ||, 0.0, (v[i] % 4999 == 3) * 0.5, s = s || x, "float");
  CHECK(double, +, 0.5, (v[i] % 401 - 200) * 0.25, s += x, "double");
  CHECK(double, *, 3.0, (i % 500 == 7) ? 2.0 : ((i % 500 == 9) ? 0.5 : ((v[i] % 5 == 0) ? -1.0 : 1.0)), s *= x, "double");
  CHECK(double, max, -1e30, (v[i] % 100003) * 0.125 - 6000.0, s = x > s ? x : s, "double");
  CHECK(double, min, 1e30, (v[i] % 100003) * 0.125 - 6000.0, s = x < s ? x : s, "double");
  CHECK(double, max, -1e30, -1e31, s = x > s ? x : s, "double");
  CHECK(double, &&, 1.0, (v[i] % 4999) * 0.5, s = s && x, "double");
  CHECK(double, ||, 0.0, (v[i] % 4999 == 3) * 0.5, s = s || x, "double");
  free(v);
  if (errors == 0) printf("ok\n");
  return errors != 0;
}

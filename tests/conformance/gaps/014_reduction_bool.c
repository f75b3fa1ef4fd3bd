// every reduction operator on _Bool (+ * max min & | ^ && ||): results stay 0 or 1.
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

  CHECK(_Bool, +, 0, v[i] % 4999 == 11, s += x, "_Bool");
  CHECK(_Bool, +, 0, 0, s += x, "_Bool zero");
  CHECK(_Bool, *, 1, v[i] % 4999 != 11, s = (s * x) != 0, "_Bool");
  CHECK(_Bool, max, 0, v[i] % 4999 == 11, s = x > s ? x : s, "_Bool");
  CHECK(_Bool, min, 1, v[i] % 4999 != 11, s = x < s ? x : s, "_Bool");
  CHECK(_Bool, &, 1, v[i] % 4999 != 11, s &= x, "_Bool");
  CHECK(_Bool, &, 1, 1, s &= x, "_Bool all");
  CHECK(_Bool, |, 0, v[i] % 4999 == 11, s |= x, "_Bool");
  CHECK(_Bool, ^, 0, v[i] % 2, s ^= x, "_Bool");
  CHECK(_Bool, ^, 1, v[i] % 1000 == 0, s ^= x, "_Bool");
  CHECK(_Bool, &&, 1, v[i] % 4999 != 11, s = s && x, "_Bool");
  CHECK(_Bool, ||, 0, v[i] % 4999 == 11, s = s || x, "_Bool");
  free(v);
  if (errors == 0) printf("ok\n");
  return errors != 0;
}

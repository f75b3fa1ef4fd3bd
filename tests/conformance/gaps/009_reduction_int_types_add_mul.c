// reduction(+) and reduction(*) on every integer type (char to long long, signed and unsigned), wrapping where the type wraps.
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

  CHECK(signed char, +, 7, v[i] % 201 - 100, s += x, "signed char");
  CHECK(signed char, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "signed char");
  CHECK(unsigned char, +, 7, v[i] % 201 - 100, s += x, "unsigned char");
  CHECK(unsigned char, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "unsigned char");
  CHECK(short, +, 7, v[i] % 201 - 100, s += x, "short");
  CHECK(short, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "short");
  CHECK(unsigned short, +, 7, v[i] % 201 - 100, s += x, "unsigned short");
  CHECK(unsigned short, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "unsigned short");
  CHECK(int, +, 7, v[i] % 201 - 100, s += x, "int");
  CHECK(int, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "int");
  CHECK(unsigned, +, 7, v[i] % 201 - 100, s += x, "unsigned");
  CHECK(unsigned, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "unsigned");
  CHECK(long, +, 7, v[i] % 201 - 100, s += x, "long");
  CHECK(long, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "long");
  CHECK(unsigned long, +, 7, v[i] % 201 - 100, s += x, "unsigned long");
  CHECK(unsigned long, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "unsigned long");
  CHECK(long long, +, 7, v[i] % 201 - 100, s += x, "long long");
  CHECK(long long, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "long long");
  CHECK(unsigned long long, +, 7, v[i] % 201 - 100, s += x, "unsigned long long");
  CHECK(unsigned long long, *, 1, (i % 613 == 0) ? 3 : ((v[i] % 9 == 0) ? -1 : 1), s *= x, "unsigned long long");
  free(v);
  if (errors == 0) printf("ok\n");
  return errors != 0;
}

// reduction(max) and reduction(min) on every integer type, with negative inputs (huge values after conversion for unsigned types).
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

  CHECK(signed char, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "signed char");
  CHECK(signed char, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "signed char");
  CHECK(unsigned char, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "unsigned char");
  CHECK(unsigned char, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "unsigned char");
  CHECK(short, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "short");
  CHECK(short, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "short");
  CHECK(unsigned short, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "unsigned short");
  CHECK(unsigned short, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "unsigned short");
  CHECK(int, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "int");
  CHECK(int, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "int");
  CHECK(unsigned, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "unsigned");
  CHECK(unsigned, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "unsigned");
  CHECK(long, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "long");
  CHECK(long, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "long");
  CHECK(unsigned long, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "unsigned long");
  CHECK(unsigned long, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "unsigned long");
  CHECK(long long, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "long long");
  CHECK(long long, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "long long");
  CHECK(unsigned long long, max, 0, v[i] % 2001 - 1000, s = x > s ? x : s, "unsigned long long");
  CHECK(unsigned long long, min, 5, v[i] % 2001 - 1000, s = x < s ? x : s, "unsigned long long");
  free(v);
  if (errors == 0) printf("ok\n");
  return errors != 0;
}

// reduction(&&) and reduction(||) on integer and floating types: results are 0 or 1, also when no iteration changes them.
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

  CHECK(signed char, &&, 1, v[i] % 4999 != 17, s = s && x, "signed char");
  CHECK(signed char, &&, 1, v[i] % 3 + 1, s = s && x, "signed char");
  CHECK(signed char, ||, 0, v[i] % 4999 == 17, s = s || x, "signed char");
  CHECK(signed char, ||, 0, 0, s = s || x, "signed char");
  CHECK(unsigned char, &&, 1, v[i] % 4999 != 17, s = s && x, "unsigned char");
  CHECK(unsigned char, &&, 1, v[i] % 3 + 1, s = s && x, "unsigned char");
  CHECK(unsigned char, ||, 0, v[i] % 4999 == 17, s = s || x, "unsigned char");
  CHECK(unsigned char, ||, 0, 0, s = s || x, "unsigned char");
  CHECK(short, &&, 1, v[i] % 4999 != 17, s = s && x, "short");
  CHECK(short, &&, 1, v[i] % 3 + 1, s = s && x, "short");
  CHECK(short, ||, 0, v[i] % 4999 == 17, s = s || x, "short");
  CHECK(short, ||, 0, 0, s = s || x, "short");
  CHECK(int, &&, 1, v[i] % 4999 != 17, s = s && x, "int");
  CHECK(int, &&, 1, v[i] % 3 + 1, s = s && x, "int");
  CHECK(int, ||, 0, v[i] % 4999 == 17, s = s || x, "int");
  CHECK(int, ||, 0, 0, s = s || x, "int");
  CHECK(unsigned, &&, 1, v[i] % 4999 != 17, s = s && x, "unsigned");
  CHECK(unsigned, &&, 1, v[i] % 3 + 1, s = s && x, "unsigned");
  CHECK(unsigned, ||, 0, v[i] % 4999 == 17, s = s || x, "unsigned");
  CHECK(unsigned, ||, 0, 0, s = s || x, "unsigned");
  CHECK(long, &&, 1, v[i] % 4999 != 17, s = s && x, "long");
  CHECK(long, &&, 1, v[i] % 3 + 1, s = s && x, "long");
  CHECK(long, ||, 0, v[i] % 4999 == 17, s = s || x, "long");
  CHECK(long, ||, 0, 0, s = s || x, "long");
  CHECK(unsigned long long, &&, 1, v[i] % 4999 != 17, s = s && x, "unsigned long long");
  CHECK(unsigned long long, &&, 1, v[i] % 3 + 1, s = s && x, "unsigned long long");
  CHECK(unsigned long long, ||, 0, v[i] % 4999 == 17, s = s || x, "unsigned long long");
  CHECK(unsigned long long, ||, 0, 0, s = s || x, "unsigned long long");
  CHECK(float, &&, 1, v[i] % 4999 != 17, s = s && x, "float");
  CHECK(float, &&, 1, v[i] % 3 + 1, s = s && x, "float");
  CHECK(float, ||, 0, v[i] % 4999 == 17, s = s || x, "float");
  CHECK(float, ||, 0, 0, s = s || x, "float");
  CHECK(double, &&, 1, v[i] % 4999 != 17, s = s && x, "double");
  CHECK(double, &&, 1, v[i] % 3 + 1, s = s && x, "double");
  CHECK(double, ||, 0, v[i] % 4999 == 17, s = s || x, "double");
  CHECK(double, ||, 0, 0, s = s || x, "double");
  free(v);
  if (errors == 0) printf("ok\n");
  return errors != 0;
}

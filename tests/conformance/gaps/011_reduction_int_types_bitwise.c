// reduction(&), reduction(|) and reduction(^) on every integer type.
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

  CHECK(signed char, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(signed char)))) | (i % 3 ? -1LL : 0), s &= x, "signed char");
  CHECK(signed char, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(signed char) - 1))) : 0, s |= x, "signed char");
  CHECK(signed char, ^, 0x35, v[i], s ^= x, "signed char");
  CHECK(unsigned char, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(unsigned char)))) | (i % 3 ? -1LL : 0), s &= x, "unsigned char");
  CHECK(unsigned char, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(unsigned char) - 1))) : 0, s |= x, "unsigned char");
  CHECK(unsigned char, ^, 0x35, v[i], s ^= x, "unsigned char");
  CHECK(short, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(short)))) | (i % 3 ? -1LL : 0), s &= x, "short");
  CHECK(short, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(short) - 1))) : 0, s |= x, "short");
  CHECK(short, ^, 0x35, v[i], s ^= x, "short");
  CHECK(unsigned short, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(unsigned short)))) | (i % 3 ? -1LL : 0), s &= x, "unsigned short");
  CHECK(unsigned short, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(unsigned short) - 1))) : 0, s |= x, "unsigned short");
  CHECK(unsigned short, ^, 0x35, v[i], s ^= x, "unsigned short");
  CHECK(int, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(int)))) | (i % 3 ? -1LL : 0), s &= x, "int");
  CHECK(int, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(int) - 1))) : 0, s |= x, "int");
  CHECK(int, ^, 0x35, v[i], s ^= x, "int");
  CHECK(unsigned, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(unsigned)))) | (i % 3 ? -1LL : 0), s &= x, "unsigned");
  CHECK(unsigned, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(unsigned) - 1))) : 0, s |= x, "unsigned");
  CHECK(unsigned, ^, 0x35, v[i], s ^= x, "unsigned");
  CHECK(long, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(long)))) | (i % 3 ? -1LL : 0), s &= x, "long");
  CHECK(long, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(long) - 1))) : 0, s |= x, "long");
  CHECK(long, ^, 0x35, v[i], s ^= x, "long");
  CHECK(unsigned long, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(unsigned long)))) | (i % 3 ? -1LL : 0), s &= x, "unsigned long");
  CHECK(unsigned long, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(unsigned long) - 1))) : 0, s |= x, "unsigned long");
  CHECK(unsigned long, ^, 0x35, v[i], s ^= x, "unsigned long");
  CHECK(long long, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(long long)))) | (i % 3 ? -1LL : 0), s &= x, "long long");
  CHECK(long long, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(long long) - 1))) : 0, s |= x, "long long");
  CHECK(long long, ^, 0x35, v[i], s ^= x, "long long");
  CHECK(unsigned long long, &, -1, ~(1LL << (v[i] % (8 * (int)sizeof(unsigned long long)))) | (i % 3 ? -1LL : 0), s &= x, "unsigned long long");
  CHECK(unsigned long long, |, 0, (v[i] % 7 == 0) ? (1LL << (v[i] % (8 * (int)sizeof(unsigned long long) - 1))) : 0, s |= x, "unsigned long long");
  CHECK(unsigned long long, ^, 0x35, v[i], s ^= x, "unsigned long long");
  free(v);
  if (errors == 0) printf("ok\n");
  return errors != 0;
}

// Shifts, division and remainder (C99 truncates toward zero).
#include <stdio.h>
#include <stdlib.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

static int gcd(int a, int b) { while (b) { int t = a % b; a = b; b = t; } return a < 0 ? -a : a; }

int main(void) {
  CHECK(7 / 2 == 3 && -7 / 2 == -3 && 7 / -2 == -3);
  CHECK(7 % 3 == 1 && -7 % 3 == -1 && 7 % -3 == 1 && -7 % -3 == -1);
  for (int a = -20; a <= 20; a++)
    for (int b = -7; b <= 7; b++)
      if (b != 0) CHECK((a / b) * b + a % b == a);
  CHECK(1 << 10 == 1024);
  CHECK(1u << 31 == 2147483648u);
  CHECK(1L << 40 == 1099511627776L);
  CHECK(-16 >> 2 == -4);           /* arithmetic shift for negative (gcc, clang, us) */
  CHECK(0x80000000u >> 31 == 1u);
  CHECK((0xF0 >> 4 | 0x0F << 4) == 0xFF);
  unsigned long long v = 0xFFFFFFFFFFFFFFFFULL;
  CHECK(v >> 63 == 1 && (v << 60) == 0xF000000000000000ULL);
  int n = 37; long popcount = 0;
  for (unsigned x = (unsigned)n; x; x >>= 1) popcount += x & 1;
  CHECK(popcount == 3);
  CHECK(gcd(1071, 462) == 21 && gcd(-48, 18) == 6);
  long lm = 1000000007L;
  long p = 1, base = 3;
  for (int e = 100; e > 0; e >>= 1) {   /* 3^100 mod 1e9+7 by squaring */
    if (e & 1) p = p * base % lm;
    base = base * base % lm;
  }
  long slow = 1;
  for (int i = 0; i < 100; i++) slow = slow * 3 % lm;
  CHECK(p == slow);
  div_t dv = div(-17, 5);
  CHECK(dv.quot == -3 && dv.rem == -2);
  CHECK((5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6 && (~5 & 0xF) == 10);
  if (errors == 0) printf("shifts and %% ok\n");
  return errors != 0;
}

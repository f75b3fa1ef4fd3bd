// Integer types: sizes, ranges and conversions between them (LP64).
#include <stdio.h>
#include <limits.h>
#include <stdint.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

int main(void) {
  CHECK(sizeof(char) == 1);
  CHECK(sizeof(short) == 2);
  CHECK(sizeof(int) == 4);
  CHECK(sizeof(long) == 8);
  CHECK(sizeof(long long) == 8);
  CHECK(sizeof(void *) == 8);
  CHECK(SCHAR_MIN == -128 && SCHAR_MAX == 127 && UCHAR_MAX == 255);
  CHECK(SHRT_MAX == 32767 && USHRT_MAX == 65535);
  CHECK(INT_MAX == 2147483647 && INT_MIN == -INT_MAX - 1);
  CHECK(LONG_MAX == 9223372036854775807L);
  CHECK(ULLONG_MAX == 18446744073709551615ULL);

  long big = 0x123456789AL;
  int truncated = (int)big;               /* keeps the low 32 bits */
  CHECK(truncated == 0x3456789A);
  short s = (short)70000;                 /* 70000 - 65536 */
  CHECK(s == 4464);
  signed char sc = (signed char)200;
  CHECK(sc == -56);
  unsigned char uc = (unsigned char)-1;
  CHECK(uc == 255);
  int neg = -5;
  long widened = neg;                     /* sign extension */
  CHECK(widened == -5L);
  unsigned int u = (unsigned int)neg;
  CHECK(u == 4294967291u);
  unsigned long ul = u;                   /* zero extension */
  CHECK(ul == 4294967291ul);
  long long ll = (long long)-1 * 3000000000LL;
  CHECK(ll == -3000000000LL);
  int8_t i8 = INT8_MIN; uint16_t u16 = UINT16_MAX; int64_t i64 = INT64_MIN;
  CHECK(i8 == -128 && u16 == 65535 && i64 < -9000000000000000000LL);
  CHECK((int)3.99 == 3 && (int)-3.99 == -3);
  CHECK((unsigned)(double)4000000000.0 == 4000000000u);
  CHECK((double)(long)1e15 == 1e15);
  int sum = 0;
  for (short k = -3; k <= 3; k++) sum += k * k;
  CHECK(sum == 28);
  if (errors == 0) printf("int types ok\n");
  return errors != 0;
}

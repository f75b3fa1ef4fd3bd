// Comma operator, ternary (incl. nested and as lvalue-free value), compound assignment.
#include <stdio.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

static int calls = 0;
static int bump(int x) { calls++; return x; }

int main(void) {
  int a = (bump(1), bump(2), bump(3));
  CHECK(a == 3 && calls == 3);
  int i, j;
  for (i = 0, j = 10; i < j; i++, j--) ;
  CHECK(i == 5 && j == 5);
  for (int k = -3; k <= 3; k++) {
    int sign = k > 0 ? 1 : k < 0 ? -1 : 0;
    CHECK(sign * k >= 0 && (k == 0 ? sign == 0 : sign != 0));
  }
  calls = 0;
  int t = 1 ? bump(5) : bump(6);        /* only one arm evaluated */
  CHECK(t == 5 && calls == 1);
  double d = 0 ? 1 : 2.5;               /* usual arithmetic conversions */
  CHECK(d == 2.5);
  int x = 100;
  x += 5; CHECK(x == 105);
  x -= 10; CHECK(x == 95);
  x *= 3; CHECK(x == 285);
  x /= 4; CHECK(x == 71);
  x %= 10; CHECK(x == 1);
  x <<= 5; CHECK(x == 32);
  x >>= 2; CHECK(x == 8);
  x |= 3; CHECK(x == 11);
  x &= 6; CHECK(x == 2);
  x ^= 7; CHECK(x == 5);
  double y = 1.5; y *= 4; y -= 0.5; y /= 2;
  CHECK(y == 2.75);
  int arr[4] = {1, 2, 3, 4}, *p = arr;
  *p++ += 10;
  *p += *(p + 1) * 2;
  CHECK(arr[0] == 11 && arr[1] == 8 && p == arr + 1);
  int m = 3, n = (m += 2, m * 2);
  CHECK(m == 5 && n == 10);
  if (errors == 0) printf("comma/ternary/compound ok\n");
  return errors != 0;
}

// Casts between scalar and pointer types; sizeof on types, expressions, arrays.
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

struct rec { char c; double d; int i; };

static size_t count_of(size_t bytes, size_t elem) { return bytes / elem; }

int main(void) {
  double m[3][7];
  int v[13];
  CHECK(sizeof m == 3 * 7 * sizeof(double));
  CHECK(sizeof m[0] == 7 * sizeof(double));
  CHECK(sizeof v / sizeof v[0] == 13);
  CHECK(count_of(sizeof m, sizeof m[0][0]) == 21);
  CHECK(sizeof(struct rec) == 24 && offsetof(struct rec, d) == 8 && offsetof(struct rec, i) == 16);
  int k = 0;
  size_t s = sizeof(k++);               /* operand not evaluated */
  CHECK(s == 4 && k == 0);
  CHECK(sizeof(1 + 1.0f) == sizeof(float) && sizeof(1 + 1.0) == sizeof(double));
  CHECK(sizeof('a') == sizeof(int));
  CHECK(sizeof(short) + sizeof(char) == 3);
  double x = 3.75;
  CHECK((int)x == 3 && (long)-x == -3 && (unsigned char)(int)(x * 100) == 119);
  int arr[4] = {0x01020304, 0, 0, 0};
  unsigned char *bytes = (unsigned char *)arr;
  CHECK(bytes[0] == 4 && bytes[3] == 1);          /* little-endian */
  uintptr_t addr = (uintptr_t)&arr[2];
  CHECK((int *)addr == &arr[2] && addr - (uintptr_t)arr == 8);
  void *vp = arr;
  int *ip = (int *)vp;
  CHECK(ip[0] == 0x01020304);
  float f = (float)1 / 3;
  CHECK(f > 0.33f && f < 0.34f);
  long l = (long)(short)-2;
  CHECK(l == -2);
  CHECK((double)(float)0.1 != 0.1);
  CHECK(sizeof(int[5][2]) == 40 && sizeof(char *[3]) == 24);
  if (errors == 0) printf("casts and sizeof ok\n");
  return errors != 0;
}

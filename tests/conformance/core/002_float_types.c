// float, double and long double: precision, conversions, mixed arithmetic.
#include <stdio.h>
#include <float.h>
#include <math.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

static double mean(const float *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += x[i];
  return s / n;
}

int main(void) {
  CHECK(sizeof(float) == 4 && sizeof(double) == 8);
  CHECK(sizeof(long double) >= sizeof(double));
  CHECK(FLT_DIG >= 6 && DBL_DIG >= 15);
  float f = 1.0f / 3.0f;
  double d = 1.0 / 3.0;
  CHECK(fabs((double)f - d) < 1e-7 && (double)f != d);
  CHECK((float)d == f);
  float big = 16777216.0f;                 /* 2^24: next float is 2^24+2 */
  CHECK(big + 1.0f == big);
  double bd = 16777216.0;
  CHECK(bd + 1.0 != bd);
  int i = 7; long l = -3; unsigned u = 2;
  double mixed = i / 2 + l * 0.5 + u / 4.0;
  CHECK(fabs(mixed - (3 - 1.5 + 0.5)) < 1e-12);
  float arr[5] = {1.5f, 2.25f, -0.75f, 8.0f, 3.0f};
  CHECK(fabs(mean(arr, 5) - 2.8) < 1e-9);
  long double ld = 1.0L / 3.0L;
  CHECK(fabs((double)(ld * 3.0L) - 1.0) < 1e-15);
  double x = 0.1 + 0.2;
  CHECK(x != 0.3 && fabs(x - 0.3) < 1e-15);
  CHECK((float)1e39 > FLT_MAX || isinf((float)1e39));
  CHECK(DBL_EPSILON > 0 && 1.0 + DBL_EPSILON != 1.0 && 1.0 + DBL_EPSILON / 2 == 1.0);
  double neg0 = -0.0;
  CHECK(neg0 == 0.0 && 1.0 / neg0 < 0);
  int back = (int)(f * 3.0f + 0.5f);
  CHECK(back == 1);
  unsigned long long ull = (unsigned long long)1.8e19;
  CHECK(ull > 17000000000000000000ULL);
  if (errors == 0) printf("float types ok\n");
  return errors != 0;
}

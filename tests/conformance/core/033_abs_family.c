// abs, labs, llabs, plus fabs on doubles; used in a small numeric routine.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <limits.h>

static long manhattan(const long *a, const long *b, int n) {
  long d = 0;
  for (int i = 0; i < n; i++) d += labs(a[i] - b[i]);
  return d;
}

int main(void) {
  int errors = 0;
  if (abs(-7) != 7 || abs(7) != 7 || abs(0) != 0 || abs(-INT_MAX) != INT_MAX) { errors++; printf("FAIL abs\n"); }
  if (labs(-3000000000L) != 3000000000L) { errors++; printf("FAIL labs\n"); }
  if (llabs(-9000000000000000000LL) != 9000000000000000000LL) { errors++; printf("FAIL llabs\n"); }
  long a[4] = {1, -5, 10, 3}, b[4] = {-2, 5, 10, -1};
  if (manhattan(a, b, 4) != 3 + 10 + 0 + 4) { errors++; printf("FAIL manhattan\n"); }
  srand(11);
  long total = 0, check = 0;
  for (int i = 0; i < 1000; i++) {
    int v = rand() % 2001 - 1000;
    total += abs(v);
    check += v < 0 ? -v : v;
  }
  if (total != check) { errors++; printf("FAIL random abs\n"); }
  if (fabs(-2.5) != 2.5 || fabsf(-1.25f) != 1.25f) { errors++; printf("FAIL fabs\n"); }
  ldiv_t q = ldiv(-100L, 7L);
  if (q.quot != -14 || q.rem != -2) { errors++; printf("FAIL ldiv\n"); }
  if (errors == 0) printf("abs family ok\n");
  return errors != 0;
}

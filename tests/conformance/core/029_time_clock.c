// time(NULL), time(&t), clock(), difftime and CLOCKS_PER_SEC.
#include <stdio.h>
#include <time.h>

int main(void) {
  int errors = 0;
  time_t t0 = time(NULL), t1;
  time(&t1);
  if (t0 < 1600000000 || t1 < t0 || difftime(t1, t0) > 60.0) { errors++; printf("FAIL time %ld %ld\n", (long)t0, (long)t1); }
  clock_t c0 = clock();
  volatile double x = 0;
  for (int i = 0; i < 200000; i++) x += i * 0.5;
  clock_t c1 = clock();
  if (c0 == (clock_t)-1 || c1 < c0) { errors++; printf("FAIL clock\n"); }
  double secs = (double)(c1 - c0) / CLOCKS_PER_SEC;
  if (secs < 0 || secs > 5) { errors++; printf("FAIL elapsed %g\n", secs); }
  if (CLOCKS_PER_SEC <= 0) { errors++; printf("FAIL CLOCKS_PER_SEC\n"); }
  if (x != 0.5 * 199999.0 * 200000.0 / 2) { errors++; printf("FAIL work\n"); }
  if (errors == 0) printf("time and clock ok\n");
  return errors != 0;
}

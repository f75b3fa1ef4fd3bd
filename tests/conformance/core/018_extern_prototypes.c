// extern declarations before definitions, prototypes, forward references, mutual recursion.
#include <stdio.h>

extern int limit;
extern double table[];
int is_even(unsigned n);
int is_odd(unsigned n);
static long triangle(int n);
double average(const double *v, int n);

int main(void) {
  int errors = 0;
  if (limit != 10) { errors++; printf("FAIL limit\n"); }
  if (average(table, limit) != 4.5) { errors++; printf("FAIL average %g\n", average(table, limit)); }
  if (!is_even(10) || is_even(7) || !is_odd(7) || is_odd(0)) { errors++; printf("FAIL parity\n"); }
  if (triangle(100) != 5050) { errors++; printf("FAIL triangle\n"); }
  int (*fp)(unsigned) = is_odd;
  if (!fp(99)) { errors++; printf("FAIL pointer to prototype\n"); }
  if (errors == 0) printf("extern and prototypes ok\n");
  return errors != 0;
}

int limit = 10;
double table[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static long triangle(int n) { return n <= 0 ? 0 : n + triangle(n - 1); }

double average(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return s / n;
}

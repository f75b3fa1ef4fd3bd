// kernels regions holding only scalar code and small fixed loops (run as a single kernel).
#include <stdio.h>
#include <math.h>

int main(void) {
  double x = 2.0, root = 0.0;
  int iters = 0;
  #pragma acc kernels copy(x, root, iters)
  {
    double r = x;
    while (fabs(r * r - x) > 1e-14) { r = 0.5 * (r + x / r); iters++; }
    root = r;
  }
  int errors = 0;
  if (fabs(root - sqrt(2.0)) > 1e-14 || iters < 1 || iters > 10) { errors++; printf("FAIL newton sqrt %g in %d\n", root, iters); }
  int fact[13];
  #pragma acc kernels copyout(fact)
  {
    fact[0] = 1;
    for (int i = 1; i < 13; i++) fact[i] = fact[i - 1] * i;
  }
  if (fact[12] != 479001600) { errors++; printf("FAIL factorial %d\n", fact[12]); }
  struct { int a; double b; } s = {3, 1.5};
  #pragma acc kernels copy(s)
  {
    s.a *= 7;
    s.b = s.a + s.b;
  }
  if (s.a != 21 || s.b != 22.5) { errors++; printf("FAIL struct in kernels %d %g\n", s.a, s.b); }
  if (errors == 0) printf("scalar kernels ok\n");
  return errors != 0;
}

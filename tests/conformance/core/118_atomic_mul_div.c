// atomic update with *=, /=, x = x * e, x = e * x, x -= e and x = x / e (order-independent data).
#include <stdio.h>

int main(void) {
  const int n = 1000;
  double prod = 1.0, quot = 1099511627776.0;   /* 2^40 */
  long lp = 1, lq = 1L << 50;
  int sub = 100000, mul2 = 1;
  #pragma acc parallel loop copy(prod, quot, lp, lq, sub, mul2)
  for (int i = 0; i < n; i++) {
    if (i % 100 == 0) {
      #pragma acc atomic update
      prod *= 2.0;
      #pragma acc atomic update
      quot /= 4.0;
      #pragma acc atomic update
      lp = lp * 3;
      #pragma acc atomic update
      lq = lq / 2;
    }
    if (i % 250 == 0) {
      #pragma acc atomic update
      mul2 = 2 * mul2;
    }
    #pragma acc atomic update
    sub -= i % 10;
  }
  int errors = 0;
  if (prod != 1024.0 || quot != 1048576.0) { errors++; printf("FAIL double %g %g\n", prod, quot); }
  if (lp != 59049 || lq != 1L << 40) { errors++; printf("FAIL long %ld %ld\n", lp, lq); }
  if (mul2 != 16) { errors++; printf("FAIL e * x form %d\n", mul2); }
  if (sub != 100000 - 4500) { errors++; printf("FAIL -= %d\n", sub); }
  if (errors == 0) printf("atomic * / ok\n");
  return errors != 0;
}

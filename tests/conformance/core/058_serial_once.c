// serial construct: the region runs exactly once (one gang, one worker, vector length 1).
#include <stdio.h>

int main(void) {
  int counter = 0;
  int fib[40];
  #pragma acc serial copy(counter) copyout(fib)
  {
    counter++;
    fib[0] = 0; fib[1] = 1;
    for (int i = 2; i < 40; i++) fib[i] = fib[i - 1] + fib[i - 2];   /* carried dependence is fine */
  }
  int errors = 0;
  if (counter != 1) { errors++; printf("FAIL serial ran %d times\n", counter); }
  if (fib[39] != 63245986) { errors++; printf("FAIL fib[39] = %d\n", fib[39]); }
  int hits = 0;
  #pragma acc serial copy(hits)
  {
    #pragma acc atomic update
    hits += 1;
  }
  if (hits != 1) { errors++; printf("FAIL serial atomic %d\n", hits); }
  long sum = 0;
  #pragma acc serial loop reduction(+:sum)
  for (int i = 1; i <= 1000; i++) sum += i;
  if (sum != 500500) { errors++; printf("FAIL serial loop sum %ld\n", sum); }
  if (errors == 0) printf("serial ok\n");
  return errors != 0;
}

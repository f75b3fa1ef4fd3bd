// The same variable reduced by consecutive loops and regions; reduction with an initial value.
#include <stdio.h>

int main(void) {
  const int n = 1000;
  long acc = 100;
  for (int rep = 0; rep < 4; rep++) {
    #pragma acc parallel loop reduction(+:acc)
    for (int i = 0; i < n; i++) acc += rep + 1;
  }
  int errors = 0;
  if (acc != 100 + n * (1 + 2 + 3 + 4)) { errors++; printf("FAIL repeated reduction %ld\n", acc); }
  int m = 5;
  #pragma acc parallel loop reduction(max:m)
  for (int i = 0; i < n; i++) if (i % 3 > m) m = i % 3;
  if (m != 5) { errors++; printf("FAIL max keeps larger initial value %d\n", m); }
  #pragma acc parallel loop reduction(max:m)
  for (int i = 0; i < n; i++) if (i > m) m = i;
  if (m != n - 1) { errors++; printf("FAIL max %d\n", m); }
  double x = 2.0;
  #pragma acc parallel loop reduction(*:x)
  for (int i = 0; i < 10; i++) x *= 2.0;
  #pragma acc parallel loop reduction(*:x)
  for (int i = 0; i < 10; i++) x *= 0.5;
  if (x != 2.0) { errors++; printf("FAIL product chain %g\n", x); }
  int flags = 0x100;
  #pragma acc parallel loop reduction(|:flags)
  for (int i = 0; i < 8; i++) flags |= 1 << i;
  if (flags != 0x1FF) { errors++; printf("FAIL | with initial %x\n", flags); }
  if (errors == 0) printf("reduction reuse ok\n");
  return errors != 0;
}

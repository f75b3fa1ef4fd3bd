// serial: one gang, one worker, one lane; a seq loop inside runs in order.
#include <stdio.h>

int main(void) {
  int count = 0, order_ok = 1, last = -1;
  int trace[32];
  #pragma acc serial copy(count, order_ok, last) copyout(trace)
  {
    #pragma acc atomic
    count++;
    #pragma acc loop seq
    for (int i = 0; i < 32; i++) {
      if (i != last + 1) order_ok = 0;     /* seq: iterations run in order */
      last = i;
      trace[i] = i * i;
    }
  }
  int errors = 0;
  if (count != 1) { errors++; printf("FAIL serial region ran %d times\n", count); }
  if (!order_ok || last != 31) { errors++; printf("FAIL serial loop order\n"); }
  for (int i = 0; i < 32; i++) if (trace[i] != i * i) { errors++; printf("FAIL trace\n"); break; }
  double x = 1.0;
  #pragma acc serial copy(x)
  {
    for (int k = 0; k < 20; k++) x = x * 0.5 + 1.0;   /* converges to 2 */
  }
  double w = 1.0;
  for (int k = 0; k < 20; k++) w = w * 0.5 + 1.0;
  if (x != w) { errors++; printf("FAIL serial recurrence %g %g\n", x, w); }
  int calls = 0;
  for (int rep = 0; rep < 5; rep++) {
    #pragma acc serial copy(calls)
    calls += 1;
  }
  if (calls != 5) { errors++; printf("FAIL repeated serial %d\n", calls); }
  if (errors == 0) printf("serial semantics ok\n");
  return errors != 0;
}

// gang(static:n) and gang(static:*): chunked round-robin schedules; same mapping for equal loops.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1000;
  double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) x[i] = (i % 17) * 0.25;
  #pragma acc parallel num_gangs(5) copyin(x[0:n]) copyout(y[0:n])
  {
    #pragma acc loop gang(static:7)
    for (int i = 0; i < n; i++) y[i] = x[i] + 1.0;
    /* same trip count and static argument: same gang owns y[i], so no race */
    #pragma acc loop gang(static:7)
    for (int i = 0; i < n; i++) y[i] = y[i] * 2.0;
  }
  int errors = 0;
  for (int i = 0; i < n; i++) if (y[i] != ((i % 17) * 0.25 + 1.0) * 2.0) { errors++; printf("FAIL y[%d]\n", i); break; }
  int owner_ok = 1;
  #pragma acc parallel num_gangs(3) copy(y[0:n])
  {
    #pragma acc loop gang(static:*)
    for (int i = 0; i < n; i++) y[i] -= 1.0;
    #pragma acc loop gang(static:*)
    for (int i = 0; i < n; i++) y[i] *= 0.5;
  }
  for (int i = 0; i < n; i++)
    if (y[i] != (((i % 17) * 0.25 + 1.0) * 2.0 - 1.0) * 0.5) { owner_ok = 0; break; }
  if (!owner_ok) { errors++; printf("FAIL static:* mapping\n"); }
  long s = 0;
  #pragma acc parallel loop gang(static:16) reduction(+:s)
  for (int i = 0; i < n; i++) s += i;
  if (s != 499500) { errors++; printf("FAIL static reduction %ld\n", s); }
  free(x); free(y);
  if (errors == 0) printf("gang(static:) ok\n");
  return errors != 0;
}

// reductions combined with async: the results (scalar and section) are visible after wait, not required before.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 30000, nb = 9;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 777;
  long s = 3;
  long *h = calloc(nb, sizeof(long));
  double mx = -1.0;
  #pragma acc data copyin(v[0:n]) copy(s, h[0:nb], mx)
  {
    #pragma acc parallel loop async(1) reduction(+:s)
    for (int i = 0; i < n; i++) s += v[i];
    #pragma acc parallel loop async(2) reduction(+:h[0:nb])
    for (int i = 0; i < n; i++) h[v[i] % nb] += 1;
    #pragma acc parallel async(3) reduction(max:mx)
    {
      #pragma acc loop gang vector reduction(max:mx)
      for (int i = 0; i < n; i++) if (v[i] * 0.5 > mx) mx = v[i] * 0.5;
    }
    #pragma acc wait
  }
  long ws = 3, wh[9] = { 0 };
  double wmx = -1.0;
  for (int i = 0; i < n; i++) { ws += v[i]; wh[v[i] % nb] += 1; if (v[i] * 0.5 > wmx) wmx = v[i] * 0.5; }
  int errors = 0;
  if (s != ws) { errors++; printf("FAIL async scalar %ld %ld\n", s, ws); }
  for (int b = 0; b < nb; b++) if (h[b] != wh[b]) { errors++; printf("FAIL async section %d %ld %ld\n", b, h[b], wh[b]); }
  if (mx != wmx) { errors++; printf("FAIL async construct %g %g\n", mx, wmx); }
  long t = 0;
  #pragma acc parallel loop async copyin(v[0:n]) reduction(+:t)
  for (int i = 0; i < n; i++) t += v[i] % 5;
  acc_wait_all();
  long wt = 0;
  for (int i = 0; i < n; i++) wt += v[i] % 5;
  if (t != wt) { errors++; printf("FAIL async noval %ld %ld\n", t, wt); }
  free(v); free(h);
  if (errors == 0) printf("async reductions ok\n");
  return errors != 0;
}

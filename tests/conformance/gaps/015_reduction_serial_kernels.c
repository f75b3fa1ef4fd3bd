// reductions on the serial construct and on loops inside kernels: scalars, a section, an array element.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 20000, nb = 13;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 1000;
  int errors = 0;
  long s = 5, ws = 5;
  int mx = -1, wmx = -1;
  #pragma acc serial copyin(v[0:n]) reduction(+:s) reduction(max:mx)
  {
    #pragma acc loop reduction(+:s) reduction(max:mx)
    for (int i = 0; i < n; i++) { s += v[i]; if (v[i] > mx) mx = v[i]; }
  }
  for (int i = 0; i < n; i++) { ws += v[i]; if (v[i] > wmx) wmx = v[i]; }
  if (s != ws || mx != wmx) { errors++; printf("FAIL serial %ld %ld %d %d\n", s, ws, mx, wmx); }
  int *h = calloc(nb, sizeof(int)), *wh = calloc(nb, sizeof(int));
  #pragma acc serial loop copyin(v[0:n]) copy(h[0:nb]) reduction(+:h[0:nb])
  for (int i = 0; i < n; i++) h[v[i] % nb] += 2;
  for (int i = 0; i < n; i++) wh[v[i] % nb] += 2;
  for (int b = 0; b < nb; b++) if (h[b] != wh[b]) { errors++; printf("FAIL serial section %d %d %d\n", b, h[b], wh[b]); }
  double t = 0.0, wt = 0.0;
  long cnt[4] = { 0, 0, 0, 0 };
  for (int b = 0; b < nb; b++) h[b] = 0;
  #pragma acc kernels copyin(v[0:n]) copy(h[0:nb], cnt[0:4])
  {
    #pragma acc loop independent reduction(+:t)
    for (int i = 0; i < n; i++) t += v[i] * 0.5;
    #pragma acc loop independent reduction(+:h[0:nb])
    for (int i = 0; i < n; i++) h[(v[i] / 7) % nb] += v[i] % 3;
    #pragma acc loop reduction(+:cnt[1])
    for (int i = 0; i < n; i++) cnt[1] += (v[i] % 2 == 0);
  }
  for (int b = 0; b < nb; b++) wh[b] = 0;
  long wc = 0;
  for (int i = 0; i < n; i++) { wt += v[i] * 0.5; wh[(v[i] / 7) % nb] += v[i] % 3; wc += (v[i] % 2 == 0); }
  if (t != wt) { errors++; printf("FAIL kernels scalar %g %g\n", t, wt); }
  for (int b = 0; b < nb; b++) if (h[b] != wh[b]) { errors++; printf("FAIL kernels section %d %d %d\n", b, h[b], wh[b]); }
  if (cnt[1] != wc || cnt[0] || cnt[2] || cnt[3]) { errors++; printf("FAIL kernels element %ld %ld\n", cnt[1], wc); }
  free(v); free(h); free(wh);
  if (errors == 0) printf("serial and kernels reductions ok\n");
  return errors != 0;
}

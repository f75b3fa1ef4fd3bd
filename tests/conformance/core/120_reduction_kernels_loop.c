// reduction clauses on loops inside kernels regions (all operators) and on kernels loop.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 3000;
  int *v = malloc(n * sizeof(int));
  srand(55);
  for (int i = 0; i < n; i++) v[i] = rand() % 1000 + 1;
  long sum = 0; double prod = 1.0; int mx = 0, mn = 1 << 30, band = -1, bor = 0, bxor = 0, land = 1, lor = 0;
  #pragma acc kernels copyin(v[0:n])
  {
    #pragma acc loop reduction(+:sum) reduction(max:mx) reduction(min:mn)
    for (int i = 0; i < n; i++) { sum += v[i]; if (v[i] > mx) mx = v[i]; if (v[i] < mn) mn = v[i]; }
    #pragma acc loop reduction(*:prod)
    for (int i = 0; i < 30; i++) prod *= (v[i] % 2) ? 1.5 : 1.0;
    #pragma acc loop reduction(&:band) reduction(|:bor) reduction(^:bxor)
    for (int i = 0; i < n; i++) { band &= v[i] | 1; bor |= v[i]; bxor ^= v[i]; }
    #pragma acc loop reduction(&&:land) reduction(||:lor)
    for (int i = 0; i < n; i++) { land = land && v[i] > 0; lor = lor || v[i] == 1000; }
  }
  long wsum = 0; double wprod = 1.0; int wmx = 0, wmn = 1 << 30, wand = -1, wor = 0, wxor = 0, wlor = 0;
  for (int i = 0; i < n; i++) {
    wsum += v[i]; if (v[i] > wmx) wmx = v[i]; if (v[i] < wmn) wmn = v[i];
    wand &= v[i] | 1; wor |= v[i]; wxor ^= v[i]; wlor = wlor || v[i] == 1000;
  }
  for (int i = 0; i < 30; i++) wprod *= (v[i] % 2) ? 1.5 : 1.0;
  int errors = 0;
  if (sum != wsum || mx != wmx || mn != wmn) { errors++; printf("FAIL + max min\n"); }
  if (prod != wprod) { errors++; printf("FAIL * %g %g\n", prod, wprod); }
  if (band != wand || bor != wor || bxor != wxor) { errors++; printf("FAIL bitwise\n"); }
  if (land != 1 || lor != wlor) { errors++; printf("FAIL logical\n"); }
  long cnt = 0;
  #pragma acc kernels loop reduction(+:cnt) copyin(v[0:n])
  for (int i = 0; i < n; i++) cnt += v[i] > 500;
  long wcnt = 0;
  for (int i = 0; i < n; i++) wcnt += v[i] > 500;
  if (cnt != wcnt) { errors++; printf("FAIL kernels loop count\n"); }
  free(v);
  if (errors == 0) printf("kernels reductions ok\n");
  return errors != 0;
}

// srand(time(NULL)) seeding: the data differ per run, the check does not depend on the seed.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
  srand((unsigned)time(NULL));
  const int n = 20000;
  int *v = malloc(n * sizeof(int)), *sq = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) v[i] = rand() % 2001 - 1000;
  long s = 0, s2 = 0;
  int mx = -1001, mn = 1001;
  #pragma acc parallel loop copyin(v[0:n]) copyout(sq[0:n]) reduction(+:s, s2) reduction(max:mx) reduction(min:mn)
  for (int i = 0; i < n; i++) {
    sq[i] = v[i] * v[i];
    s += v[i]; s2 += sq[i];
    if (v[i] > mx) mx = v[i];
    if (v[i] < mn) mn = v[i];
  }
  long ws = 0, ws2 = 0;
  int wmx = -1001, wmn = 1001, errors = 0;
  for (int i = 0; i < n; i++) {
    ws += v[i]; ws2 += (long)v[i] * v[i];
    if (v[i] > wmx) wmx = v[i];
    if (v[i] < wmn) wmn = v[i];
    if (sq[i] != v[i] * v[i]) { errors++; printf("FAIL sq[%d]\n", i); break; }
  }
  if (s != ws || s2 != ws2 || mx != wmx || mn != wmn) { errors++; printf("FAIL reductions\n"); }
  if (mx < mn) { errors++; printf("FAIL max < min\n"); }
  free(v); free(sq);
  if (errors == 0) printf("time-seeded run ok\n");
  return errors != 0;
}

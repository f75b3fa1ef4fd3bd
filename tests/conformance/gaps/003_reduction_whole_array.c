// reduction on whole fixed-size arrays: reduction(+:hist) on a local int array, reduction(max:mx) on a double array, a global array.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

#define NB 24
long ghist[NB];

int main(void) {
  const int n = 40000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand();
  int hist[NB], want[NB];
  for (int b = 0; b < NB; b++) { hist[b] = b * b; want[b] = b * b; ghist[b] = -b; }
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:hist)
  for (int i = 0; i < n; i++) hist[v[i] % NB]++;
  for (int i = 0; i < n; i++) want[v[i] % NB]++;
  int errors = 0;
  for (int b = 0; b < NB; b++) if (hist[b] != want[b]) { errors++; printf("FAIL hist[%d] %d %d\n", b, hist[b], want[b]); }
  double mx[4] = { -1.0, -2.0, 1e300, -4.0 };
  #pragma acc parallel loop copyin(v[0:n]) reduction(max:mx)
  for (int i = 0; i < n; i++) {
    int j = v[i] & 3;
    double x = (v[i] % 100003) * 0.01;
    if (x > mx[j]) mx[j] = x;
  }
  double wm[4] = { -1.0, -2.0, 1e300, -4.0 };
  for (int i = 0; i < n; i++) { int j = v[i] & 3; double x = (v[i] % 100003) * 0.01; if (x > wm[j]) wm[j] = x; }
  for (int j = 0; j < 4; j++) if (mx[j] != wm[j]) { errors++; printf("FAIL max[%d] %g %g\n", j, mx[j], wm[j]); }
  #pragma acc parallel loop gang vector copyin(v[0:n]) reduction(+:ghist)
  for (int i = 0; i < n; i++) ghist[(v[i] >> 4) % NB] += v[i] % 11;
  long gw[NB];
  for (int b = 0; b < NB; b++) gw[b] = -b;
  for (int i = 0; i < n; i++) gw[(v[i] >> 4) % NB] += v[i] % 11;
  for (int b = 0; b < NB; b++) if (ghist[b] != gw[b]) { errors++; printf("FAIL ghist[%d] %ld %ld\n", b, ghist[b], gw[b]); }
  free(v);
  if (errors == 0) printf("whole-array reductions ok\n");
  return errors != 0;
}

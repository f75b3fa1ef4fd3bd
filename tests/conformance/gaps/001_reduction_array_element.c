// reduction(+:hist[k]) on elements of a fixed-size array: gangs add into chosen elements (reading another one); the rest is untouched.
// GCC 12 lacks the feature: reductions of array elements and sections end in an internal compiler error
// (gcc_check.py reports a compile failure); the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

#define NB 16

int main(void) {
  const int n = 30000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 1000;
  int hist[NB];
  for (int b = 0; b < NB; b++) hist[b] = 100 * b;
  const int k = 3;
  #pragma acc parallel loop gang copyin(v[0:n]) reduction(+:hist[k])
  for (int i = 0; i < n; i++) {
    if (v[i] % 7 == 0) hist[k] += v[i] % 13 + (hist[1] == 100);  /* reads an element no reduction names */
  }
  long want = 300;
  for (int i = 0; i < n; i++) if (v[i] % 7 == 0) want += v[i] % 13 + 1;
  int errors = 0;
  if (hist[k] != want) { errors++; printf("FAIL hist[k] %d %ld\n", hist[k], want); }
  for (int b = 0; b < NB; b++)
    if (b != k && hist[b] != 100 * b) { errors++; printf("FAIL untouched hist[%d] %d\n", b, hist[b]); }
  // max on a double element of a pointer.
  double *m = malloc(4 * sizeof(double));
  for (int j = 0; j < 4; j++) m[j] = -1.0e9;
  #pragma acc parallel loop copyin(v[0:n]) copy(m[0:4]) reduction(max:m[2])
  for (int i = 0; i < n; i++) {
    double x = (v[i] * 37 % 1009) * 0.5;
    if (x > m[2]) m[2] = x;
  }
  double wm = -1.0e9;
  for (int i = 0; i < n; i++) { double x = (v[i] * 37 % 1009) * 0.5; if (x > wm) wm = x; }
  if (m[2] != wm) { errors++; printf("FAIL max element %g %g\n", m[2], wm); }
  if (m[0] != -1.0e9 || m[1] != -1.0e9 || m[3] != -1.0e9) { errors++; printf("FAIL neighbours changed\n"); }
  free(v); free(m);
  if (errors == 0) printf("element reductions ok\n");
  return errors != 0;
}

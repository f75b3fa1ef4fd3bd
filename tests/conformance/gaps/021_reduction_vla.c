// reductions on variable-length arrays: a whole VLA, a section of a VLA, a 2-D VLA section.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

static int run(int n, int nb, int rows) {
  int *v = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) v[i] = rand();
  long h[nb], w[nb];
  double t[rows][nb], wt[rows][nb];
  for (int b = 0; b < nb; b++) {
    h[b] = w[b] = b;
    for (int r = 0; r < rows; r++) t[r][b] = wt[r][b] = r * 0.5;
  }
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:h)
  for (int i = 0; i < n; i++) h[v[i] % nb] += v[i] % 10;
  #pragma acc parallel loop copyin(v[0:n]) reduction(max:t[0:rows][0:nb])
  for (int i = 0; i < n; i++) {
    double x = (v[i] % 1000) * 0.25;
    if (x > t[(v[i] >> 5) % rows][v[i] % nb]) t[(v[i] >> 5) % rows][v[i] % nb] = x;
  }
  for (int i = 0; i < n; i++) {
    w[v[i] % nb] += v[i] % 10;
    double x = (v[i] % 1000) * 0.25;
    if (x > wt[(v[i] >> 5) % rows][v[i] % nb]) wt[(v[i] >> 5) % rows][v[i] % nb] = x;
  }
  int errors = 0;
  for (int b = 0; b < nb; b++) {
    if (h[b] != w[b]) { errors++; printf("FAIL vla %d %ld %ld\n", b, h[b], w[b]); }
    for (int r = 0; r < rows; r++) if (t[r][b] != wt[r][b]) { errors++; printf("FAIL vla 2-D %d %d %g %g\n", r, b, t[r][b], wt[r][b]); }
  }
  long part[nb];
  for (int b = 0; b < nb; b++) part[b] = -1;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:part[2:nb-4])
  for (int i = 0; i < n; i++) part[2 + v[i] % (nb - 4)] += 1;
  long wp[nb];
  for (int b = 0; b < nb; b++) wp[b] = -1;
  for (int i = 0; i < n; i++) wp[2 + v[i] % (nb - 4)] += 1;
  for (int b = 0; b < nb; b++) if (part[b] != wp[b]) { errors++; printf("FAIL vla section %d %ld %ld\n", b, part[b], wp[b]); }
  free(v);
  return errors;
}

int main(void) {
  srand(42);
  int errors = run(20000, 10, 3) + run(5000, 23, 5);
  if (errors == 0) printf("VLA reductions ok\n");
  return errors != 0;
}

// Nested loop reductions: row sums via vector reduction inside a gang loop, plus a total.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define R 120
#define C 333

int main(void) {
  static double a[R][C];
  double rows[R];
  srand(2);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) a[i][j] = rand() % 100 * 0.5;
  double total = 0.0;
  #pragma acc parallel loop gang copyin(a) copyout(rows) reduction(+:total)
  for (int i = 0; i < R; i++) {
    double rs = 0.0;
    #pragma acc loop vector reduction(+:rs)
    for (int j = 0; j < C; j++) rs += a[i][j];
    rows[i] = rs;
    total += rs;
  }
  int errors = 0;
  double want_total = 0;
  for (int i = 0; i < R; i++) {
    double w = 0;
    for (int j = 0; j < C; j++) w += a[i][j];
    want_total += w;
    if (fabs(rows[i] - w) > 1e-9) { if (errors++ < 5) printf("FAIL row %d %g %g\n", i, rows[i], w); }
  }
  if (fabs(total - want_total) > 1e-6) { errors++; printf("FAIL total %g %g\n", total, want_total); }
  int mx = 0;
  #pragma acc parallel loop gang reduction(max:mx) copyin(a)
  for (int i = 0; i < R; i++) {
    int cnt = 0;
    #pragma acc loop worker vector reduction(+:cnt)
    for (int j = 0; j < C; j++) cnt += a[i][j] > 25.0;
    if (cnt > mx) mx = cnt;
  }
  int wmx = 0;
  for (int i = 0; i < R; i++) { int c = 0; for (int j = 0; j < C; j++) c += a[i][j] > 25.0; if (c > wmx) wmx = c; }
  if (mx != wmx) { errors++; printf("FAIL max count %d %d\n", mx, wmx); }
  if (errors == 0) printf("nested reductions ok\n");
  return errors != 0;
}

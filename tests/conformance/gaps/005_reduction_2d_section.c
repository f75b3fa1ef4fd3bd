// reductions on 2-D arrays: a whole 2-D section m[0:R][0:C], a partial section p[1:3][2:4] (other elements untouched), a pointer to rows.
// GCC 12 lacks the feature: it rejects the non-contiguous p[1:3][2:4] section ("array section is not contiguous") and
// ends in an internal compiler error on the others; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

#define R 6
#define C 9

int main(void) {
  const int n = 20000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand();
  long m[R][C], wm[R][C];
  int p[R][C], wp[R][C];
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) { m[r][c] = wm[r][c] = r - c; p[r][c] = wp[r][c] = 3 * r + c; }
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:m[0:R][0:C])
  for (int i = 0; i < n; i++) m[v[i] % R][(v[i] / R) % C] += v[i] % 17;
  for (int i = 0; i < n; i++) wm[v[i] % R][(v[i] / R) % C] += v[i] % 17;
  #pragma acc parallel loop copyin(v[0:n]) reduction(^:p[1:3][2:4])
  for (int i = 0; i < n; i++) p[1 + v[i] % 3][2 + (v[i] >> 3) % 4] ^= v[i] & 0xffff;
  for (int i = 0; i < n; i++) wp[1 + v[i] % 3][2 + (v[i] >> 3) % 4] ^= v[i] & 0xffff;
  int errors = 0;
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      if (m[r][c] != wm[r][c]) { errors++; printf("FAIL m[%d][%d] %ld %ld\n", r, c, m[r][c], wm[r][c]); }
      if (p[r][c] != wp[r][c]) { errors++; printf("FAIL p[%d][%d] %d %d\n", r, c, p[r][c], wp[r][c]); }
    }
  double (*rows)[C] = malloc(R * sizeof *rows);
  double wr[R][C];
  for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) rows[r][c] = wr[r][c] = 0.5 * (r + c);
  #pragma acc parallel loop copyin(v[0:n]) copy(rows[0:R][0:C]) reduction(+:rows[0:R][0:C])
  for (int i = 0; i < n; i++) rows[(v[i] >> 2) % R][v[i] % C] += 0.25 * (v[i] % 8);
  for (int i = 0; i < n; i++) wr[(v[i] >> 2) % R][v[i] % C] += 0.25 * (v[i] % 8);
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) if (rows[r][c] != wr[r][c]) { errors++; printf("FAIL rows[%d][%d] %g %g\n", r, c, rows[r][c], wr[r][c]); }
  free(v); free(rows);
  if (errors == 0) printf("2-D section reductions ok\n");
  return errors != 0;
}

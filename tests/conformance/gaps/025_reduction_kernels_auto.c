// reductions in kernels regions decided by the compiler: an auto loop reducing a scalar and a section, a nested loop pair reducing a 2-D array row-wise.
// gcc 12 -fopenacc accepts and passes this program (gcc_check.py).
#include <stdio.h>
#include <stdlib.h>

#define R 40
#define C 300

int main(void) {
  int *v = malloc(R * C * sizeof(int));
  srand(42);
  for (int i = 0; i < R * C; i++) v[i] = rand() % 1000;
  long rows[R], wrows[R];
  int h[10], wh[10];
  long s = 0, ws = 0;
  for (int r = 0; r < R; r++) rows[r] = wrows[r] = 0;
  for (int b = 0; b < 10; b++) h[b] = wh[b] = 0;
  #pragma acc kernels copyin(v[0:R*C]) copy(rows, h)
  {
    #pragma acc loop auto reduction(+:s) reduction(+:h[0:10])
    for (int i = 0; i < R * C; i++) { s += v[i]; h[v[i] % 10] += 1; }
    #pragma acc loop independent
    for (int r = 0; r < R; r++) {
      long t = 0;
      #pragma acc loop reduction(+:t)
      for (int c = 0; c < C; c++) t += v[r * C + c];
      rows[r] = t;
    }
  }
  for (int i = 0; i < R * C; i++) { ws += v[i]; wh[v[i] % 10] += 1; }
  for (int r = 0; r < R; r++) for (int c = 0; c < C; c++) wrows[r] += v[r * C + c];
  int errors = 0;
  if (s != ws) { errors++; printf("FAIL s %ld %ld\n", s, ws); }
  for (int b = 0; b < 10; b++) if (h[b] != wh[b]) { errors++; printf("FAIL h[%d] %d %d\n", b, h[b], wh[b]); }
  for (int r = 0; r < R; r++) if (rows[r] != wrows[r]) { errors++; printf("FAIL row %d %ld %ld\n", r, rows[r], wrows[r]); }
  free(v);
  if (errors == 0) printf("kernels reductions ok\n");
  return errors != 0;
}

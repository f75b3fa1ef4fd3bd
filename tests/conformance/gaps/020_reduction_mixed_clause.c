// one clause listing several forms at once: reduction(+:s, h[0:nb], e[2], a) and reduction(min:lo[0:3], m), collapse(2).
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int R = 120, C = 150, nb = 8;
  int *v = malloc(R * C * sizeof(int));
  srand(42);
  for (int i = 0; i < R * C; i++) v[i] = rand() % 65536;
  long s = 0;
  int *h = calloc(nb, sizeof(int));
  short e[4] = { 1, 2, 3, 4 };
  unsigned a[3] = { 0, 0, 0 };
  int *lo = malloc(3 * sizeof(int));
  lo[0] = lo[1] = lo[2] = 1 << 20;
  int m = 1 << 20;
  #pragma acc parallel loop collapse(2) copyin(v[0:R*C]) copy(h[0:nb], lo[0:3]) reduction(+:s, h[0:nb], e[2], a) reduction(min:lo[0:3], m)
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      int x = v[r * C + c];
      s += x;
      h[x % nb]++;
      e[2] += (short)(x % 2);
      a[x % 3] += (unsigned)x;
      if (x + r < lo[c % 3]) lo[c % 3] = x + r;
      if (x - c < m) m = x - c;
    }
  long ws = 0;
  int wh[8] = { 0 }, wlo[3] = { 1 << 20, 1 << 20, 1 << 20 }, wm = 1 << 20;
  short we = 3;
  unsigned wa[3] = { 0, 0, 0 };
  for (int r = 0; r < R; r++)
    for (int c = 0; c < C; c++) {
      int x = v[r * C + c];
      ws += x; wh[x % nb]++; we += (short)(x % 2); wa[x % 3] += (unsigned)x;
      if (x + r < wlo[c % 3]) wlo[c % 3] = x + r;
      if (x - c < wm) wm = x - c;
    }
  int errors = 0;
  if (s != ws) { errors++; printf("FAIL s %ld %ld\n", s, ws); }
  for (int b = 0; b < nb; b++) if (h[b] != wh[b]) { errors++; printf("FAIL h[%d] %d %d\n", b, h[b], wh[b]); }
  if (e[2] != we || e[0] != 1 || e[1] != 2 || e[3] != 4) { errors++; printf("FAIL e %d %d\n", e[2], we); }
  for (int k = 0; k < 3; k++) if (a[k] != wa[k] || lo[k] != wlo[k]) { errors++; printf("FAIL a/lo[%d] %u %u %d %d\n", k, a[k], wa[k], lo[k], wlo[k]); }
  if (m != wm) { errors++; printf("FAIL m %d %d\n", m, wm); }
  free(v); free(h); free(lo);
  if (errors == 0) printf("mixed reduction clause ok\n");
  return errors != 0;
}

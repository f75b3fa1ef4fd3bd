// reduction on a whole struct (member by member, nested array and struct members included): reduction(+:acc) and reduction(max:hi).
// GCC 12 lacks the feature: it rejects a struct in a reduction clause ("user defined reduction not found");
// the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

struct inner { short s; float f; };
struct acc { int n; long total; double sq; unsigned char small; int part[3]; struct inner in; };
struct hi { int i; double d; unsigned u; };

int main(void) {
  const int n = 20000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 2001 - 1000;
  struct acc a = { 1, 2, 3.0, 4, { 5, 6, 7 }, { 8, 0.5f } }, w = a;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:a)
  for (int i = 0; i < n; i++) {
    a.n += 1;
    a.total += v[i];
    a.sq += v[i] * 0.001 * v[i];
    a.small += (unsigned char)(v[i] & 1);
    a.part[(v[i] + 1000) % 3] += 1;
    a.in.s += (short)(v[i] % 2);
    a.in.f += 0.25f;
  }
  for (int i = 0; i < n; i++) {
    w.n += 1; w.total += v[i]; w.sq += v[i] * 0.001 * v[i]; w.small += (unsigned char)(v[i] & 1);
    w.part[(v[i] + 1000) % 3] += 1; w.in.s += (short)(v[i] % 2); w.in.f += 0.25f;
  }
  int errors = 0;
  if (a.n != w.n || a.total != w.total || a.small != w.small || a.in.s != w.in.s) { errors++; printf("FAIL ints %d %ld %d %d / %d %ld %d %d\n", a.n, a.total, a.small, a.in.s, w.n, w.total, w.small, w.in.s); }
  for (int k = 0; k < 3; k++) if (a.part[k] != w.part[k]) { errors++; printf("FAIL part[%d] %d %d\n", k, a.part[k], w.part[k]); }
  if (fabs(a.sq - w.sq) > 1e-9 * w.sq) { errors++; printf("FAIL sq %g %g\n", a.sq, w.sq); }
  if (a.in.f != w.in.f) { errors++; printf("FAIL f %g %g\n", a.in.f, w.in.f); }
  struct hi h = { -5, -1e9, 3u }, wh = h;
  #pragma acc parallel loop gang vector copyin(v[0:n]) reduction(max:h)
  for (int i = 0; i < n; i++) {
    if (v[i] > h.i) h.i = v[i];
    if (v[i] * 0.5 > h.d) h.d = v[i] * 0.5;
    if ((unsigned)(v[i] + 1000) > h.u) h.u = (unsigned)(v[i] + 1000);
  }
  for (int i = 0; i < n; i++) {
    if (v[i] > wh.i) wh.i = v[i];
    if (v[i] * 0.5 > wh.d) wh.d = v[i] * 0.5;
    if ((unsigned)(v[i] + 1000) > wh.u) wh.u = (unsigned)(v[i] + 1000);
  }
  if (h.i != wh.i || h.d != wh.d || h.u != wh.u) { errors++; printf("FAIL max struct %d %g %u / %d %g %u\n", h.i, h.d, h.u, wh.i, wh.d, wh.u); }
  free(v);
  if (errors == 0) printf("whole-struct reductions ok\n");
  return errors != 0;
}

// reductions on struct and union members: s.sum (double) and s.cnt (int) of one struct, a member array element, a union member;
// the body reads members no reduction names (q.scale, q.shift), on a loop and on the construct.
// GCC 12 lacks the feature: it does not parse a member in a reduction clause ("expected ')' before '.'");
// the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

struct stats { double sum; int cnt; long bins[4]; double mx; };
union num { long l; double d; };

int main(void) {
  const int n = 30000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 5000;
  struct stats s = { 1.5, 3, { 0, 0, 0, 0 }, -1.0 };
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:s.sum)
  for (int i = 0; i < n; i++) s.sum += v[i] * 0.5;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:s.cnt)
  for (int i = 0; i < n; i++) if (v[i] % 3 == 0) s.cnt++;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:s.bins[2])
  for (int i = 0; i < n; i++) s.bins[2] += v[i] & 7;
  #pragma acc parallel loop copyin(v[0:n]) reduction(max:s.mx)
  for (int i = 0; i < n; i++) s.mx = fmax(s.mx, v[i] * 0.125);
  double wsum = 1.5, wmx = -1.0; int wcnt = 3; long wb = 0;
  for (int i = 0; i < n; i++) { wsum += v[i] * 0.5; if (v[i] % 3 == 0) wcnt++; wb += v[i] & 7; wmx = fmax(wmx, v[i] * 0.125); }
  int errors = 0;
  if (fabs(s.sum - wsum) > 1e-9 * fabs(wsum)) { errors++; printf("FAIL sum %g %g\n", s.sum, wsum); }
  if (s.cnt != wcnt) { errors++; printf("FAIL cnt %d %d\n", s.cnt, wcnt); }
  if (s.bins[2] != wb || s.bins[0] || s.bins[1] || s.bins[3]) { errors++; printf("FAIL bins %ld %ld\n", s.bins[2], wb); }
  if (s.mx != wmx) { errors++; printf("FAIL mx %g %g\n", s.mx, wmx); }
  // The body reads members no reduction names: they keep their values.
  struct { double scale; double acc; int shift; } q = { 0.5, 1.0, 3 };
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:q.acc)
  for (int i = 0; i < n; i++) q.acc += q.scale * (v[i] >> q.shift);
  double wq = 1.0;
  for (int i = 0; i < n; i++) wq += 0.5 * (v[i] >> 3);
  if (q.acc != wq || q.scale != 0.5 || q.shift != 3) { errors++; printf("FAIL other members %g %g\n", q.acc, wq); }
  double qc = 0.0;
  #pragma acc parallel num_gangs(4) copyin(v[0:n]) reduction(+:q.scale)
  {
    #pragma acc loop gang
    for (int i = 0; i < n; i++) q.scale += (v[i] >> q.shift) * 0.25;
  }
  for (int i = 0; i < n; i++) qc += (v[i] >> 3) * 0.25;
  if (q.scale != 0.5 + qc) { errors++; printf("FAIL construct other members %g %g\n", q.scale, 0.5 + qc); }
  union num u;
  u.l = 10;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:u.l)
  for (int i = 0; i < n; i++) u.l += v[i];
  long wl = 10;
  for (int i = 0; i < n; i++) wl += v[i];
  if (u.l != wl) { errors++; printf("FAIL union %ld %ld\n", u.l, wl); }
  free(v);
  if (errors == 0) printf("member reductions ok\n");
  return errors != 0;
}

// Implicit data attributes: arrays without clauses are copied, scalars are firstprivate,
// reduction scalars are copied back; globals too.
#include <stdio.h>

#define N 500
int gtable[N];
double gscale = 0.5;

int main(void) {
  int a[N], b[N];
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0; gtable[i] = 2 * i; }
  int offset = 7;
  #pragma acc parallel loop
  for (int i = 0; i < N; i++) b[i] = a[i] + offset + gtable[i];
  int errors = 0;
  for (int i = 0; i < N; i++) if (b[i] != 3 * i + 7) { errors++; printf("FAIL b[%d] = %d\n", i, b[i]); break; }
  #pragma acc kernels
  for (int i = 0; i < N; i++) a[i] = (int)(b[i] * gscale);
  for (int i = 0; i < N; i++) if (a[i] != (int)((3 * i + 7) * 0.5)) { errors++; printf("FAIL a[%d]\n", i); break; }
  long sum = 0;
  #pragma acc parallel loop reduction(+:sum)
  for (int i = 0; i < N; i++) sum += a[i];
  long want = 0;
  for (int i = 0; i < N; i++) want += (int)((3 * i + 7) * 0.5);
  if (sum != want) { errors++; printf("FAIL implicit reduction copy %ld %ld\n", sum, want); }
  int scalar = 1;
  #pragma acc serial
  {
    int local = scalar + 1;          /* scalar is firstprivate: readable */
    gtable[0] = local;
  }
  if (gtable[0] != 2) { errors++; printf("FAIL serial implicit %d\n", gtable[0]); }
  if (errors == 0) printf("implicit data attributes ok\n");
  return errors != 0;
}

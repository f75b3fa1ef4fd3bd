// long and size_t induction variables; index arithmetic beyond 32 bits kept in long.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const long n = 100000;
  int *a = malloc(n * sizeof(int));
  #pragma acc parallel loop copyout(a[0:n])
  for (long i = 0; i < n; i++) a[i] = (int)(i % 1000);
  int errors = 0;
  for (long i = 0; i < n; i++) if (a[i] != i % 1000) { errors++; printf("FAIL a[%ld]\n", i); break; }
  long big = 0;
  #pragma acc parallel loop reduction(+:big)
  for (long i = 0; i < n; i++) big += i * 100000L;         /* exceeds 2^32 */
  if (big != (n * (n - 1) / 2) * 100000L) { errors++; printf("FAIL long sum %ld\n", big); }
  size_t cnt = 0;
  #pragma acc parallel loop reduction(+:cnt) copyin(a[0:n])
  for (size_t k = 0; k < (size_t)n; k++) cnt += a[k] == 999;
  if (cnt != 100) { errors++; printf("FAIL size_t count %zu\n", cnt); }
  long off = 3000000000L;
  long m = 0;
  #pragma acc parallel loop reduction(max:m)
  for (long i = off; i < off + 1000; i++) if (i > m) m = i;
  if (m != off + 999) { errors++; printf("FAIL offset range %ld\n", m); }
  free(a);
  if (errors == 0) printf("long indices ok\n");
  return errors != 0;
}

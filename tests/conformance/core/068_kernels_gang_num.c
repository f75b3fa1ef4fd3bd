// gang(num:) and gang(n) on kernels loops give the gang count of that loop; worker(n), vector(n).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 6000;
  int *a = malloc(n * sizeof(int)), *b = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i % 97;
  #pragma acc kernels copyin(a[0:n]) copyout(b[0:n])
  {
    #pragma acc loop gang(num:4) vector(32)
    for (int i = 0; i < n; i++) b[i] = a[i] * 3;
  }
  int errors = 0;
  for (int i = 0; i < n; i++) if (b[i] != (i % 97) * 3) { errors++; printf("FAIL b[%d]\n", i); break; }
  long s = 0;
  #pragma acc kernels loop gang(8) worker(2) reduction(+:s) copyin(a[0:n])
  for (int i = 0; i < n; i++) s += a[i];
  long w = 0;
  for (int i = 0; i < n; i++) w += i % 97;
  if (s != w) { errors++; printf("FAIL sum %ld %ld\n", s, w); }
  static int m[64][64];
  #pragma acc kernels copyout(m)
  {
    #pragma acc loop gang(num:16)
    for (int i = 0; i < 64; i++) {
      #pragma acc loop vector(length:64)
      for (int j = 0; j < 64; j++) m[i][j] = i ^ j;
    }
  }
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) if (m[i][j] != (i ^ j)) { errors++; printf("FAIL m[%d][%d]\n", i, j); i = 64; break; }
  free(a); free(b);
  if (errors == 0) printf("kernels gang(num:) ok\n");
  return errors != 0;
}

// update device / update self / update host inside a data region, with sections.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 1000;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  int errors = 0;
  #pragma acc data copy(a[0:n])
  {
    for (int i = 0; i < n; i++) a[i] = 10 * i;         /* host changes ... */
    #pragma acc update device(a[0:n])                    /* ... pushed to the device */
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1;
    #pragma acc update self(a[0:n/2])
    for (int i = 0; i < n / 2; i++)
      if (a[i] != 10 * i + 1) { errors++; printf("FAIL after update self a[%d] = %d\n", i, a[i]); break; }
    #pragma acc update host(a[n/2:n-n/2])
    for (int i = n / 2; i < n; i++)
      if (a[i] != 10 * i + 1) { errors++; printf("FAIL after update host a[%d] = %d\n", i, a[i]); break; }
    a[5] = -5;
    #pragma acc update device(a[5:1])
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] *= 2;
  }
  for (int i = 0; i < n; i++) {
    int want = i == 5 ? -10 : 2 * (10 * i + 1);
    if (a[i] != want) { errors++; printf("FAIL final a[%d] = %d\n", i, a[i]); break; }
  }
  free(a);
  if (errors == 0) printf("update ok\n");
  return errors != 0;
}

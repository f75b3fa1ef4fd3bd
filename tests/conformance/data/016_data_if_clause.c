// if clause on data, enter data, exit data and update: if(0) allocates, moves and frees nothing.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

/* accjit keeps a present table on every device (shared-memory ones too). gcc's host fallback,
   used only to validate this file, reports all memory present, so presence checks are skipped. */
#ifdef ACCJIT_GCC_VALIDATION
#define TRACKED 0
#else
#define TRACKED 1
#endif
static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)
#define PRESENT(p, n, want) do { if (TRACKED && (acc_is_present((p), (n)) != 0) != (want)) { \
    printf("FAIL line %d: acc_is_present(%s) != %d\n", __LINE__, #p, (want)); errors++; } } while (0)

int main(void) {
  const int n = 400;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  int use_dev = 0;
  #pragma acc data copy(a[0:n]) if(use_dev)
  {
    PRESENT(a, n * sizeof(double), 0);
    for (int i = 0; i < n; i++) a[i] += 1;        /* host work */
  }
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 1);
  #pragma acc enter data copyin(a[0:n]) if(use_dev)
  PRESENT(a, n * sizeof(double), 0);
  use_dev = 1;
  #pragma acc enter data copyin(a[0:n]) if(use_dev)
  PRESENT(a, n * sizeof(double), 1);
  #pragma acc update device(a[0:n]) if(n < 0)
  #pragma acc exit data delete(a[0:n]) if(0)
  PRESENT(a, n * sizeof(double), 1);
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2;
  #pragma acc exit data copyout(a[0:n]) if(use_dev)
  PRESENT(a, n * sizeof(double), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == 2.0 * (i + 1));
  #pragma acc data copy(a[0:n]) if(1)
  {
    PRESENT(a, n * sizeof(double), 1);
  }
  free(a);
  if (errors == 0) printf("if clause on data directives ok\n");
  return errors != 0;
}

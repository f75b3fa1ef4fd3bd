// if(false) on a compute construct over present data runs on the host with the host copies.
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
  const int n = 500;
  double *a = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2;
  #pragma acc update self(a[0:n])
  int use_device = 0;
  #pragma acc parallel loop present(a[0:n]) if(use_device)
  for (int i = 0; i < n; i++) a[i] += 1;                 /* host copies */
  #pragma acc update device(a[0:n])
  #pragma acc parallel loop present(a[0:n]) if(!use_device)
  for (int i = 0; i < n; i++) a[i] *= 3;                 /* device copies */
  #pragma acc exit data copyout(a[0:n])
  for (int i = 0; i < n; i++) CHECK(a[i] == 3.0 * (2.0 * i + 1));
  free(a);
  if (errors == 0) printf("if(false) with present data ok\n");
  return errors != 0;
}

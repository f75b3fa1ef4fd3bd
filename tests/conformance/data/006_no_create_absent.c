// no_create on absent data: nothing is created, the local (host) address is used in the region.
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
  const int n = 800;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  int touched = 0;
  #pragma acc data no_create(a[0:n])
  {
    PRESENT(a, n * sizeof(int), 0);          /* no_create does not create */
  }
  /* A region may name absent data in no_create as long as it does not access it. */
  #pragma acc parallel loop no_create(a[0:n]) copy(touched)
  for (int i = 0; i < n; i++) {
    if (i < 0) a[i] = 0;                     /* never executed */
    #pragma acc atomic
    touched++;
  }
  CHECK(touched == n);
  PRESENT(a, n * sizeof(int), 0);
  /* On a shared-memory device the host address is the device address: the region may use it. */
  int shared = acc_get_property(acc_get_device_num(acc_get_device_type()), acc_get_device_type(), acc_property_shared_memory_support) != 0;
  if (shared) {
    #pragma acc parallel loop no_create(a[0:n])
    for (int i = 0; i < n; i++) a[i] = -a[i];
    for (int i = 0; i < n; i++) CHECK(a[i] == -i);
  }
  free(a);
  if (errors == 0) printf("no_create on absent data ok\n");
  return errors != 0;
}

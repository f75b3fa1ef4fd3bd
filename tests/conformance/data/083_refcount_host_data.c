// host_data and update do not change reference counts; present data stays exactly as long as before.
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
  const int n = 100;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = i;
  #pragma acc enter data copyin(a[0:n])
  for (int k = 0; k < 5; k++) {
    int *d = NULL;
    #pragma acc host_data use_device(a)
    {
      d = a;
    }
    #pragma acc parallel loop deviceptr(d)
    for (int i = 0; i < n; i++) d[i] += 1;
    #pragma acc update self(a[0:n])
    #pragma acc update device(a[0:n])
  }
  #pragma acc exit data delete(a[0:n])
  PRESENT(a, n * sizeof(int), 0);                    /* one exit matched the one enter */
  acc_copyin(a, n * sizeof(int));
  acc_update_self(a, n * sizeof(int));
  acc_update_device(a, n * sizeof(int));
  acc_delete(a, n * sizeof(int));
  PRESENT(a, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == i + 5);
  free(a);
  if (errors == 0) printf("host_data/update keep counts ok\n");
  return errors != 0;
}

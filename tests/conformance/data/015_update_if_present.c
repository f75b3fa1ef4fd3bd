// update ... if_present: present data is updated, absent data is skipped without error.
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
  const int n = 700;
  int *a = malloc(n * sizeof(int)), *absent = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { a[i] = i; absent[i] = -i; }
  #pragma acc update device(absent[0:n]) if_present
  #pragma acc update self(absent[0:n]) if_present
  for (int i = 0; i < n; i++) CHECK(absent[i] == -i);
  PRESENT(absent, n * sizeof(int), 0);
  #pragma acc data copy(a[0:n])
  {
    for (int i = 0; i < n; i++) a[i] = 3 * i;
    #pragma acc update device(a[0:n], absent[0:n]) if_present
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] += 1;
    #pragma acc update self(a[0:n]) self(absent[0:n]) if_present
    for (int i = 0; i < n; i++) CHECK(a[i] == 3 * i + 1);
  }
  for (int i = 0; i < n; i++) CHECK(a[i] == 3 * i + 1);
  free(a); free(absent);
  if (errors == 0) printf("update if_present ok\n");
  return errors != 0;
}

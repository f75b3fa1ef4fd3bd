// acc_is_present on whole, partial, interior and overlapping ranges; bytes == 0 tests the address.
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
  const int n = 1000;
  char *a = malloc(n);
  #pragma acc enter data create(a[100:500])
  PRESENT(a + 100, 500, 1);
  PRESENT(a + 200, 100, 1);                       /* interior subrange */
  PRESENT(a + 599, 1, 1);
  PRESENT(a + 100, 0, 1);                         /* address only */
  PRESENT(a + 99, 0, 0);
  PRESENT(a, n, 0);                               /* only partly present */
  PRESENT(a + 50, 100, 0);                        /* overlaps the start */
  PRESENT(a + 550, 100, 0);                       /* overlaps the end */
  PRESENT(a + 600, 10, 0);                        /* just after */
  #pragma acc enter data create(a[600:400])
  PRESENT(a + 100, 900, 1);                       /* two adjacent mappings cover it */
  PRESENT(a, 101, 0);
  #pragma acc exit data delete(a[100:500])
  #pragma acc exit data delete(a[600:400])
  PRESENT(a + 100, 1, 0);
  int x;
  PRESENT(&x, sizeof x, 0);
  if (errors == 0) printf("acc_is_present ranges ok\n");
  free(a);
  return errors != 0;
}

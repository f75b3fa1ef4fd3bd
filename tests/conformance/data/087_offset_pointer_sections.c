// Sections of offset pointers (p = a + k) map the same host bytes as the matching section of a.
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
  long *a = malloc(n * sizeof(long));
  for (int i = 0; i < n; i++) a[i] = i;
  long *p = a + 300;
  #pragma acc enter data copyin(a[300:200])
  PRESENT(p, 200 * sizeof(long), 1);
  #pragma acc parallel loop present(p[0:200])
  for (int i = 0; i < 200; i++) p[i] *= -1;
  #pragma acc parallel loop present(a[300:200])
  for (int i = 300; i < 500; i++) a[i] -= 1;
  #pragma acc exit data copyout(p[0:200])
  PRESENT(a + 300, 200 * sizeof(long), 0);
  for (int i = 0; i < n; i++) CHECK(a[i] == ((i >= 300 && i < 500) ? -i - 1 : i));
  free(a);
  if (errors == 0) printf("offset pointer sections ok\n");
  return errors != 0;
}

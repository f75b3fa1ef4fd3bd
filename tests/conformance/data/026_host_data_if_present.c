// host_data use_device ... if_present: absent variables keep their host address.
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
  double *p = malloc(n * sizeof(double)), *q = malloc(n * sizeof(double));
  double *pa = NULL, *qa = NULL;
  #pragma acc enter data create(p[0:n])
  #pragma acc host_data use_device(p, q) if_present
  {
    pa = p;
    qa = q;
  }
  CHECK(qa == q);                          /* q is not present: host address */
  CHECK(pa == acc_deviceptr(p));
  CHECK(acc_hostptr(pa) == p);
  #pragma acc exit data delete(p[0:n])
  #pragma acc host_data use_device(p) if_present
  {
    pa = p;
  }
  CHECK(pa == p);
  free(p); free(q);
  if (errors == 0) printf("host_data if_present ok\n");
  return errors != 0;
}

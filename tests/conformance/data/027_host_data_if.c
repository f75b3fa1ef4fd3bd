// host_data with if(false) leaves host addresses in place; if(true) uses device addresses.
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
  const int n = 64;
  float *v = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) v[i] = i;
  float *got = NULL;
  #pragma acc data copy(v[0:n])
  {
    int use = 0;
    #pragma acc host_data use_device(v) if(use)
    {
      got = v;
    }
    CHECK(got == v);
    use = 1;
    #pragma acc host_data use_device(v) if(use)
    {
      got = v;
    }
    CHECK(got == acc_deviceptr(v));
    #pragma acc parallel loop deviceptr(got)
    for (int i = 0; i < n; i++) got[i] += 1.0f;
  }
  for (int i = 0; i < n; i++) CHECK(v[i] == i + 1.0f);
  free(v);
  if (errors == 0) printf("host_data if ok\n");
  return errors != 0;
}

// The init directive with device_type, device_num and if clauses; regions work afterwards.
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
  acc_device_t t = acc_get_device_type();
  #pragma acc init if(t == acc_device_none)
  t = acc_get_device_type();
  CHECK(t != acc_device_none);
  int a[200];
  #pragma acc parallel loop copyout(a)
  for (int i = 0; i < 200; i++) a[i] = i * i;
  for (int i = 0; i < 200; i++) CHECK(a[i] == i * i);
  #pragma acc shutdown
  #pragma acc init device_num(0)
  #pragma acc parallel loop copy(a)
  for (int i = 0; i < 200; i++) a[i] -= i;
  for (int i = 0; i < 200; i++) CHECK(a[i] == i * i - i);
  #pragma acc init if(0)
  CHECK(acc_get_device_type() != acc_device_none);
  if (errors == 0) printf("init directive ok\n");
  return errors != 0;
}

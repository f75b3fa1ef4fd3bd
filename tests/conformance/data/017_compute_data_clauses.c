// Data clauses directly on parallel, kernels and serial constructs, mixed in one directive.
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
  int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int)), *tmp = malloc(n * sizeof(int)), *both = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) { in[i] = i; both[i] = 1; }
  #pragma acc parallel copyin(in[0:n]) copyout(out[0:n]) create(tmp[0:n]) copy(both[0:n])
  {
    #pragma acc loop
    for (int i = 0; i < n; i++) { tmp[i] = in[i] * 2; both[i] += tmp[i]; out[i] = tmp[i] - 1; }
  }
  for (int i = 0; i < n; i++) { CHECK(out[i] == 2 * i - 1); CHECK(both[i] == 2 * i + 1); }
  PRESENT(in, n * sizeof(int), 0);
  PRESENT(tmp, n * sizeof(int), 0);
  #pragma acc kernels copyin(in[0:n]) copyout(out[0:n]) create(tmp[0:n]) copy(both[0:n])
  {
    for (int i = 0; i < n; i++) tmp[i] = in[i] + both[i];
    for (int i = 0; i < n; i++) out[i] = tmp[i] * 2;
  }
  for (int i = 0; i < n; i++) CHECK(out[i] == 2 * (3 * i + 1));
  int total = 0;
  #pragma acc serial copyin(in[0:n]) copy(total) create(tmp[0:1])
  {
    tmp[0] = 0;
    for (int i = 0; i < n; i++) tmp[0] += in[i] % 3;
    total = tmp[0];
  }
  int want = 0;
  for (int i = 0; i < n; i++) want += i % 3;
  CHECK(total == want);
  free(in); free(out); free(tmp); free(both);
  if (errors == 0) printf("data clauses on compute constructs ok\n");
  return errors != 0;
}

// create: device scratch space, present inside, never needs host values, absent after.
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
  const int n = 4000;
  int *in = malloc(n * sizeof(int)), *tmp = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = i;
  #pragma acc data copyin(in[0:n]) create(tmp[0:n]) copyout(out[0:n])
  {
    PRESENT(tmp, n * sizeof(int), 1);
    #pragma acc parallel loop present(in[0:n], tmp[0:n])
    for (int i = 0; i < n; i++) tmp[i] = in[i] * 3;
    #pragma acc parallel loop present(tmp[0:n], out[0:n])
    for (int i = 0; i < n; i++) out[i] = tmp[n - 1 - i] + 1;
  }
  PRESENT(tmp, n * sizeof(int), 0);
  for (int i = 0; i < n; i++) CHECK(out[i] == 3 * (n - 1 - i) + 1);
  double acc_v = 0;
  double work[16];
  #pragma acc parallel create(work) copy(acc_v) num_gangs(1)
  {
    #pragma acc loop
    for (int k = 0; k < 16; k++) work[k] = k * 0.5;
    #pragma acc loop seq
    for (int k = 0; k < 16; k++) acc_v += work[k];
  }
  CHECK(acc_v == 60.0);
  #pragma acc enter data create(tmp[0:n])
  PRESENT(tmp, n * sizeof(int), 1);
  #pragma acc exit data delete(tmp[0:n])
  PRESENT(tmp, n * sizeof(int), 0);
  free(in); free(tmp); free(out);
  if (errors == 0) printf("create ok\n");
  return errors != 0;
}

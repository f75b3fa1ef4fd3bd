// declare create(lut[0:K]) at file scope used from a routine seq function called in kernels; the host fills it and update device moves the section.
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
/* GCC 12 rejects array sections in 'declare' (the OpenACC 2.0 rule); gcc_check.py validates
   the program with the whole array declared (ACCJIT_GCC_VALIDATION). */

#define K 512
#define SPARE 64
int lut[K + SPARE];
#ifdef ACCJIT_GCC_VALIDATION
#pragma acc declare create(lut)
#else
#pragma acc declare create(lut[0:K])
#endif

#pragma acc routine seq
static int mapped(int v) {
  return lut[v % K] * 3 + v / K;
}

int main(void) {
  PRESENT(lut, K * sizeof(int), 1);
  PRESENT(&lut[K], SPARE * sizeof(int), 0);
  CHECK(!TRACKED || acc_deviceptr(lut) != NULL);
  CHECK(!TRACKED || acc_hostptr(acc_deviceptr(lut)) == (void *)lut);
  srand(42);
  for (int i = 0; i < K; i++) lut[i] = (i * i + 7) % 1009;
  #pragma acc update device(lut[0:K])
  int n = 10000;
  int *in = malloc(n * sizeof(int)), *out = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = rand() % (4 * K);
  #pragma acc parallel loop copyin(in[0:n]) copyout(out[0:n])
  for (int i = 0; i < n; i++) out[i] = mapped(in[i]);
  for (int i = 0; i < n; i++) CHECK(out[i] == lut[in[i] % K] * 3 + in[i] / K);
  /* Kernels write the table; update self brings a part back. */
  #pragma acc parallel loop
  for (int i = 0; i < K; i++) lut[i] = K - i;
  #pragma acc update self(lut[0:K/2])
  for (int i = 0; i < K / 2; i++) CHECK(lut[i] == K - i);
  long s = 0;
  #pragma acc parallel loop reduction(+:s) copyin(in[0:n])
  for (int i = 0; i < n; i++) s += mapped(in[i]);
  long want = 0;
  #pragma acc update self(lut[K/2:K/2])
  for (int i = 0; i < n; i++) want += lut[in[i] % K] * 3 + in[i] / K;
  CHECK(s == want);
  free(in); free(out);
  if (errors == 0) printf("declare section with routine ok\n");
  return errors != 0;
}

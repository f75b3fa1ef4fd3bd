// declare copyin(g[lo:len]) at file scope: the section (not the whole array) is present for the whole program.
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
/* GCC 12 follows OpenACC 2.0 here ("no subarrays in declare") and rejects the sections, so
   gcc_check.py validates the program with the whole arrays declared instead. */

#define N 256
#define LO 64
#define LEN 128
float coef[N] = {1.0f, 2.0f, 3.0f};
int idx[N];
#ifdef ACCJIT_GCC_VALIDATION
#pragma acc declare copyin(coef, idx)
#else
#pragma acc declare copyin(coef[LO:LEN], idx[0:N/2])
#endif

static double weighted(const float *x, int n) {
  double s = 0.0;
  #pragma acc parallel loop reduction(+:s) present(coef[LO:LEN]) copyin(x[0:n])
  for (int i = 0; i < n; i++) s += x[i] * coef[LO + i % LEN];
  return s;
}

int main(void) {
  PRESENT(&coef[LO], LEN * sizeof(float), 1);
  PRESENT(&coef[0], sizeof(float), 0);
  PRESENT(&coef[LO + LEN], sizeof(float), 0);
  PRESENT(idx, N / 2 * sizeof(int), 1);
  PRESENT(&idx[N / 2], sizeof(int), 0);
  CHECK(!TRACKED || acc_deviceptr(&coef[LO]) != NULL);
  srand(42);
  for (int i = 0; i < N; i++) coef[i] = (float)(rand() % 100) / 10.0f;
  for (int i = 0; i < N / 2; i++) idx[i] = (i * 7) % (N / 2);
  #pragma acc update device(coef[LO:LEN], idx[0:N/2])
  int n = 1000;
  float *x = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) x[i] = (float)(rand() % 50) - 25.0f;
  double want = 0.0;
  for (int i = 0; i < n; i++) want += x[i] * coef[LO + i % LEN];
  double got = weighted(x, n);
  CHECK(got > want - 1e-3 * (1.0 + (want < 0 ? -want : want)) && got < want + 1e-3 * (1.0 + (want < 0 ? -want : want)));
  int gathered[N / 2];
  #pragma acc parallel loop present(idx[0:N/2]) copyout(gathered)
  for (int i = 0; i < N / 2; i++) gathered[i] = idx[idx[i]] + 1;
  for (int i = 0; i < N / 2; i++) CHECK(gathered[i] == idx[idx[i]] + 1);
  PRESENT(&coef[LO], LEN * sizeof(float), 1);
  free(x);
  if (errors == 0) printf("declare copyin global section ok\n");
  return errors != 0;
}

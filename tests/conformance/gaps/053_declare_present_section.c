// declare present(a[lo:len]) in a function: the caller's data must be there; the declare adds a structured reference and leaves the caller's data present.
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
   the program with the pointer itself declared (ACCJIT_GCC_VALIDATION). */

static void smooth(float *a, int lo, int len) {
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare present(a)
#else
  #pragma acc declare present(a[lo:len])
#endif
  float tmp[1024];
  #pragma acc parallel loop present(a[lo:len]) copyout(tmp[0:len])
  for (int i = 0; i < len; i++) {
    int l = i > 0 ? lo + i - 1 : lo + i, r = i < len - 1 ? lo + i + 1 : lo + i;
    tmp[i] = (a[l] + a[lo + i] + a[r]) / 3.0f;
  }
  #pragma acc parallel loop present(a[lo:len]) copyin(tmp[0:len])
  for (int i = 0; i < len; i++) a[lo + i] = tmp[i];
}

int main(void) {
  srand(42);
  int n = 3000;
  float *a = malloc(n * sizeof(float));
  float *w = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) a[i] = w[i] = (float)(rand() % 300);
  int lo = 700, len = 1000;
  #pragma acc data copy(a[0:n])
  {
    for (int it = 0; it < 3; it++) {
      smooth(a, lo, len);
      PRESENT(a, n * sizeof(float), 1);
    }
  }
  PRESENT(a, n * sizeof(float), 0);
  float tmp[1024];
  for (int it = 0; it < 3; it++) {
    for (int i = 0; i < len; i++) {
      int l = i > 0 ? lo + i - 1 : lo + i, r = i < len - 1 ? lo + i + 1 : lo + i;
      tmp[i] = (w[l] + w[lo + i] + w[r]) / 3.0f;
    }
    for (int i = 0; i < len; i++) w[lo + i] = tmp[i];
  }
  for (int i = 0; i < n; i++) CHECK(a[i] == w[i]);
  /* Data entered dynamically is also present for the declare. */
  #pragma acc enter data copyin(a[lo:len])
  smooth(a, lo, len);
  PRESENT(&a[lo], len * sizeof(float), 1);
  #pragma acc exit data copyout(a[lo:len])
  PRESENT(&a[lo], len * sizeof(float), 0);
  free(a); free(w);
  if (errors == 0) printf("declare present section ok\n");
  return errors != 0;
}

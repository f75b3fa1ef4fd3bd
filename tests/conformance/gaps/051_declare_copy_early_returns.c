// declare copy(a[0:n]) in a function with returns in the middle, inside loops and nested blocks: every exit path ends the data lifetime.
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
/* GCC 12 rejects array sections in 'declare' (the OpenACC 2.0 rule), and its libgomp aborts
   ("GOACC_declare: Assertion `0' failed") on 'declare copy' of a pointer parameter; gcc_check.py
   validates the program with 'declare copyin(a)', the same thing on gcc's shared-memory host
   fallback (ACCJIT_GCC_VALIDATION). */

/* Returns which exit it took: 0 early (n small), 1 from inside the loop, 2 from a nested block, 3 at the end. */
static int step(float *a, int n, int mode) {
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare copyin(a)
#else
  #pragma acc declare copy(a[0:n])
#endif
  PRESENT(a, n * sizeof(float), 1);
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * 2.0f + 1.0f;
  if (n < 8) return 0;
  for (int r = 0; r < 4; r++) {
    #pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] -= 1.0f;
    if (mode == 1 && r == 1) return 1;
  }
  {
    int k = n / 2;
    if (mode == 2) {
      #pragma acc parallel loop present(a[0:n])
      for (int i = 0; i < k; i++) a[i] = -a[i];
      return 2;
    }
  }
  return 3;
}

int main(void) {
  srand(42);
  int sizes[4] = {5, 100, 100, 100};
  for (int mode = 0; mode < 4; mode++) {
    int n = sizes[mode];
    float *a = malloc(n * sizeof(float));
    float *w = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++) a[i] = w[i] = (float)(rand() % 100);
    int got = step(a, n, mode);
    CHECK(got == mode);
    PRESENT(a, n * sizeof(float), 0);
    for (int i = 0; i < n; i++) {
      w[i] = w[i] * 2.0f + 1.0f;
      if (mode >= 1) w[i] -= mode == 1 ? 2.0f : 4.0f;
      if (mode == 2 && i < n / 2) w[i] = -w[i];
      CHECK(a[i] == w[i]);
    }
    /* Data entered by hand survives the function's copy: the declare only adds a reference. */
    #pragma acc enter data copyin(a[0:n])
    step(a, n, mode);
    PRESENT(a, n * sizeof(float), 1);
    #pragma acc exit data delete(a[0:n])
    PRESENT(a, n * sizeof(float), 0);
    free(a); free(w);
  }
  if (errors == 0) printf("declare copy with early returns ok\n");
  return errors != 0;
}

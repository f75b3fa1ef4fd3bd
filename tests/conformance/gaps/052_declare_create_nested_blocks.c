// declare create(t[0:m]) in nested blocks, loop bodies left by break and continue: the section lives to the end of its block on every path.
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
   the program with the pointers themselves declared (ACCJIT_GCC_VALIDATION). */

int main(void) {
  srand(42);
  int n = 400;
  int *src = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) src[i] = rand() % 1000;
  long total = 0, want_total = 0;
  int *seen[16];
  int rounds = 0;
  for (int r = 0; r < 16; r++) {
    int m = 32 + 16 * r;
    int *t = malloc(m * sizeof(int));
    seen[r] = t;
#ifdef ACCJIT_GCC_VALIDATION
    #pragma acc declare create(t)
#else
    #pragma acc declare create(t[0:m])
#endif
    PRESENT(t, m * sizeof(int), 1);
    #pragma acc parallel loop present(t[0:m]) copyin(src[0:n])
    for (int i = 0; i < m; i++) t[i] = src[(i * 13 + r) % n] % 97;
    long s = 0;
    #pragma acc parallel loop reduction(+:s) present(t[0:m])
    for (int i = 0; i < m; i++) s += t[i];
    long w = 0;
    for (int i = 0; i < m; i++) w += src[(i * 13 + r) % n] % 97;
    CHECK(s == w);
    rounds++;
    if (r % 3 == 1) continue;
    total += s;
    want_total += w;
    if (r == 12) break;
  }
  CHECK(total == want_total);
  CHECK(rounds == 13);
  for (int r = 0; r < rounds; r++) {
    PRESENT(seen[r], (32 + 16 * r) * sizeof(int), 0);
    free(seen[r]);
  }
  {
    int *inner = malloc(64 * sizeof(int));
    {
      int *deep = inner + 16;
#ifdef ACCJIT_GCC_VALIDATION
      #pragma acc declare create(deep)
#else
      #pragma acc declare create(deep[0:32])
#endif
      PRESENT(deep, 32 * sizeof(int), 1);
      PRESENT(inner, 16 * sizeof(int), 0);
    }
    PRESENT(inner + 16, 32 * sizeof(int), 0);
    free(inner);
  }
  free(src);
  if (errors == 0) printf("declare create in nested blocks ok\n");
  return errors != 0;
}

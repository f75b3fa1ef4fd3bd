// enter/exit data with many arrays in one clause list, allocated at different sizes.
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
  int n0 = 10, n1 = 100, n2 = 1000, n3 = 10000;
  char *c = malloc(n0);
  short *s = malloc(n1 * sizeof(short));
  float *f = malloc(n2 * sizeof(float));
  double *d = malloc(n3 * sizeof(double));
  for (int i = 0; i < n0; i++) c[i] = (char)i;
  for (int i = 0; i < n1; i++) s[i] = (short)i;
  for (int i = 0; i < n2; i++) f[i] = i;
  for (int i = 0; i < n3; i++) d[i] = i;
  #pragma acc enter data copyin(c[0:n0], s[0:n1]) copyin(f[0:n2], d[0:n3])
  PRESENT(c, n0, 1);
  PRESENT(d, n3 * sizeof(double), 1);
  #pragma acc parallel present(c[0:n0], s[0:n1], f[0:n2], d[0:n3])
  {
    #pragma acc loop
    for (int i = 0; i < n3; i++) {
      d[i] += 1;
      if (i < n2) f[i] += 2;
      if (i < n1) s[i] += 3;
      if (i < n0) c[i] += 4;
    }
  }
  #pragma acc exit data copyout(c[0:n0], s[0:n1], f[0:n2], d[0:n3])
  PRESENT(s, n1 * sizeof(short), 0);
  for (int i = 0; i < n3; i++) {
    CHECK(d[i] == i + 1);
    if (i < n2) CHECK(f[i] == i + 2);
    if (i < n1) CHECK(s[i] == i + 3);
    if (i < n0) CHECK(c[i] == i + 4);
  }
  free(c); free(s); free(f); free(d);
  if (errors == 0) printf("many arrays ok\n");
  return errors != 0;
}

// Struct member pointers: copyin(s) then copy(s.p[0:n]) attaches s.p; nested regions count attachments.
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

typedef struct { int n; double *p; int *q; } vec;

int main(void) {
  vec s;
  s.n = 100;
  s.p = malloc(s.n * sizeof(double));
  s.q = malloc(s.n * sizeof(int));
  for (int i = 0; i < s.n; i++) { s.p[i] = i; s.q[i] = 0; }
  #pragma acc enter data copyin(s)
  PRESENT(&s, sizeof s, 1);
  PRESENT(s.p, s.n * sizeof(double), 0);
  #pragma acc data copy(s.p[0:s.n]) create(s.q[0:s.n])
  {
    PRESENT(s.p, s.n * sizeof(double), 1);
    PRESENT(s.q, s.n * sizeof(int), 1);
    #pragma acc data present(s.p[0:s.n])
    {
      #pragma acc parallel loop present(s)
      for (int i = 0; i < s.n; i++) { s.p[i] += 1.0; s.q[i] = i; }
    }
    PRESENT(s.p, s.n * sizeof(double), 1);    /* the outer region still holds it */
  }
  PRESENT(s.p, s.n * sizeof(double), 0);
  PRESENT(s.q, s.n * sizeof(int), 0);
  PRESENT(&s, sizeof s, 1);
  for (int i = 0; i < s.n; i++) CHECK(s.p[i] == i + 1.0);
  /* dynamic attach of a member section, then detach and delete */
  #pragma acc enter data copyin(s.p[0:s.n])
  PRESENT(s.p, s.n * sizeof(double), 1);
  #pragma acc parallel loop present(s)
  for (int i = 0; i < s.n; i++) s.p[i] *= 3.0;
  #pragma acc exit data copyout(s.p[0:s.n])
  PRESENT(s.p, s.n * sizeof(double), 0);
  for (int i = 0; i < s.n; i++) CHECK(s.p[i] == 3.0 * (i + 1.0));
  #pragma acc exit data delete(s)
  PRESENT(&s, sizeof s, 0);
  free(s.p); free(s.q);
  if (errors == 0) printf("struct member attach ok\n");
  return errors != 0;
}

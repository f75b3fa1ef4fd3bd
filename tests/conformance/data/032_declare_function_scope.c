// declare copy/copyin/copyout/create on local arrays: the data lives for the function body.
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

#define N 256

static long kernel(int scale) {
  int in[N], out[N], both[N], tmp[N];
  #pragma acc declare copyin(in) copyout(out) copy(both) create(tmp)
  PRESENT(in, sizeof in, 1);
  PRESENT(out, sizeof out, 1);
  PRESENT(both, sizeof both, 1);
  PRESENT(tmp, sizeof tmp, 1);
  for (int i = 0; i < N; i++) { in[i] = i * scale; both[i] = 1; }
  #pragma acc update device(in, both)
  #pragma acc parallel loop present(in, tmp)
  for (int i = 0; i < N; i++) tmp[i] = in[i] + 1;
  #pragma acc parallel loop present(tmp, out, both)
  for (int i = 0; i < N; i++) { out[i] = tmp[i] * 2; both[i] += out[i]; }
  #pragma acc update self(out, both)
  long s = 0;
  for (int i = 0; i < N; i++) s += out[i] + both[i];
  return s;
}

int main(void) {
  for (int scale = 1; scale <= 3; scale++) {
    long want = 0;
    for (int i = 0; i < N; i++) { long o = 2L * (i * scale + 1); want += o + 1 + o; }
    long got = kernel(scale);
    CHECK(got == want);
  }
  if (errors == 0) printf("declare at function scope ok\n");
  return errors != 0;
}

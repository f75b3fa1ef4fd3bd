// declare create on globals used by a routine seq; update moves values between copies.
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

#define N 512
double gtable[N];
#pragma acc declare create(gtable)
int gcount;
#pragma acc declare create(gcount)

#pragma acc routine seq
static double lookup(int i) { return gtable[i % N] * 2.0; }

int main(void) {
  PRESENT(gtable, sizeof gtable, 1);
  for (int i = 0; i < N; i++) gtable[i] = i * 0.25;
  #pragma acc update device(gtable)
  double out[1000];
  #pragma acc parallel loop copyout(out)
  for (int i = 0; i < 1000; i++) out[i] = lookup(i);
  for (int i = 0; i < 1000; i++) CHECK(out[i] == (i % N) * 0.5);
  gcount = 0;
  #pragma acc update device(gcount)
  #pragma acc parallel loop present(gcount)
  for (int i = 0; i < 300; i++) {
    #pragma acc atomic
    gcount++;
  }
  #pragma acc update self(gcount)
  CHECK(gcount == 300);
  #pragma acc parallel loop present(gtable)
  for (int i = 0; i < N; i++) gtable[i] = -gtable[i];
  #pragma acc update self(gtable[0:N])
  for (int i = 0; i < N; i++) CHECK(gtable[i] == -i * 0.25);
  if (errors == 0) printf("declare create on globals ok\n");
  return errors != 0;
}

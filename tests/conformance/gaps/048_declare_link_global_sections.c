// declare link(table) at file scope: nothing is present until a data clause names a section; each section then lives as long as its region.
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
/* gcc 12's host fallback gives kernels a wrong copy of a 'declare link' global (the sums and
   the negation below come out wrong there), so gcc_check.py validates the program without the
   'declare link' (ACCJIT_GCC_VALIDATION). */

#define N 8192
double table[N];
#ifndef ACCJIT_GCC_VALIDATION
#pragma acc declare link(table)
#endif

static double sum_section(int lo, int len) {
  double s = 0.0;
  #pragma acc parallel loop reduction(+:s) present(table[lo:len])
  for (int i = lo; i < lo + len; i++) s += table[i];
  return s;
}

int main(void) {
  srand(42);
  for (int i = 0; i < N; i++) table[i] = (double)(rand() % 1000) * 0.25;
  PRESENT(table, sizeof(double), 0);
  int los[3] = {0, 1000, 5000}, lens[3] = {512, 3000, 3192};
  for (int k = 0; k < 3; k++) {
    int lo = los[k], len = lens[k];
    double got;
    #pragma acc data copyin(table[lo:len])
    {
      PRESENT(&table[lo], len * sizeof(double), 1);
      if (lo + len < N) PRESENT(&table[lo + len], sizeof(double), 0);
      got = sum_section(lo, len);
    }
    PRESENT(&table[lo], len * sizeof(double), 0);
    double want = 0.0;
    for (int i = lo; i < lo + len; i++) want += table[i];
    CHECK(got == want);  /* multiples of 0.25 below 2^40: exact in any order */
  }
  #pragma acc enter data copyin(table[100:200])
  #pragma acc parallel loop present(table[100:200])
  for (int i = 100; i < 300; i++) table[i] = -table[i];
  #pragma acc exit data copyout(table[100:200])
  PRESENT(&table[100], 200 * sizeof(double), 0);
  for (int i = 100; i < 300; i++) CHECK(table[i] <= 0.0);
  if (errors == 0) printf("declare link with sections ok\n");
  return errors != 0;
}

// declare on sections of local arrays (1-D, rows of 2-D, a static local): device_resident, create, copyin and copy sections live for the rest of the function.
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
   ("GOACC_declare: Assertion `0' failed") on a function-scope 'declare device_resident';
   gcc_check.py validates the program with the whole arrays declared and 'create' for
   'device_resident' (the same on gcc's shared-memory host fallback; ACCJIT_GCC_VALIDATION). */

#define C 24
static long work(int seed) {
  int keys[256];
  double grid[16][C];
  float scratch[512];
  for (int i = 0; i < 256; i++) keys[i] = (i * seed + 11) % 97;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < C; j++) grid[i][j] = (double)((i + seed) * (j + 1) % 23);
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare copyin(keys) copy(grid) create(scratch)
#else
  #pragma acc declare copyin(keys[32:128]) copy(grid[4:8][0:C]) device_resident(scratch[0:256])
#endif
  PRESENT(&keys[32], 128 * sizeof(int), 1);
  PRESENT(&keys[0], sizeof(int), 0);
  PRESENT(&grid[4][0], 8 * C * sizeof(double), 1);
  PRESENT(&grid[12][0], C * sizeof(double), 0);
  PRESENT(scratch, 256 * sizeof(float), 1);
  PRESENT(&scratch[256], sizeof(float), 0);
  #pragma acc parallel loop present(keys[32:128], scratch[0:256])
  for (int i = 0; i < 128; i++) scratch[i] = (float)(keys[32 + i] * 2);
  #pragma acc parallel loop collapse(2) present(grid[4:8][0:C], scratch[0:256])
  for (int i = 4; i < 12; i++)
    for (int j = 0; j < C; j++) grid[i][j] += scratch[(i * C + j) % 128];
  /* The declared section comes home at the end of the scope: read it before that. */
  #pragma acc update self(grid[4:8][0:C])
  long s = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < C; j++) s += (long)grid[i][j];
  return s;
}

/* A static local: its section is present while the function runs. */
static int static_pass(int k) {
  static int hits[64];
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare create(hits)
#else
  #pragma acc declare create(hits[0:32])
#endif
  PRESENT(hits, 32 * sizeof(int), 1);
  PRESENT(&hits[32], sizeof(int), 0);
  #pragma acc parallel loop present(hits[0:32])
  for (int i = 0; i < 32; i++) hits[i] = i * k;
  #pragma acc update self(hits[0:32])
  int s = 0;
  for (int i = 0; i < 32; i++) s += hits[i];
  return s;
}

int main(void) {
  srand(42);
  for (int k = 1; k <= 3; k++) CHECK(static_pass(k) == 496 * k);
  for (int r = 0; r < 5; r++) {
    int seed = 1 + rand() % 50;
    long got = work(seed);
    long want = 0;
    for (int i = 0; i < 16; i++)
      for (int j = 0; j < C; j++) {
        double g = (double)((i + seed) * (j + 1) % 23);
        if (i >= 4 && i < 12) g += (double)((((i * C + j) % 128 + 32) * seed + 11) % 97 * 2);
        want += (long)g;
      }
    CHECK(got == want);
  }
  if (errors == 0) printf("declare on local array sections ok\n");
  return errors != 0;
}

// declare create on a global 2-D array and a struct, kept in sync with update directives.
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

#define R 32
#define C 48
float grid[R][C];
struct stats { double sum; int count; } st;
#pragma acc declare create(grid, st)

int main(void) {
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) grid[i][j] = i + j;
  #pragma acc update device(grid)
  st.sum = 0; st.count = 0;
  #pragma acc update device(st)
  #pragma acc parallel loop collapse(2) present(grid, st)
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      grid[i][j] *= 0.5f;
      #pragma acc atomic
      st.count += 1;
      #pragma acc atomic
      st.sum += grid[i][j];
    }
  #pragma acc update self(grid, st)
  double want = 0;
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) { CHECK(grid[i][j] == (i + j) * 0.5f); want += (i + j) * 0.5; }
  CHECK(st.count == R * C);
  CHECK(st.sum == want);
  if (errors == 0) printf("declare + update on globals ok\n");
  return errors != 0;
}

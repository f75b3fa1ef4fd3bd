// Halo exchange shape: interior on the device, boundary rows updated to/from the host each step.
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

#define R 20
#define C 30

int main(void) {
  static double g[R][C], ref[R][C], tmp[R][C];
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) ref[i][j] = g[i][j] = (i * 7 + j * 3) % 11;
  #pragma acc enter data copyin(g)
  for (int step = 0; step < 4; step++) {
    #pragma acc update self(g[1:1][0:C], g[R-2:1][0:C])
    for (int j = 0; j < C; j++) { g[0][j] = g[R - 2][j]; g[R - 1][j] = g[1][j]; }   /* periodic rows on the host */
    #pragma acc update device(g[0:1][0:C], g[R-1:1][0:C])
    #pragma acc parallel loop collapse(2) present(g) copyout(tmp[1:R-2][0:C])
    for (int i = 1; i < R - 1; i++)
      for (int j = 0; j < C; j++) tmp[i][j] = 0.5 * g[i][j] + 0.25 * (g[i - 1][j] + g[i + 1][j]);
    #pragma acc parallel loop collapse(2) present(g) copyin(tmp[1:R-2][0:C])
    for (int i = 1; i < R - 1; i++)
      for (int j = 0; j < C; j++) g[i][j] = tmp[i][j];
    for (int j = 0; j < C; j++) { ref[0][j] = ref[R - 2][j]; ref[R - 1][j] = ref[1][j]; }
    static double t2[R][C];
    for (int i = 1; i < R - 1; i++) for (int j = 0; j < C; j++) t2[i][j] = 0.5 * ref[i][j] + 0.25 * (ref[i - 1][j] + ref[i + 1][j]);
    for (int i = 1; i < R - 1; i++) for (int j = 0; j < C; j++) ref[i][j] = t2[i][j];
  }
  #pragma acc exit data copyout(g)
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) CHECK(g[i][j] == ref[i][j]);
  if (errors == 0) printf("halo exchange ok\n");
  return errors != 0;
}

// copyout of an array of structs and of a 3-D array section built on the device.
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

typedef struct { int i; float f; char c; } cell;

int main(void) {
  const int n = 600;
  cell *cells = malloc(n * sizeof(cell));
  #pragma acc parallel loop copyout(cells[0:n])
  for (int k = 0; k < n; k++) { cells[k].i = k; cells[k].f = k * 0.5f; cells[k].c = (char)('a' + k % 26); }
  for (int k = 0; k < n; k++) CHECK(cells[k].i == k && cells[k].f == k * 0.5f && cells[k].c == 'a' + k % 26);
  static short cube[6][7][8];
  #pragma acc parallel loop collapse(3) copyout(cube[1:4][0:7][0:8])
  for (int i = 1; i < 5; i++)
    for (int j = 0; j < 7; j++)
      for (int k = 0; k < 8; k++) cube[i][j][k] = (short)(i * 100 + j * 10 + k);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 7; j++)
      for (int k = 0; k < 8; k++) CHECK(cube[i][j][k] == ((i >= 1 && i < 5) ? i * 100 + j * 10 + k : 0));
  free(cells);
  if (errors == 0) printf("copyout of structs and 3-D sections ok\n");
  return errors != 0;
}

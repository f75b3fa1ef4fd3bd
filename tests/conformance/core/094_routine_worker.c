// routine worker: a function with a worker loop (and a vector loop inside) from a gang loop.
#include <stdio.h>
#include <stdlib.h>

#define NB 16
#define NR 24
#define NC 40

#pragma acc routine worker
static void block_fill(int b, int nr, int nc, int *blk) {
  #pragma acc loop worker
  for (int r = 0; r < nr; r++) {
    #pragma acc loop vector
    for (int c = 0; c < nc; c++) blk[r * nc + c] = b * 10000 + r * 100 + c;
  }
}

int main(void) {
  int *m = malloc(NB * NR * NC * sizeof(int));
  #pragma acc parallel loop gang num_workers(4) copyout(m[0:NB*NR*NC])
  for (int b = 0; b < NB; b++) block_fill(b, NR, NC, &m[b * NR * NC]);
  int errors = 0;
  for (int b = 0; b < NB; b++)
    for (int r = 0; r < NR; r++)
      for (int c = 0; c < NC; c++)
        if (m[(b * NR + r) * NC + c] != b * 10000 + r * 100 + c) { if (errors++ < 3) printf("FAIL %d %d %d\n", b, r, c); }
  free(m);
  if (errors == 0) printf("routine worker ok\n");
  return errors != 0;
}

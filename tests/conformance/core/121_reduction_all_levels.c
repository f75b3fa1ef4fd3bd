// Reductions at gang, worker and vector level in one nest, each level feeding the next.
#include <stdio.h>
#include <stdlib.h>

#define A 12
#define B 10
#define C 50

int main(void) {
  static int d[A][B][C];
  srand(19);
  for (int i = 0; i < A; i++) for (int j = 0; j < B; j++) for (int k = 0; k < C; k++) d[i][j][k] = rand() % 10;
  long total = 0;
  int best_plane = 0;
  #pragma acc parallel num_gangs(4) num_workers(4) vector_length(32) copyin(d) reduction(+:total) reduction(max:best_plane)
  {
    #pragma acc loop gang reduction(+:total) reduction(max:best_plane)
    for (int i = 0; i < A; i++) {
      int plane = 0;
      #pragma acc loop worker reduction(+:plane)
      for (int j = 0; j < B; j++) {
        int row = 0;
        #pragma acc loop vector reduction(+:row)
        for (int k = 0; k < C; k++) row += d[i][j][k];
        plane += row;
      }
      total += plane;
      if (plane > best_plane) best_plane = plane;
    }
  }
  long wt = 0; int wb = 0;
  for (int i = 0; i < A; i++) {
    int p = 0;
    for (int j = 0; j < B; j++) for (int k = 0; k < C; k++) p += d[i][j][k];
    wt += p; if (p > wb) wb = p;
  }
  int errors = 0;
  if (total != wt || best_plane != wb) { errors++; printf("FAIL %ld %ld %d %d\n", total, wt, best_plane, wb); }
  if (errors == 0) printf("multi-level reductions ok\n");
  return errors != 0;
}

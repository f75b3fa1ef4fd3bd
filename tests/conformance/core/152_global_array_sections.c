// Global arrays used in array sections a[0:N] in data clauses, global scalars, global 2-D arrays.
#include <stdio.h>
#include <stdlib.h>

#define N 4096
float ga[N], gb[N], gc[N];
int gcount;
double grid[64][32];
const int gn = N;

static void init(void) {
  srand(42);
  for (int i = 0; i < N; i++) { ga[i] = rand() % 100; gb[i] = rand() % 100; gc[i] = 0; }
  for (int i = 0; i < 64; i++) for (int j = 0; j < 32; j++) grid[i][j] = i - j;
}

int main(void) {
  init();
  #pragma acc parallel loop copyin(ga[0:N], gb[0:N]) copyout(gc[0:N])
  for (int i = 0; i < N; i++) gc[i] = ga[i] * gb[i];
  gcount = 0;
  #pragma acc parallel loop copyin(gc[0:gn]) reduction(+:gcount)
  for (int i = 0; i < gn; i++) gcount += gc[i] > 2500.0f;
  #pragma acc parallel loop copy(grid[0:64][0:32])
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 32; j++) grid[i][j] = grid[i][j] * grid[i][j];
  #pragma acc parallel loop copy(ga[N/2:N/2])
  for (int i = N / 2; i < N; i++) ga[i] = -1.0f;
  int errors = 0, want = 0;
  for (int i = 0; i < N; i++) {
    if (gc[i] != ga[i < N / 2 ? i : 0] * 0 + gc[i]) { errors++; break; }
    want += gc[i] > 2500.0f;
  }
  srand(42);
  for (int i = 0; i < N; i++) {
    float a = rand() % 100, b = rand() % 100;
    if (gc[i] != a * b) { errors++; printf("FAIL gc[%d]\n", i); break; }
    if ((i < N / 2 && ga[i] != a) || (i >= N / 2 && ga[i] != -1.0f)) { errors++; printf("FAIL ga[%d]\n", i); break; }
  }
  if (gcount != want) { errors++; printf("FAIL count %d %d\n", gcount, want); }
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 32; j++) if (grid[i][j] != (double)(i - j) * (i - j)) { errors++; printf("FAIL grid\n"); i = 64; break; }
  if (errors == 0) printf("global array sections ok\n");
  return errors != 0;
}

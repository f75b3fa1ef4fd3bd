// private fixed-size arrays: per-iteration scratch buffers (a small sort per row).
#include <stdio.h>
#include <stdlib.h>

#define R 500
#define K 8

int main(void) {
  static int in[R][K], med[R];
  srand(14);
  for (int i = 0; i < R; i++)
    for (int k = 0; k < K; k++) in[i][k] = rand() % 1000;
  int tmp[K];
  #pragma acc parallel loop private(tmp) copyin(in) copyout(med)
  for (int i = 0; i < R; i++) {
    for (int k = 0; k < K; k++) tmp[k] = in[i][k];
    for (int a = 1; a < K; a++) {                 /* insertion sort in the private copy */
      int v = tmp[a], b = a - 1;
      while (b >= 0 && tmp[b] > v) { tmp[b + 1] = tmp[b]; b--; }
      tmp[b + 1] = v;
    }
    med[i] = tmp[K / 2 - 1] + tmp[K / 2];
  }
  int errors = 0;
  for (int i = 0; i < R; i++) {
    int below = 0, want = med[i];
    for (int k = 0; k < K; k++) below += 2 * in[i][k] < want;
    int atmost = 0;
    for (int k = 0; k < K; k++) atmost += 2 * in[i][k] <= want;
    if (below > K / 2 || atmost < K / 2) { if (errors++ < 5) printf("FAIL median row %d\n", i); }
  }
  double hist[4];
  #pragma acc parallel loop gang private(hist) copyin(in) copyout(med)
  for (int i = 0; i < R; i++) {
    for (int h = 0; h < 4; h++) hist[h] = 0;
    for (int k = 0; k < K; k++) hist[in[i][k] / 250] += 1;
    med[i] = (int)(hist[0] * 1000 + hist[3]);
  }
  for (int i = 0; i < R; i++) {
    int h0 = 0, h3 = 0;
    for (int k = 0; k < K; k++) { h0 += in[i][k] < 250; h3 += in[i][k] >= 750; }
    if (med[i] != h0 * 1000 + h3) { errors++; printf("FAIL hist row %d\n", i); break; }
  }
  if (errors == 0) printf("private arrays ok\n");
  return errors != 0;
}

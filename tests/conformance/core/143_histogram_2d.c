// 2-D histogram with atomics in a collapse(2) loop, plus a row-wise reduction check.
#include <stdio.h>
#include <stdlib.h>

#define W 200
#define H 150
#define BX 8
#define BY 6

int main(void) {
  static unsigned char img[H][W];
  static int hist[BY][BX];
  srand(77);
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) img[y][x] = (unsigned char)(rand() % 256);
  for (int i = 0; i < BY; i++) for (int j = 0; j < BX; j++) hist[i][j] = 0;
  #pragma acc parallel loop collapse(2) copyin(img) copy(hist)
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      if (img[y][x] < 128) continue;
      int by = y * BY / H, bx = x * BX / W;
      #pragma acc atomic update
      hist[by][bx] += 1;
    }
  int errors = 0;
  static int want[BY][BX];
  long total = 0, wtotal = 0;
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) if (img[y][x] >= 128) { want[y * BY / H][x * BX / W]++; wtotal++; }
  for (int i = 0; i < BY; i++)
    for (int j = 0; j < BX; j++) {
      total += hist[i][j];
      if (hist[i][j] != want[i][j]) { errors++; printf("FAIL bin %d,%d: %d %d\n", i, j, hist[i][j], want[i][j]); }
    }
  if (total != wtotal) { errors++; printf("FAIL total\n"); }
  if (errors == 0) printf("2-D histogram ok\n");
  return errors != 0;
}

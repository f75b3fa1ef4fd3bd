// Mandelbrot escape counts with collapse(2); checked against a host computation and symmetry.
#include <stdio.h>

#define W 96
#define H 64
#define MAXIT 200

#pragma acc routine seq
static int escape(double cr, double ci) {
  double zr = 0, zi = 0;
  int it = 0;
  while (it < MAXIT && zr * zr + zi * zi <= 4.0) {
    double t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    it++;
  }
  return it;
}

int main(void) {
  static int img[H][W];
  #pragma acc parallel loop collapse(2) copyout(img)
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y][x] = escape(-2.0 + 3.0 * x / W, -1.0 + 2.0 * y / H);
  int errors = 0;
  long inside = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      if (img[y][x] != escape(-2.0 + 3.0 * x / W, -1.0 + 2.0 * y / H)) { errors++; printf("FAIL (%d,%d)\n", x, y); y = H; break; }
      inside += img[y][x] == MAXIT;
    }
  for (int y = 1; y < H; y++)
    for (int x = 0; x < W; x++)
      if (img[y][x] != img[H - y][x]) { errors++; printf("FAIL symmetry at (%d,%d)\n", x, y); y = H; break; }
  if (inside < 500 || inside > 2500) { errors++; printf("FAIL area count %ld\n", inside); }
  if (errors == 0) printf("mandelbrot ok (%ld points inside)\n", inside);
  return errors != 0;
}

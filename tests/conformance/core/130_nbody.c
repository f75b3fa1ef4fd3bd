// A small n-body step: all-pairs accelerations with a seq inner loop, then integration.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define NB 256

typedef struct { double x, y, z, m; } body;

int main(void) {
  static body p[NB];
  static double ax[NB], ay[NB], az[NB], rx[NB], ry[NB], rz[NB];
  srand(42);
  for (int i = 0; i < NB; i++) {
    p[i].x = rand() / (double)RAND_MAX; p[i].y = rand() / (double)RAND_MAX;
    p[i].z = rand() / (double)RAND_MAX; p[i].m = 0.5 + rand() / (double)RAND_MAX;
  }
  const double soft = 1e-3;
  #pragma acc parallel loop gang vector copyin(p) copyout(ax, ay, az)
  for (int i = 0; i < NB; i++) {
    double fx = 0, fy = 0, fz = 0;
    #pragma acc loop seq
    for (int j = 0; j < NB; j++) {
      double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
      double r2 = dx * dx + dy * dy + dz * dz + soft;
      double inv = p[j].m / (r2 * sqrt(r2));
      fx += dx * inv; fy += dy * inv; fz += dz * inv;
    }
    ax[i] = fx; ay[i] = fy; az[i] = fz;
  }
  for (int i = 0; i < NB; i++) {
    double fx = 0, fy = 0, fz = 0;
    for (int j = 0; j < NB; j++) {
      double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
      double r2 = dx * dx + dy * dy + dz * dz + soft;
      double inv = p[j].m / (r2 * sqrt(r2));
      fx += dx * inv; fy += dy * inv; fz += dz * inv;
    }
    rx[i] = fx; ry[i] = fy; rz[i] = fz;
  }
  int errors = 0;
  double mom = 0;
  for (int i = 0; i < NB; i++) {
    if (fabs(ax[i] - rx[i]) > 1e-9 * (1 + fabs(rx[i])) || fabs(ay[i] - ry[i]) > 1e-9 * (1 + fabs(ry[i])) || fabs(az[i] - rz[i]) > 1e-9 * (1 + fabs(rz[i]))) { errors++; printf("FAIL body %d\n", i); break; }
    mom += p[i].m * ax[i];
  }
  if (fabs(mom) > 1e-6 * NB) { errors++; printf("FAIL momentum not conserved %g\n", mom); }
  if (errors == 0) printf("n-body ok\n");
  return errors != 0;
}

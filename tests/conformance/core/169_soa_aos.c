// Structure-of-arrays vs array-of-structures layouts give the same physics on the device.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

typedef struct { float x, y, z; } p3;
typedef struct { float *x, *y, *z; int n; } soa;

int main(void) {
  const int n = 3000;
  p3 *aos = malloc(n * sizeof(p3));
  soa s = {malloc(n * sizeof(float)), malloc(n * sizeof(float)), malloc(n * sizeof(float)), n};
  srand(42);
  for (int i = 0; i < n; i++) {
    aos[i].x = s.x[i] = rand() % 100 / 10.0f;
    aos[i].y = s.y[i] = rand() % 100 / 10.0f;
    aos[i].z = s.z[i] = rand() % 100 / 10.0f;
  }
  float *sx = s.x, *sy = s.y, *sz = s.z;
  #pragma acc parallel loop copy(aos[0:n])
  for (int i = 0; i < n; i++) { float r = sqrtf(aos[i].x * aos[i].x + aos[i].y * aos[i].y + aos[i].z * aos[i].z) + 1.0f; aos[i].x /= r; aos[i].y /= r; aos[i].z /= r; }
  #pragma acc parallel loop copy(sx[0:n], sy[0:n], sz[0:n])
  for (int i = 0; i < n; i++) { float r = sqrtf(sx[i] * sx[i] + sy[i] * sy[i] + sz[i] * sz[i]) + 1.0f; sx[i] /= r; sy[i] /= r; sz[i] /= r; }
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (aos[i].x != s.x[i] || aos[i].y != s.y[i] || aos[i].z != s.z[i]) { errors++; printf("FAIL %d\n", i); break; }
  free(aos); free(s.x); free(s.y); free(s.z);
  if (errors == 0) printf("SoA/AoS ok\n");
  return errors != 0;
}

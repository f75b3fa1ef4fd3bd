// Arrays of structs in data clauses; struct fields updated in a parallel loop.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

typedef struct { float x, y, vx, vy; int alive; } particle;

int main(void) {
  const int n = 3000;
  particle *p = malloc(n * sizeof(particle));
  srand(8);
  for (int i = 0; i < n; i++) {
    p[i].x = rand() % 100; p[i].y = rand() % 100;
    p[i].vx = (rand() % 21 - 10) * 0.25f; p[i].vy = (rand() % 21 - 10) * 0.25f;
    p[i].alive = 1;
  }
  particle *orig = malloc(n * sizeof(particle));
  for (int i = 0; i < n; i++) orig[i] = p[i];
  int alive = 0;
  #pragma acc parallel loop copy(p[0:n]) reduction(+:alive)
  for (int i = 0; i < n; i++) {
    for (int s = 0; s < 4; s++) { p[i].x += p[i].vx; p[i].y += p[i].vy; }
    if (p[i].x < 0 || p[i].x >= 100 || p[i].y < 0 || p[i].y >= 100) p[i].alive = 0;
    alive += p[i].alive;
  }
  int errors = 0, walive = 0;
  for (int i = 0; i < n; i++) {
    float x = orig[i].x + 4 * orig[i].vx, y = orig[i].y + 4 * orig[i].vy;
    int a = !(x < 0 || x >= 100 || y < 0 || y >= 100);
    walive += a;
    if (fabsf(p[i].x - x) > 1e-4f || fabsf(p[i].y - y) > 1e-4f || p[i].alive != a) { errors++; printf("FAIL particle %d\n", i); break; }
  }
  if (alive != walive) { errors++; printf("FAIL alive %d %d\n", alive, walive); }
  free(p); free(orig);
  if (errors == 0) printf("struct arrays ok\n");
  return errors != 0;
}

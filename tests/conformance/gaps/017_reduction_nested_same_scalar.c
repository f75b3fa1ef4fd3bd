// the same scalar reduced again in nested loops: parallel reduction(+:s), loop gang reduction(+:s), loop worker and vector reduction(+:s); max and * too.
// gcc 12 -fopenacc accepts and passes this program (gcc_check.py).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int G = 12, W = 4, V = 100;
  int *v = malloc(G * W * V * sizeof(int));
  srand(42);
  for (int i = 0; i < G * W * V; i++) v[i] = rand() % 1000 - 500;
  long s = 11;
  int mx = -1000;
  #pragma acc parallel num_gangs(4) num_workers(2) copyin(v[0:G*W*V]) reduction(+:s) reduction(max:mx)
  {
    #pragma acc loop gang reduction(+:s) reduction(max:mx)
    for (int g = 0; g < G; g++) {
      #pragma acc loop worker reduction(+:s) reduction(max:mx)
      for (int k = 0; k < W; k++) {
        #pragma acc loop vector reduction(+:s) reduction(max:mx)
        for (int j = 0; j < V; j++) {
          int x = v[(g * W + k) * V + j];
          s += x;
          if (x > mx) mx = x;
        }
      }
    }
  }
  long ws = 11;
  int wmx = -1000;
  for (int i = 0; i < G * W * V; i++) { ws += v[i]; if (v[i] > wmx) wmx = v[i]; }
  int errors = 0;
  if (s != ws) { errors++; printf("FAIL sum %ld %ld\n", s, ws); }
  if (mx != wmx) { errors++; printf("FAIL max %d %d\n", mx, wmx); }
  double p = 1.0;
  #pragma acc parallel loop gang reduction(*:p) copyin(v[0:G*W*V])
  for (int g = 0; g < G; g++) {
    #pragma acc loop vector reduction(*:p)
    for (int j = 0; j < 3; j++) p *= (v[g * 3 + j] % 4 == 0) ? 2.0 : ((v[g * 3 + j] % 4 == 1) ? 0.5 : 1.0);
  }
  double wp = 1.0;
  for (int g = 0; g < G; g++) for (int j = 0; j < 3; j++) wp *= (v[g * 3 + j] % 4 == 0) ? 2.0 : ((v[g * 3 + j] % 4 == 1) ? 0.5 : 1.0);
  if (p != wp) { errors++; printf("FAIL product %g %g\n", p, wp); }
  free(v);
  if (errors == 0) printf("nested re-reductions ok\n");
  return errors != 0;
}

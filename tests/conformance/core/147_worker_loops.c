// worker-level loops: worker partitioning inside gangs, worker private, worker reduction.
#include <stdio.h>
#include <stdlib.h>

#define G 10
#define WK 37

int main(void) {
  static int out[G][WK];
  long total = 0;
  #pragma acc parallel num_gangs(G) num_workers(4) copyout(out) reduction(+:total)
  {
    #pragma acc loop gang reduction(+:total)
    for (int g = 0; g < G; g++) {
      int part = 0;
      #pragma acc loop worker reduction(+:part)
      for (int w = 0; w < WK; w++) {
        int t = g * 100 + w;
        out[g][w] = t;
        part += t;
      }
      total += part;
    }
  }
  int errors = 0;
  long want = 0;
  for (int g = 0; g < G; g++)
    for (int w = 0; w < WK; w++) {
      want += g * 100 + w;
      if (out[g][w] != g * 100 + w) { errors++; printf("FAIL out[%d][%d]\n", g, w); g = G; break; }
    }
  if (total != want) { errors++; printf("FAIL total %ld %ld\n", total, want); }
  int arr[300];
  #pragma acc parallel loop worker copyout(arr)
  for (int i = 0; i < 300; i++) arr[i] = i % 17;
  for (int i = 0; i < 300; i++) if (arr[i] != i % 17) { errors++; printf("FAIL worker-only loop\n"); break; }
  if (errors == 0) printf("worker loops ok\n");
  return errors != 0;
}

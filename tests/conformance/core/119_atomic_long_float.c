// atomics on long, unsigned long, float and short-lived counters inside nested gang/vector loops.
#include <stdio.h>

#define G 32
#define V 128

int main(void) {
  long lsum = 0;
  unsigned long usum = 0;
  float fsum = 0.0f;
  long per_gang[G];
  for (int g = 0; g < G; g++) per_gang[g] = 0;
  #pragma acc parallel loop gang copy(lsum, usum, fsum, per_gang)
  for (int g = 0; g < G; g++) {
    #pragma acc loop vector
    for (int v = 0; v < V; v++) {
      long val = (long)g * 1000000000L + v;
      #pragma acc atomic
      lsum += val;
      #pragma acc atomic
      usum += (unsigned long)v;
      #pragma acc atomic
      fsum += 0.5f;
      #pragma acc atomic
      per_gang[g] += v;
    }
  }
  long want = 0;
  for (int g = 0; g < G; g++) for (int v = 0; v < V; v++) want += (long)g * 1000000000L + v;
  int errors = 0;
  if (lsum != want) { errors++; printf("FAIL long %ld %ld\n", lsum, want); }
  if (usum != (unsigned long)G * (V * (V - 1) / 2)) { errors++; printf("FAIL unsigned long %lu\n", usum); }
  if (fsum != 0.5f * G * V) { errors++; printf("FAIL float %g\n", fsum); }
  for (int g = 0; g < G; g++) if (per_gang[g] != V * (V - 1) / 2) { errors++; printf("FAIL per_gang[%d]\n", g); break; }
  if (errors == 0) printf("atomic long/float ok\n");
  return errors != 0;
}

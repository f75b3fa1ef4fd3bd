// Histogram with atomic update under heavy contention (few bins, many iterations).
#include <stdio.h>
#include <stdlib.h>

#define BINS 16

int main(void) {
  const int n = 50000;
  unsigned char *data = malloc(n);
  srand(42);
  for (int i = 0; i < n; i++) data[i] = (unsigned char)(rand() % 256);
  int hist[BINS] = {0};
  long weighted[BINS] = {0};
  #pragma acc parallel loop copyin(data[0:n]) copy(hist, weighted)
  for (int i = 0; i < n; i++) {
    int b = data[i] / (256 / BINS);
    #pragma acc atomic update
    hist[b]++;
    #pragma acc atomic update
    weighted[b] += data[i];
  }
  int want[BINS] = {0};
  long wwant[BINS] = {0};
  for (int i = 0; i < n; i++) { want[data[i] / 16]++; wwant[data[i] / 16] += data[i]; }
  int errors = 0, total = 0;
  for (int b = 0; b < BINS; b++) {
    total += hist[b];
    if (hist[b] != want[b] || weighted[b] != wwant[b]) { errors++; printf("FAIL bin %d: %d/%d %ld/%ld\n", b, hist[b], want[b], weighted[b], wwant[b]); }
  }
  if (total != n) { errors++; printf("FAIL total %d\n", total); }
  int one_bin = 0;
  #pragma acc parallel loop copy(one_bin)
  for (int i = 0; i < n; i++) {
    #pragma acc atomic
    one_bin += 1;
  }
  if (one_bin != n) { errors++; printf("FAIL single counter %d\n", one_bin); }
  free(data);
  if (errors == 0) printf("atomic histogram ok\n");
  return errors != 0;
}

// Validation-suite style atomic tests: each test function returns an error count.
#include <stdio.h>
#include <stdlib.h>

#define SEED 7
#define N 2048
#define BINS 10

static int test_atomic_plus_histogram(void) {
  int err = 0, *data = malloc(N * sizeof(int)), totals[BINS] = {0}, host[BINS] = {0};
  srand(SEED);
  for (int i = 0; i < N; i++) data[i] = rand() % BINS;
  #pragma acc data copyin(data[0:N]) copy(totals[0:BINS])
  {
    #pragma acc parallel loop
    for (int i = 0; i < N; i++) {
      #pragma acc atomic
      totals[data[i]] += 1;
    }
  }
  for (int i = 0; i < N; i++) host[data[i]] += 1;
  for (int b = 0; b < BINS; b++) if (totals[b] != host[b]) err++;
  free(data);
  return err;
}

static int test_atomic_capture_unique(void) {
  int err = 0, counter = 0, *slots = malloc(N * sizeof(int)), *used = calloc(N, sizeof(int));
  #pragma acc parallel loop copy(counter) copyout(slots[0:N])
  for (int i = 0; i < N; i++) {
    int mine;
    #pragma acc atomic capture
    mine = counter++;
    slots[i] = mine;
  }
  for (int i = 0; i < N; i++) { if (slots[i] < 0 || slots[i] >= N || used[slots[i]]) err++; else used[slots[i]] = 1; }
  if (counter != N) err++;
  free(slots); free(used);
  return err;
}

static int test_atomic_max_via_loop(void) {
  int err = 0;
  double *a = malloc(N * sizeof(double)), best = 0.0;
  srand(SEED);
  for (int i = 0; i < N; i++) a[i] = rand() / (double)RAND_MAX;
  #pragma acc parallel loop copyin(a[0:N]) reduction(max:best)
  for (int i = 0; i < N; i++) if (a[i] > best) best = a[i];
  double host = 0.0;
  for (int i = 0; i < N; i++) if (a[i] > host) host = a[i];
  if (best != host) err++;
  free(a);
  return err;
}

int main(void) {
  int failcode = 0;
  if (test_atomic_plus_histogram()) { failcode |= 1; printf("FAIL histogram\n"); }
  if (test_atomic_capture_unique()) { failcode |= 2; printf("FAIL capture unique\n"); }
  if (test_atomic_max_via_loop()) { failcode |= 4; printf("FAIL max\n"); }
  if (failcode == 0) printf("atomic suite ok\n");
  return failcode;
}

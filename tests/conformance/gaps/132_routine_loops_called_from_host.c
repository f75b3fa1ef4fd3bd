// routine gang, worker, vector and seq procedures with acc loops called from host code: a host call runs as one gang,
// so every loop runs all of its iterations once; the same procedures called from a compute region give the same
// results. OpenACC 3.3 §2.15.1 (a routine is also compiled for the host unless nohost).
#include <stdio.h>
#include <stdlib.h>

#pragma acc routine gang
static void add_gang(int n, long *a, long v) {
  #pragma acc loop gang
  for (int i = 0; i < n; i++) a[i] += v + i % 3;
}

#pragma acc routine worker
static void add_worker(int n, long *a, long v) {
  #pragma acc loop worker
  for (int i = 0; i < n; i++) a[i] += 2 * v;
}

#pragma acc routine vector
static void add_vector(int n, long *a, long v) {
  #pragma acc loop vector
  for (int i = 0; i < n; i++) a[i] -= v;
}

#pragma acc routine seq
static long sum_seq(int n, const long *a) {
  long s = 0;
  #pragma acc loop seq
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}

int main(void) {
  const int n = 777;
  long *h = malloc(n * sizeof(long)), *d = malloc(n * sizeof(long)), *ref = malloc(n * sizeof(long));
  long sums[1];
  srand(42);
  for (int i = 0; i < n; i++) h[i] = d[i] = ref[i] = rand() % 10000;
  const long v = 1 + rand() % 50;
  add_gang(n, h, v);
  add_worker(n, h, v);
  add_vector(n, h, v);
  long hs = sum_seq(n, h);
  #pragma acc parallel num_gangs(6) copy(d[0:n])
  {
    add_gang(n, d, v);
    #pragma acc loop gang
    for (int c = 0; c < 3; c++) {
      if (c == 0) add_worker(n, d, v);
    }
  }
  #pragma acc parallel num_gangs(3) copy(d[0:n]) copyout(sums[0:1])
  {
    #pragma acc loop gang
    for (int c = 0; c < 1; c++) {
      add_vector(n, d, v);
      sums[0] = sum_seq(n, d);
    }
  }
  long rs = 0;
  for (int i = 0; i < n; i++) {
    ref[i] += v + i % 3 + 2 * v - v;
    rs += ref[i];
  }
  int errors = 0;
  for (int i = 0; i < n; i++) {
    if (h[i] != ref[i]) {
      if (errors++ < 5) printf("FAIL host h[%d] = %ld, expected %ld\n", i, h[i], ref[i]);
    }
    if (d[i] != ref[i]) {
      if (errors++ < 10) printf("FAIL device d[%d] = %ld, expected %ld\n", i, d[i], ref[i]);
    }
  }
  if (hs != rs) { printf("FAIL host sum %ld, expected %ld\n", hs, rs); errors++; }
  if (sums[0] != rs) { printf("FAIL device sum %ld, expected %ld\n", sums[0], rs); errors++; }
  free(h); free(d); free(ref);
  return errors != 0;
}

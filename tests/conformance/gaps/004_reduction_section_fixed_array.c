// reduction(+:a[lo:len]) on sections of fixed-size arrays (local and global) with a nonzero lower bound; elements outside are untouched.
// GCC 12 lacks the feature: array reductions end in an internal compiler error; the logic was checked with gcc without -fopenacc.
#include <stdio.h>
#include <stdlib.h>

int g[100];

int main(void) {
  const int n = 25000;
  int *v = malloc(n * sizeof(int));
  srand(42);
  for (int i = 0; i < n; i++) v[i] = rand() % 100000;
  unsigned a[64], w[64];
  for (int b = 0; b < 64; b++) { a[b] = 7u * b; w[b] = 7u * b; }
  const int lo = 8, len = 16;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:a[lo:len])
  for (int i = 0; i < n; i++) a[lo + v[i] % len] += (unsigned)v[i];
  for (int i = 0; i < n; i++) w[lo + v[i] % len] += (unsigned)v[i];
  int errors = 0;
  for (int b = 0; b < 64; b++) if (a[b] != w[b]) { errors++; printf("FAIL a[%d] %u %u\n", b, a[b], w[b]); }
  for (int b = 0; b < 100; b++) g[b] = 1000 + b;
  #pragma acc parallel loop copyin(v[0:n]) reduction(min:g[50:50])
  for (int i = 0; i < n; i++) {
    int j = 50 + v[i] % 50;
    int x = v[i] % 997 + j;
    if (x < g[j]) g[j] = x;
  }
  int gw[100];
  for (int b = 0; b < 100; b++) gw[b] = 1000 + b;
  for (int i = 0; i < n; i++) { int j = 50 + v[i] % 50; int x = v[i] % 997 + j; if (x < gw[j]) gw[j] = x; }
  for (int b = 0; b < 100; b++) if (g[b] != gw[b]) { errors++; printf("FAIL g[%d] %d %d\n", b, g[b], gw[b]); }
  free(v);
  if (errors == 0) printf("sections of fixed arrays ok\n");
  return errors != 0;
}

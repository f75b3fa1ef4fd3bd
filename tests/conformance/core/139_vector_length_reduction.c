// vector_length with vector-level reductions of different widths, including non-powers of two.
#include <stdio.h>
#include <stdlib.h>

static long run(int vl, const int *v, int n) {
  long s = 0;
  #pragma acc parallel loop gang vector vector_length(vl) copyin(v[0:n]) reduction(+:s)
  for (int i = 0; i < n; i++) s += v[i];
  return s;
}

int main(void) {
  const int n = 9999;
  int *v = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) v[i] = (i * 7) % 23 - 11;
  long want = 0;
  for (int i = 0; i < n; i++) want += v[i];
  int widths[] = {1, 2, 3, 8, 31, 32, 64, 100, 128, 256};
  int errors = 0;
  for (unsigned k = 0; k < sizeof widths / sizeof widths[0]; k++) {
    long s = run(widths[k], v, n);
    if (s != want) { errors++; printf("FAIL vector_length(%d): %ld vs %ld\n", widths[k], s, want); }
  }
  int mx = -100;
  #pragma acc parallel vector_length(64) copyin(v[0:n]) reduction(max:mx)
  {
    #pragma acc loop gang vector reduction(max:mx)
    for (int i = 0; i < n; i++) if (v[i] > mx) mx = v[i];
  }
  if (mx != 11) { errors++; printf("FAIL vector max %d\n", mx); }
  free(v);
  if (errors == 0) printf("vector_length reductions ok\n");
  return errors != 0;
}

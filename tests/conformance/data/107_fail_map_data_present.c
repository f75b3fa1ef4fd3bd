// expect: fail "present"
// acc_map_data on host data that is already present is an error.
// gcc 12's shared-memory host fallback does not report this error (the program exits 0 there); gcc_check.py only compiles it.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 32;
  int *h = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i;
  acc_copyin(h, n * sizeof(int));
  void *d = acc_malloc(n * sizeof(int));
  acc_map_data(h, d, n * sizeof(int));
  printf("FAIL: acc_map_data of present data returned\n");
  acc_free(d);
  free(h);
  return 0;
}

// A resource pool drained with atomic capture of decrements: v = x--; {x--; v = x;} {v = x; --x;}
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 5000, pool = 3000;
  int avail = pool, got = 0, avail2 = pool, avail3 = pool;
  char *granted = calloc(n, 1);
  int *after2 = malloc(n * sizeof(int)), *before3 = malloc(n * sizeof(int));
  #pragma acc parallel loop copy(avail, got, avail2, avail3) copy(granted[0:n]) copyout(after2[0:n], before3[0:n])
  for (int i = 0; i < n; i++) {
    int v;
    #pragma acc atomic capture
    v = avail--;
    if (v > 0) {
      granted[i] = 1;
      #pragma acc atomic update
      got++;
    }
    int w;
    #pragma acc atomic capture
    { avail2--; w = avail2; }
    after2[i] = w;
    int u;
    #pragma acc atomic capture
    { u = avail3; --avail3; }
    before3[i] = u;
  }
  int errors = 0, g = 0;
  for (int i = 0; i < n; i++) g += granted[i];
  if (got != pool || g != pool || avail != pool - n) { errors++; printf("FAIL pool %d %d %d\n", got, g, avail); }
  char *seen = calloc(n, 1);
  for (int i = 0; i < n; i++) {
    int k = pool - 1 - after2[i];
    if (k < 0 || k >= n || seen[k]) { errors++; printf("FAIL {x--; v = x;} capture %d\n", after2[i]); break; }
    seen[k] = 1;
  }
  for (int i = 0; i < n; i++) seen[i] = 0;
  for (int i = 0; i < n; i++) {
    int k = pool - before3[i];
    if (k < 0 || k >= n || seen[k]) { errors++; printf("FAIL {v = x; --x;} capture %d\n", before3[i]); break; }
    seen[k] = 1;
  }
  if (avail2 != pool - n || avail3 != pool - n) { errors++; printf("FAIL finals\n"); }
  free(granted); free(after2); free(before3); free(seen);
  if (errors == 0) printf("atomic capture pool ok\n");
  return errors != 0;
}

// Private storage per launch and per gang is released: 300 launches of num_gangs(64) with a 64 KiB private(buf[0:n]) and firstprivate(tab[0:k]) each.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>

#define L 300
#define NB 16384
#define K 64

int main(void) {
  int *buf = malloc(sizeof(int) * NB), *tab = malloc(sizeof(int) * K), *res = malloc(sizeof(int) * L * 64);
  srand(42);
  for (int k = 0; k < K; k++) tab[k] = rand() % 1000;
  for (int i = 0; i < NB; i++) buf[i] = 3;
  int n = NB, k = K;
  for (int l = 0; l < L; l++) {
    #pragma acc parallel loop gang num_gangs(64) private(buf[0:n]) firstprivate(tab[0:k]) copyout(res[l*64:64])
    for (int g = 0; g < 64; g++) {
      buf[0] = g;                                  /* touch both ends of the copy */
      buf[n - 1] = l;
      tab[g % k] += 1;                            /* only this gang's table */
      res[l * 64 + g] = buf[0] + buf[n - 1] + tab[g % k];
    }
    tab[l % K] ^= 1;                               /* the next launch copies the new host values */
  }
  int errors = 0;
  srand(42);
  int *want_tab = malloc(sizeof(int) * K);
  for (int j = 0; j < K; j++) want_tab[j] = rand() % 1000;
  for (int l = 0; l < L; l++) {
    for (int g = 0; g < 64; g++) {
      int want = g + l + want_tab[g % K] + 1;
      if (res[l * 64 + g] != want) { if (errors++ < 5) printf("FAIL launch %d gang %d: %d want %d\n", l, g, res[l * 64 + g], want); }
    }
    want_tab[l % K] ^= 1;
  }
  for (int i = 0; i < NB; i++)
    if (buf[i] != 3) { errors++; printf("FAIL host buf changed\n"); break; }
  free(buf); free(tab); free(res); free(want_tab);
  return errors != 0;
}

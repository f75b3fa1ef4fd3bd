// atomic capture, expression forms: v = x++; v = ++x; v = x--; v = --x; v = x op= e;
// v = x = x op e; v = x = e op x. Captured values must be a permutation of the sequence.
#include <stdio.h>
#include <stdlib.h>

static int check_perm(const int *v, int n, int lo, const char *what) {
  char *hit = calloc(n, 1);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int k = v[i] - lo;
    if (k < 0 || k >= n || hit[k]) bad++; else hit[k] = 1;
  }
  free(hit);
  if (bad) printf("FAIL %s: %d bad captures\n", what, bad);
  return bad != 0;
}

int main(void) {
  const int n = 3000;
  int *c1 = malloc(n * sizeof(int)), *c2 = malloc(n * sizeof(int)), *c3 = malloc(n * sizeof(int));
  int *c4 = malloc(n * sizeof(int)), *c5 = malloc(n * sizeof(int)), *c6 = malloc(n * sizeof(int)), *c7 = malloc(n * sizeof(int));
  int x1 = 0, x2 = 0, x3 = n, x4 = n, x5 = 0, x6 = 0, x7 = 0;
  #pragma acc parallel loop copy(x1, x2, x3, x4, x5, x6, x7) copyout(c1[0:n], c2[0:n], c3[0:n], c4[0:n], c5[0:n], c6[0:n], c7[0:n])
  for (int i = 0; i < n; i++) {
    int v;
    #pragma acc atomic capture
    v = x1++;
    c1[i] = v;
    #pragma acc atomic capture
    v = ++x2;
    c2[i] = v;
    #pragma acc atomic capture
    v = x3--;
    c3[i] = v;
    #pragma acc atomic capture
    v = --x4;
    c4[i] = v;
    #pragma acc atomic capture
    v = x5 += 2;
    c5[i] = v / 2;
    #pragma acc atomic capture
    v = x6 = x6 + 1;
    c6[i] = v;
    #pragma acc atomic capture
    v = x7 = 1 + x7;
    c7[i] = v;
  }
  int errors = 0;
  if (x1 != n || x2 != n || x3 != 0 || x4 != 0 || x5 != 2 * n || x6 != n || x7 != n) { errors++; printf("FAIL finals\n"); }
  errors += check_perm(c1, n, 0, "v = x++");
  errors += check_perm(c2, n, 1, "v = ++x");
  errors += check_perm(c3, n, 1, "v = x--");
  errors += check_perm(c4, n, 0, "v = --x");
  errors += check_perm(c5, n, 1, "v = x += 2");
  errors += check_perm(c6, n, 1, "v = x = x + 1");
  errors += check_perm(c7, n, 1, "v = x = 1 + x");
  free(c1); free(c2); free(c3); free(c4); free(c5); free(c6); free(c7);
  if (errors == 0) printf("atomic capture expressions ok\n");
  return errors != 0;
}

// atomic capture, structured-block forms: {v = x; x op= e;} {x op= e; v = x;} {v = x; x = e;}
// {v = x; x++;} {++x; v = x;} {x--; v = x;} {v = x; x = x op e;} {x = e op x; v = x;}
#include <stdio.h>
#include <stdlib.h>

static int perm(const long *v, int n, long lo, long step) {
  char *hit = calloc(n, 1);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    long d = v[i] - lo;
    if (d % step != 0 || d / step < 0 || d / step >= n || hit[d / step]) bad++; else hit[d / step] = 1;
  }
  free(hit);
  return bad;
}

int main(void) {
  const int n = 2000;
  long *c[8];
  for (int k = 0; k < 8; k++) c[k] = malloc(n * sizeof(long));
  long *c0 = c[0], *c1 = c[1], *c2 = c[2], *c3 = c[3], *c4 = c[4], *c5 = c[5], *c6 = c[6], *c7 = c[7];
  long x0 = 0, x1 = 0, x2 = -1, x3 = 0, x4 = 0, x5 = n, x6 = 0, x7 = 0;
  #pragma acc parallel loop copy(x0, x1, x2, x3, x4, x5, x6, x7) copyout(c0[0:n], c1[0:n], c2[0:n], c3[0:n], c4[0:n], c5[0:n], c6[0:n], c7[0:n])
  for (int i = 0; i < n; i++) {
    long v;
    #pragma acc atomic capture
    { v = x0; x0 += 3; }
    c0[i] = v;
    #pragma acc atomic capture
    { x1 += 3; v = x1; }
    c1[i] = v;
    #pragma acc atomic capture
    { v = x2; x2 = i; }
    c2[i] = v;
    #pragma acc atomic capture
    { v = x3; x3++; }
    c3[i] = v;
    #pragma acc atomic capture
    { ++x4; v = x4; }
    c4[i] = v;
    #pragma acc atomic capture
    { x5--; v = x5; }
    c5[i] = v;
    #pragma acc atomic capture
    { v = x6; x6 = x6 + 5; }
    c6[i] = v;
    #pragma acc atomic capture
    { x7 = 5 + x7; v = x7; }
    c7[i] = v;
  }
  int errors = 0;
  if (x0 != 3L * n || x1 != 3L * n || x3 != n || x4 != n || x5 != 0 || x6 != 5L * n || x7 != 5L * n) { errors++; printf("FAIL finals\n"); }
  if (perm(c0, n, 0, 3) || perm(c1, n, 3, 3)) { errors++; printf("FAIL op= forms\n"); }
  if (perm(c3, n, 0, 1) || perm(c4, n, 1, 1) || perm(c5, n, 0, 1)) { errors++; printf("FAIL ++/-- forms\n"); }
  if (perm(c6, n, 0, 5) || perm(c7, n, 5, 5)) { errors++; printf("FAIL x = x op e forms\n"); }
  /* swap form: the captured old values plus the final value are -1 and 0..n-1, each once */
  long *all = malloc((n + 1) * sizeof(long));
  for (int i = 0; i < n; i++) all[i] = c2[i];
  all[n] = x2;
  if (perm(all, n + 1, -1, 1)) { errors++; printf("FAIL swap form {v = x; x = e;}\n"); }
  free(all);
  for (int k = 0; k < 8; k++) free(c[k]);
  if (errors == 0) printf("atomic capture blocks ok\n");
  return errors != 0;
}

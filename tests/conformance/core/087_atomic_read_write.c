// atomic read and atomic write: v = x; and x = expr; inside compute regions.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 4096;
  int flag = 0;
  double level = 0.0;
  int *seen = malloc(n * sizeof(int));
  #pragma acc parallel loop copy(flag, level) copyout(seen[0:n])
  for (int i = 0; i < n; i++) {
    #pragma acc atomic write
    flag = 7;                           /* every iteration writes the same value */
    int v;
    #pragma acc atomic read
    v = flag;
    seen[i] = v;
    if (i == n - 1) {
      #pragma acc atomic write
      level = 2.5 * i;
    }
  }
  int errors = 0;
  if (flag != 7 || level != 2.5 * (n - 1)) { errors++; printf("FAIL writes %d %g\n", flag, level); }
  for (int i = 0; i < n; i++) if (seen[i] != 7) { errors++; printf("FAIL read %d = %d\n", i, seen[i]); break; }
  long big = 123456789012L, copy_of_big = 0;
  #pragma acc serial copy(big, copy_of_big)
  {
    #pragma acc atomic read
    copy_of_big = big;
    #pragma acc atomic write
    big = copy_of_big * 2 + 1;
  }
  if (copy_of_big != 123456789012L || big != 246913578025L) { errors++; printf("FAIL long read/write\n"); }
  float fx = 0.0f, fv = 0.0f;
  #pragma acc parallel num_gangs(2) copy(fx, fv)
  {
    #pragma acc atomic write
    fx = 1.25f;
    #pragma acc atomic read
    fv = fx;
  }
  if (fx != 1.25f || fv != 1.25f) { errors++; printf("FAIL float read/write\n"); }
  free(seen);
  if (errors == 0) printf("atomic read/write ok\n");
  return errors != 0;
}

// atomic update on int under contention, every statement form:
// x++; ++x; x--; --x; x op= e; x = x op e; x = e op x.
#include <stdio.h>

int main(void) {
  const int n = 10000;
  int a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0, k = 0;
  #pragma acc parallel loop copy(a, b, c, d, e, f, g, h, k)
  for (int i = 0; i < n; i++) {
    #pragma acc atomic update
    a++;
    #pragma acc atomic update
    ++b;
    #pragma acc atomic update
    c--;
    #pragma acc atomic update
    --d;
    #pragma acc atomic update
    e += i % 7;
    #pragma acc atomic update
    f = f + 3;
    #pragma acc atomic update
    g = 2 + g;
    #pragma acc atomic
    h -= 1;
    #pragma acc atomic
    k = k ^ (1 << (i % 5));
  }
  long we = 0;
  for (int i = 0; i < n; i++) we += i % 7;
  int errors = 0;
  if (a != n || b != n || c != -n || d != -n) { errors++; printf("FAIL inc/dec %d %d %d %d\n", a, b, c, d); }
  if (e != we || f != 3 * n || g != 2 * n || h != -n) { errors++; printf("FAIL binop forms %d %d %d %d\n", e, f, g, h); }
  if (k != 0) { errors++; printf("FAIL xor form %d\n", k); }      /* each bit toggled 2000 times */
  if (errors == 0) printf("atomic update int ok\n");
  return errors != 0;
}

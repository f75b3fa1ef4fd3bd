// expect: compile-error "collapse" 10:12
// collapse(2) without force over loops with a declaration between them: only collapse(force:2) allows intervening code (OpenACC 3.3 §2.9.1).
// Reported at the declaration (accjit: its declarator `s`; gcc 12: the type, column 5, same line).
#include <stdio.h>

int main(void) {
  double a[12][10];
  #pragma acc parallel loop collapse(2) copyout(a)
  for (int i = 0; i < 12; i++) {
    double s = i * 0.5;
    for (int j = 0; j < 10; j++) a[i][j] = s + j;
  }
  printf("%g\n", a[2][3]);
  return 0;
}

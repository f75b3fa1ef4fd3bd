// Sections with a non-zero lower bound: private(c[2:5]) and firstprivate(w[3:4]) on pointers, private(a[4:8]) on a fixed array; indices inside the section are valid.
// GCC 12 lacks the feature: a subarray in private/firstprivate is a parse error there ("expected ')' before '['"),
// so gcc_check.py reports a compile failure.
#include <stdio.h>
#include <stdlib.h>

#define N 1500

int main(void) {
  int *c = malloc(sizeof(int) * 10);
  int *w = malloc(sizeof(int) * 10);
  int *out = malloc(sizeof(int) * N);
  int *out2 = malloc(sizeof(int) * N);
  int a[16];
  srand(42);
  for (int k = 0; k < 10; k++) { c[k] = 1000 + k; w[k] = rand() % 50; }
  for (int k = 0; k < 16; k++) a[k] = -k;
  #pragma acc parallel loop gang private(c[2:5]) copyout(out[0:N])
  for (int i = 0; i < N; i++) {
    for (int k = 2; k < 7; k++) c[k] = i * k;
    int s = 0;
    for (int k = 2; k < 7; k++) s += c[k] - k;
    out[i] = s;
  }
  #pragma acc parallel num_gangs(16) firstprivate(w[3:4]) private(a[4:8]) copyout(out2[0:N])
  {
    #pragma acc loop gang
    for (int i = 0; i < N; i++) {
      for (int k = 4; k < 12; k++) a[k] = w[3 + k % 4] * (i % 7);
      int s = 0;
      for (int k = 4; k < 12; k++) s += a[k];
      out2[i] = s + w[3] - w[6];
    }
  }
  int errors = 0;
  int wsum = 0;
  for (int k = 3; k < 7; k++) wsum += w[k];
  for (int i = 0; i < N; i++) {
    int want = 0;
    for (int k = 2; k < 7; k++) want += i * k - k;
    if (out[i] != want) { if (errors++ < 5) printf("FAIL out[%d] = %d want %d\n", i, out[i], want); }
    int want2 = 2 * wsum * (i % 7) + w[3] - w[6];
    if (out2[i] != want2) { if (errors++ < 5) printf("FAIL out2[%d] = %d want %d\n", i, out2[i], want2); }
  }
  for (int k = 0; k < 10; k++)
    if (c[k] != 1000 + k) { errors++; printf("FAIL host c[%d] changed\n", k); }
  for (int k = 0; k < 16; k++)
    if (a[k] != -k) { errors++; printf("FAIL host a[%d] changed\n", k); }
  free(c); free(w); free(out); free(out2);
  return errors != 0;
}

// Unions: private(u) per gang loop iteration (type punning float<->bits), firstprivate(v) starts every gang from the host union.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4000

union bits { float f; unsigned int u; unsigned char b[4]; };

int main(void) {
  union bits u, v;
  float *x = malloc(sizeof(float) * N);
  unsigned int *hi = malloc(sizeof(unsigned int) * N), *mix = malloc(sizeof(unsigned int) * N);
  srand(42);
  for (int i = 0; i < N; i++) x[i] = (float)(rand() % 100000) / 37.0f - 1000.0f;
  u.u = 0xdeadbeefu;
  v.f = 3.25f;
  #pragma acc parallel loop gang private(u) copyin(x[0:N]) copyout(hi[0:N])
  for (int i = 0; i < N; i++) {
    u.f = x[i];
    hi[i] = (u.u >> 23) & 0xffu;          /* the float's exponent bits */
  }
  #pragma acc parallel num_gangs(8) firstprivate(v) copyin(x[0:N]) copyout(mix[0:N])
  {
    v.u ^= 0x1u;                            /* each gang flips bit 0 of its own copy once */
    #pragma acc loop gang
    for (int i = 0; i < N; i++) mix[i] = v.u + (unsigned int)v.b[0] + (unsigned int)i;
  }
  int errors = 0;
  union bits w;
  w.f = 3.25f;
  w.u ^= 0x1u;
  for (int i = 0; i < N; i++) {
    unsigned int bits;
    memcpy(&bits, &x[i], 4);
    if (hi[i] != ((bits >> 23) & 0xffu)) { if (errors++ < 5) printf("FAIL hi[%d]\n", i); }
    unsigned int want = w.u + (unsigned int)w.b[0] + (unsigned int)i;
    if (mix[i] != want) { if (errors++ < 5) printf("FAIL mix[%d] = %u want %u\n", i, mix[i], want); }
  }
  if (u.u != 0xdeadbeefu || v.f != 3.25f) { errors++; printf("FAIL host unions changed\n"); }
  free(x); free(hi); free(mix);
  return errors != 0;
}

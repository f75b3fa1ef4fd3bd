// Unions: type punning of float/int bits, tagged unions.
#include <stdio.h>
#include <stdint.h>
#include <string.h>

typedef union { float f; uint32_t u; unsigned char b[4]; } fbits;
typedef enum { T_INT, T_DBL, T_STR } tag;
typedef struct { tag t; union { long i; double d; const char *s; } v; } value;

static double as_double(value x) {
  switch (x.t) {
  case T_INT: return (double)x.v.i;
  case T_DBL: return x.v.d;
  default: return (double)strlen(x.v.s);
  }
}

int main(void) {
  int errors = 0;
  fbits fb;
  fb.f = 1.0f;
  if (fb.u != 0x3F800000u || fb.b[3] != 0x3F) { errors++; printf("FAIL float bits %x\n", fb.u); }
  fb.u = 0xC0490FDBu;                 /* -pi */
  if (fb.f > -3.14159f || fb.f < -3.1416f) { errors++; printf("FAIL -pi %f\n", fb.f); }
  if (sizeof(fbits) != 4) { errors++; printf("FAIL size\n"); }
  value vals[4] = {{T_INT, {.i = 42}}, {T_DBL, {.d = 2.5}}, {T_STR, {.s = "hello"}}, {T_INT, {.i = -3}}};
  double s = 0;
  for (int i = 0; i < 4; i++) s += as_double(vals[i]);
  if (s != 46.5) { errors++; printf("FAIL tagged sum %g\n", s); }
  union { double d; uint64_t u; } du = {.d = -0.0};
  if (du.u != 0x8000000000000000ull) { errors++; printf("FAIL -0 bits\n"); }
  uint32_t sign_flips = 0;
  for (int i = -5; i <= 5; i++) {
    fbits t; t.f = (float)i;
    sign_flips += t.u >> 31;
  }
  if (sign_flips != 5) { errors++; printf("FAIL sign bits %u\n", sign_flips); }
  if (errors == 0) printf("unions ok\n");
  return errors != 0;
}

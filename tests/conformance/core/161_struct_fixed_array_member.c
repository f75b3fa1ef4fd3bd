// Structs with fixed-size array members in data clauses: copy(s), copy(s.arr), array of structs.
#include <stdio.h>
#include <math.h>

/* Device code may contract a * b + c into one fused multiply-add (nvcc, NVHPC and GCC do so by default;
   C leaves FP_CONTRACT to the implementation), so results are compared within a few units in the last
   place of the terms involved, not bit for bit. */
typedef struct { int id; double coef[8]; int hits[16]; } filter_t;

int main(void) {
  filter_t f = {7, {0}, {0}};
  for (int k = 0; k < 8; k++) f.coef[k] = 1.0 / (k + 1);
  double out[100];
  #pragma acc parallel loop copyin(f) copyout(out)
  for (int i = 0; i < 100; i++) {
    double s = 0;
    for (int k = 0; k < 8; k++) s += f.coef[k] * ((i + k) % 5);
    out[i] = s + f.id;
  }
  #pragma acc parallel loop copy(f.hits)
  for (int i = 0; i < 1600; i++) {
    #pragma acc atomic
    f.hits[i % 16]++;
  }
  filter_t bank[4];
  for (int b = 0; b < 4; b++) { bank[b].id = b; for (int k = 0; k < 8; k++) bank[b].coef[k] = b + k; }
  #pragma acc parallel loop copy(bank[0:4])
  for (int b = 0; b < 4; b++)
    for (int k = 0; k < 8; k++) bank[b].coef[k] *= bank[b].id;
  int errors = 0;
  for (int i = 0; i < 100; i++) {
    double s = 0;
    for (int k = 0; k < 8; k++) s += f.coef[k] * ((i + k) % 5);
    if (fabs(out[i] - (s + 7)) > 1e-13 * (s + 8)) { errors++; printf("FAIL out[%d]\n", i); break; }
  }
  for (int k = 0; k < 16; k++) if (f.hits[k] != 100) { errors++; printf("FAIL hits[%d] = %d\n", k, f.hits[k]); break; }
  for (int b = 0; b < 4; b++)
    for (int k = 0; k < 8; k++) if (bank[b].coef[k] != (double)(b + k) * b) { errors++; printf("FAIL bank\n"); b = 4; break; }
  if (errors == 0) printf("struct array members ok\n");
  return errors != 0;
}

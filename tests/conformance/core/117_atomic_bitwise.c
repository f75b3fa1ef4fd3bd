// atomic update with &=, |=, ^=, <<=, >>= and x = x & e / x = e | x forms.
#include <stdio.h>

int main(void) {
  const int n = 640;
  unsigned int band = 0xFFFFFFFFu, bor = 0, bxor = 0, cand = 0xFFFFFFFFu, cor = 0;
  unsigned long shl = 1, shr = 1UL << 60;
  #pragma acc parallel loop copy(band, bor, bxor, cand, cor, shl, shr)
  for (int i = 0; i < n; i++) {
    unsigned bit = 1u << (i % 32);
    #pragma acc atomic update
    band &= ~bit | (i % 64 < 32 ? 0xAAAAAAAAu : 0xFFFFFFFFu);
    #pragma acc atomic update
    bor |= (i % 3 == 0) ? bit : 0u;
    #pragma acc atomic update
    bxor ^= bit;
    #pragma acc atomic update
    cand = cand & (i == 7 ? 0x0F0F0F0Fu : 0xFFFFFFFFu);
    #pragma acc atomic update
    cor = (i == 100 ? 0x30u : 0u) | cor;
    if (i < 40) {
      #pragma acc atomic update
      shl <<= 1;
    }
    if (i < 50) {
      #pragma acc atomic update
      shr >>= 1;
    }
  }
  unsigned wand = 0xFFFFFFFFu, wor = 0, wxor = 0;
  for (int i = 0; i < n; i++) {
    unsigned bit = 1u << (i % 32);
    wand &= ~bit | (i % 64 < 32 ? 0xAAAAAAAAu : 0xFFFFFFFFu);
    wor |= (i % 3 == 0) ? bit : 0u;
    wxor ^= bit;
  }
  int errors = 0;
  if (band != wand || band != 0xAAAAAAAAu) { errors++; printf("FAIL &= %x %x\n", band, wand); }
  if (bor != wor || bxor != wxor || bxor != 0) { errors++; printf("FAIL |= ^= %x %x\n", bor, bxor); }
  if (cand != 0x0F0F0F0Fu || cor != 0x30u) { errors++; printf("FAIL x = x & e forms %x %x\n", cand, cor); }
  if (shl != 1UL << 40 || shr != 1UL << 10) { errors++; printf("FAIL shifts %lx %lx\n", shl, shr); }
  if (errors == 0) printf("atomic bitwise ok\n");
  return errors != 0;
}

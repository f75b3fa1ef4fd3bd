// Bit-fields in structs: packing flags, signed/unsigned fields, wraparound on store.
#include <stdio.h>

struct flags {
  unsigned ready : 1;
  unsigned mode : 3;
  unsigned count : 12;
  signed delta : 5;
};

struct rgb565 { unsigned b : 5, g : 6, r : 5; };

static unsigned pack(struct rgb565 c) { return (c.r << 11) | (c.g << 5) | c.b; }

int main(void) {
  int errors = 0;
  struct flags f = {0};
  f.ready = 1; f.mode = 5; f.count = 4095; f.delta = -16;
  if (f.ready != 1 || f.mode != 5 || f.count != 4095 || f.delta != -16) { errors++; printf("FAIL fields\n"); }
  f.count++;                                /* wraps within 12 bits */
  unsigned nine = 9;
  f.mode = nine;                            /* 9 & 7 */
  if (f.count != 0 || f.mode != 1) { errors++; printf("FAIL wrap %u %u\n", f.count, f.mode); }
  if (sizeof(struct flags) != 4) { errors++; printf("FAIL size %zu\n", sizeof(struct flags)); }
  struct rgb565 c = {31, 63, 31};
  if (pack(c) != 0xFFFF) { errors++; printf("FAIL pack\n"); }
  int total = 0;
  for (int i = 0; i < 64; i++) { struct rgb565 t = {0}; t.g = i; total += t.g; }
  if (total != 63 * 64 / 2) { errors++; printf("FAIL loop\n"); }
  if (errors == 0) printf("bit-fields ok\n");
  return errors != 0;
}

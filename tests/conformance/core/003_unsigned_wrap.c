// Unsigned arithmetic wraps modulo 2^N; mixed signed/unsigned comparisons.
#include <stdio.h>
#include <stdint.h>
#include <limits.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

static uint32_t fnv1a(const char *s) {
  uint32_t h = 2166136261u;
  while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
  return h;
}

int main(void) {
  unsigned int u = UINT_MAX;
  u += 1;
  CHECK(u == 0);
  u = 0; u -= 1;
  CHECK(u == UINT_MAX);
  uint8_t b = 250; b += 10;
  CHECK(b == 4);
  uint16_t w = 65535; w++;
  CHECK(w == 0);
  uint64_t q = 0; q--;
  CHECK(q == UINT64_MAX);
  unsigned long m = 123456789UL * 1000000000000UL;   /* wraps mod 2^64 */
  CHECK(m == (unsigned long)(123456789UL * 1000000000000UL));
  CHECK(-1 < 0 && (unsigned)-1 > 0u);
  CHECK(-1 < (long)1u);
  CHECK(!(-1 < 1u));                 /* -1 converts to UINT_MAX */
  CHECK(fnv1a("") == 2166136261u);
  CHECK(fnv1a("a") == 0xe40c292cu);
  CHECK(fnv1a("foobar") == 0xbf9cf968u);
  uint32_t x = 0xDEADBEEF;
  uint32_t rot = (x << 8) | (x >> 24);
  CHECK(rot == 0xADBEEFDEu);
  /* linear congruential generator in uint32 */
  uint32_t s = 12345; unsigned long long acc = 0;
  for (int i = 0; i < 1000; i++) { s = s * 1664525u + 1013904223u; acc += s >> 16; }
  uint32_t s2 = 12345; unsigned long long acc2 = 0;
  for (int i = 0; i < 1000; i++) { s2 = (uint32_t)(((uint64_t)s2 * 1664525u + 1013904223u) & 0xFFFFFFFFu); acc2 += s2 >> 16; }
  CHECK(s == s2 && acc == acc2);
  if (errors == 0) printf("unsigned wraparound ok\n");
  return errors != 0;
}

// stdbool, stdint (exact-width, least, fast, INTn_C), stddef (size_t, ptrdiff_t, offsetof, NULL).
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

struct hdr { uint8_t tag; uint32_t len; uint64_t id; int16_t flags[3]; };

static bool is_prime(uint32_t n) {
  if (n < 2) return false;
  for (uint32_t d = 2; d * d <= n; d++) if (n % d == 0) return false;
  return true;
}

int main(void) {
  int errors = 0;
  bool t = 5;                      /* any nonzero converts to 1 */
  if (t != 1 || sizeof(bool) != 1 || true + true != 2 || false) { errors++; printf("FAIL bool\n"); }
  int primes = 0;
  for (uint32_t i = 0; i < 1000; i++) primes += is_prime(i);
  if (primes != 168) { errors++; printf("FAIL primes %d\n", primes); }
  if (sizeof(int8_t) != 1 || sizeof(int16_t) != 2 || sizeof(int32_t) != 4 || sizeof(int64_t) != 8) { errors++; printf("FAIL widths\n"); }
  if (sizeof(int_least16_t) < 2 || sizeof(int_fast32_t) < 4 || sizeof(intmax_t) < 8) { errors++; printf("FAIL least/fast\n"); }
  if (INT64_C(1) << 40 != 1099511627776 || UINT32_C(0xFFFFFFFF) != 4294967295u) { errors++; printf("FAIL INTn_C\n"); }
  if (offsetof(struct hdr, len) != 4 || offsetof(struct hdr, id) != 8 || offsetof(struct hdr, flags) != 16) { errors++; printf("FAIL offsetof\n"); }
  int arr[50];
  ptrdiff_t diff = &arr[42] - &arr[2];
  size_t sz = sizeof arr;
  if (diff != 40 || sz != 200 || SIZE_MAX < 4294967295u) { errors++; printf("FAIL ptrdiff/size\n"); }
  int *np = NULL;
  if (np != 0 || (void *)np != NULL) { errors++; printf("FAIL NULL\n"); }
  uintptr_t u = (uintptr_t)&arr[1] - (uintptr_t)&arr[0];
  if (u != sizeof(int)) { errors++; printf("FAIL uintptr\n"); }
  if (errors == 0) printf("stdbool/stdint/stddef ok\n");
  return errors != 0;
}

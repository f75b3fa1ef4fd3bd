// declare copyin on initialised globals: the device copy starts with the initial values.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

/* accjit keeps a present table on every device (shared-memory ones too). gcc's host fallback,
   used only to validate this file, reports all memory present, so presence checks are skipped. */
#ifdef ACCJIT_GCC_VALIDATION
#define TRACKED 0
#else
#define TRACKED 1
#endif
static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)
#define PRESENT(p, n, want) do { if (TRACKED && (acc_is_present((p), (n)) != 0) != (want)) { \
    printf("FAIL line %d: acc_is_present(%s) != %d\n", __LINE__, #p, (want)); errors++; } } while (0)

int primes[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
#pragma acc declare copyin(primes)
const double weights[4] = {0.1, 0.2, 0.3, 0.4};
#pragma acc declare copyin(weights)

#pragma acc routine seq
static int nth_prime(int k) { return primes[k % 10]; }

int main(void) {
  PRESENT(primes, sizeof primes, 1);
  int out[50];
  double w[50];
  #pragma acc parallel loop copyout(out, w)
  for (int i = 0; i < 50; i++) { out[i] = nth_prime(i) * i; w[i] = weights[i % 4] * 10; }
  int want[10] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29};
  for (int i = 0; i < 50; i++) {
    CHECK(out[i] == want[i % 10] * i);
    CHECK(w[i] > (i % 4 + 1) - 1e-9 && w[i] < (i % 4 + 1) + 1e-9);
  }
  if (errors == 0) printf("declare copyin on globals ok\n");
  return errors != 0;
}

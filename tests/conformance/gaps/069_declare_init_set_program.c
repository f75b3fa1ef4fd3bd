// A small simulation using every piece together: a global declare section, a routine, function-scope declares, init/set with device_type lists, and free memory checks.
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
/* GCC 12 rejects array sections in 'declare' and ignores init/set (gcc_check.py rewrites them);
   gcc validates the program with whole variables declared and skips free-memory checks; its
   libgomp aborts ("GOACC_declare: Assertion `0' failed") on 'declare copy' of a pointer
   parameter, so gcc gets 'copyin' there (the same on its shared-memory host fallback). */

#define NC 128
float coeffs[NC + 16];
#ifdef ACCJIT_GCC_VALIDATION
#pragma acc declare copyin(coeffs)
#else
#pragma acc declare copyin(coeffs[0:NC])
#endif

#pragma acc routine seq
static float response(float v, int k) {
  return v * coeffs[k % NC] + coeffs[(k + 1) % NC];
}

static size_t free_mem(void) {
  acc_device_t t = acc_get_device_type();
  return acc_get_property(acc_get_device_num(t), t, acc_property_free_memory);
}

static void advance(float *u, float *v, int n, int steps) {
#ifdef ACCJIT_GCC_VALIDATION
  #pragma acc declare copyin(u) create(v)
#else
  #pragma acc declare copy(u[0:n]) create(v[0:n])
#endif
  for (int s = 0; s < steps; s++) {
    #pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 0; i < n; i++) v[i] = response(u[i], i + s);
    #pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 0; i < n; i++) u[i] = 0.5f * (v[i] + v[(i + 1) % n]);
    if (s == steps / 2 && steps > 100) return;   /* never taken: one more exit path */
  }
}

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  /* A list makes its first available type current (gaps/055): `default` (ACC_DEVICE_TYPE's
     type, where the declared globals live) comes first so that the program stays on it on every
     machine; nvidia is initialised too where a GPU exists. */
  #pragma acc init device_type(default, nvidia)
  CHECK(acc_get_device_type() == t);
  srand(42);
  for (int i = 0; i < NC + 16; i++) coeffs[i] = (float)(rand() % 5) * 0.25f;
  #pragma acc update device(coeffs[0:NC])
  int n = 3000, steps = 6;
  float *u = malloc(n * sizeof(float)), *v = malloc(n * sizeof(float));
  float *ru = malloc(n * sizeof(float)), *rv = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) u[i] = ru[i] = (float)(rand() % 16);
  size_t f0 = free_mem();
  #pragma acc set device_type(opencl, host)
  advance(u, v, n, steps);
  CHECK(!TRACKED || free_mem() == f0 || acc_get_device_type() != t);
  #pragma acc set device_type(default)
  CHECK(acc_get_device_type() == t);
  CHECK(!TRACKED || free_mem() == f0);
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) rv[i] = ru[i] * coeffs[(i + s) % NC] + coeffs[(i + s + 1) % NC];
    for (int i = 0; i < n; i++) ru[i] = 0.5f * (rv[i] + rv[(i + 1) % n]);
  }
  for (int i = 0; i < n; i++) CHECK(u[i] == ru[i]);
  PRESENT(u, n * sizeof(float), 0);
  free(u); free(v); free(ru); free(rv);
  if (errors == 0) printf("declare + init/set program ok\n");
  return errors != 0;
}

// The set directive with every device_type form (host, multicore, default, *, lists), device_num, default_async and if; kernels run on the type set.
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
/* gcc 12 ignores 'set'; gcc_check.py turns each directive into acc_set_device_type/_num/
   acc_set_default_async with the first type of the list that gcc's host fallback serves. */
#ifdef ACCJIT_GCC_VALIDATION
#define MULTICORE acc_device_host
#else
#define MULTICORE acc_device_multicore
#endif

/* The first of (nvidia, multicore) that has a device: nvidia on a GPU machine. */
static acc_device_t nvidia_or_multicore(void) { return acc_get_num_devices(acc_device_nvidia) > 0 ? acc_device_nvidia : MULTICORE; }

static int on_type_run(int n, double f) {
  double *x = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) x[i] = i * 0.5;
  #pragma acc parallel loop copy(x[0:n])
  for (int i = 0; i < n; i++) x[i] = x[i] * f + 1.0;
  int ok = 1;
  for (int i = 0; i < n; i++) ok &= x[i] == i * 0.5 * f + 1.0;
  free(x);
  return ok;
}

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  const acc_device_t start = t;
  srand(42);
  double f = 1.0 + rand() % 9;
  #pragma acc set device_type(host)
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(on_type_run(777, f));
  #pragma acc set device_type(multicore) device_num(0)
  CHECK(acc_get_device_type() == MULTICORE);
  CHECK(acc_get_device_num(MULTICORE) == 0);
  CHECK(on_type_run(777, f + 1));
  #pragma acc set device_type(*)
  CHECK(acc_get_device_type() == MULTICORE);
  #pragma acc set device_type(default)
  CHECK(acc_get_device_type() == start);
  #pragma acc set device_type(radeon, quantum_annealer, host)
  CHECK(acc_get_device_type() == acc_device_host);
  #pragma acc set dtype(nvidia, multicore) default_async(3)
  CHECK(acc_get_device_type() == nvidia_or_multicore());
  CHECK(acc_get_default_async() == 3);
  int q = 5 + rand() % 4;
  #pragma acc set default_async(q) device_type(host) if(q > 100)
  CHECK(acc_get_device_type() == nvidia_or_multicore());
  CHECK(acc_get_default_async() == 3);
  #pragma acc set default_async(q) device_type(host) if(q > 0)
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(acc_get_default_async() == q);
  #pragma acc set default_async(acc_async_default)
  CHECK(acc_get_default_async() == acc_async_noval);
  #pragma acc set device_num(0)
  CHECK(acc_get_device_num(acc_device_host) == 0);
  CHECK(on_type_run(2000, f + 2));
  #pragma acc set device_type(default)
  CHECK(acc_get_device_type() == start);
  if (errors == 0) printf("set device_type forms ok\n");
  return errors != 0;
}

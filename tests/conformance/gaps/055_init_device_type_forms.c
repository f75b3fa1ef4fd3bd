// The init directive with every device_type form: host, multicore, default, *, lists with unknown and unavailable names, device_num and if.
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
/* gcc 12 ignores 'init'; gcc_check.py turns each directive into acc_init/acc_init_device with the
   first type of the list that gcc's host fallback serves (multicore counts as host there). */
#ifdef ACCJIT_GCC_VALIDATION
#define MULTICORE acc_device_host
#else
#define MULTICORE acc_device_multicore
#endif

/* The first of (nvidia, multicore) that has a device: nvidia on a GPU machine. */
static acc_device_t nvidia_or_multicore(void) { return acc_get_num_devices(acc_device_nvidia) > 0 ? acc_device_nvidia : MULTICORE; }

static int run_kernel(int n, int salt) {
  int *a = malloc(n * sizeof(int));
  long s = 0;
  #pragma acc parallel loop reduction(+:s) create(a[0:n])
  for (int i = 0; i < n; i++) { a[i] = (i * salt) % 101; s += a[i]; }
  long w = 0;
  for (int i = 0; i < n; i++) w += (i * salt) % 101;
  free(a);
  return s == w;
}

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  const acc_device_t start = t;   /* ACC_DEVICE_TYPE's type: the default */
  srand(42);
  int salt = 3 + rand() % 50;
  #pragma acc init device_type(host)
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(run_kernel(1000, salt));
  #pragma acc init device_type(multicore)
  CHECK(acc_get_device_type() == MULTICORE);
  CHECK(run_kernel(1000, salt + 1));
  #pragma acc init device_type(default)
  CHECK(acc_get_device_type() == start);
  #pragma acc init device_type(host) device_num(0)
  CHECK(acc_get_device_type() == acc_device_host);
  CHECK(acc_get_device_num(acc_device_host) == 0);
  /* '*' initialises every type and leaves the current one alone. */
  #pragma acc init device_type(*)
  CHECK(acc_get_device_type() == acc_device_host);
  /* A list: the first type that has a device; unknown and unavailable names are skipped. */
  #pragma acc init device_type(nvidia, radeon, no_such_accelerator, multicore, host)
  CHECK(acc_get_device_type() == nvidia_or_multicore());
  #pragma acc init dtype(opencl, host)
  CHECK(acc_get_device_type() == acc_device_host);
  int go = salt < 0;
  #pragma acc init device_type(multicore) if(go)
  CHECK(acc_get_device_type() == acc_device_host);
  #pragma acc init device_type(multicore) if(salt > 0) device_num(salt - salt)
  CHECK(acc_get_device_type() == MULTICORE);
  CHECK(acc_get_device_num(MULTICORE) == 0);
  #pragma acc init
  CHECK(acc_get_device_type() == MULTICORE);
  CHECK(run_kernel(5000, salt + 2));
  #pragma acc init device_type(default)
  CHECK(acc_get_device_type() == start);
#ifndef ACCJIT_GCC_VALIDATION
  /* acc_init(acc_device_default) agrees with init device_type(default) (libgomp 12 aborts on
     an acc_init of an active device, so gcc skips this part). */
  #pragma acc set device_type(host)
  acc_init(acc_device_default);
  CHECK(acc_get_device_type() == start);
  acc_shutdown(acc_device_default);
  CHECK(acc_get_device_type() == start);
  CHECK(run_kernel(300, salt));
#endif
  if (errors == 0) printf("init device_type forms ok\n");
  return errors != 0;
}

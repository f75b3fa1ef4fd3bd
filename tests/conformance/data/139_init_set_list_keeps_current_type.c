// init/set with a device_type list: the current type stays when the list names it (any listed type is acceptable), else the first available type named becomes current; data stays where it is.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

/* OpenACC 3.3 §2.14.1/§2.14.3: with a device_type clause, acc-current-device-type-var is set to "the
   argument value"; a list names acceptable types (portable code names several, e.g. nvidia plus a CPU
   type), so a program already on one of them keeps its device, and the data it made present there.
   The program runs on multicore and host alike (and on machines with or without a GPU): it switches
   only among the CPU types, and names nvidia only beside the current type.
   gcc's libgomp ignores init/set device types (gcc_check.py strips the clause), and its host
   fallback reports all memory present: the type and presence checks are skipped under
   ACCJIT_GCC_VALIDATION. */
#ifdef ACCJIT_GCC_VALIDATION
#define TRACKED 0
#define acc_device_multicore acc_device_host   /* libgomp 12's openacc.h has no multicore type */
#else
#define TRACKED 1
#endif
static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)
#define TYPE_IS(want) CHECK(!TRACKED || acc_get_device_type() == (want))

int main(void) {
  int n = 1000;
  float *a = malloc(n * sizeof(float));
  srand(42);
  for (int i = 0; i < n; i++) a[i] = (float)(rand() % 100) * 0.5f;

  acc_set_device_type(acc_device_multicore);
  TYPE_IS(acc_device_multicore);
  #pragma acc enter data copyin(a[0:n])
  /* The current type is in the list: it stays, whatever else the list names first. */
  #pragma acc init device_type(nvidia, multicore)
  TYPE_IS(acc_device_multicore);
  #pragma acc set device_type(nvidia, host, multicore)
  TYPE_IS(acc_device_multicore);
  CHECK(!TRACKED || acc_is_present(a, n * sizeof(float)));
  #pragma acc parallel loop present(a[0:n])
  for (int i = 0; i < n; i++) a[i] = a[i] * 2.0f + 1.0f;
  #pragma acc exit data copyout(a[0:n])

  /* Not in the list: the first available type named becomes current. */
  #pragma acc set device_type(host)
  TYPE_IS(acc_device_host);
  #pragma acc set device_type(opencl, multicore, host)
  TYPE_IS(acc_device_host);   /* host is listed: it stays */
  #pragma acc set device_type(radeon, multicore)
  TYPE_IS(acc_device_multicore);
  #pragma acc init device_type(host)
  TYPE_IS(acc_device_host);
  /* `*` accepts every type: nothing changes. */
  #pragma acc set device_type(*)
  TYPE_IS(acc_device_host);

  /* The values computed on the kept device. */
  srand(42);
  for (int i = 0; i < n; i++) {
    float want = (float)(rand() % 100) * 0.5f * 2.0f + 1.0f;
    if (a[i] != want) { printf("FAIL a[%d] = %g, want %g\n", i, a[i], want); errors++; break; }
  }
  free(a);
  if (errors == 0) printf("init/set lists ok\n");
  return errors != 0;
}

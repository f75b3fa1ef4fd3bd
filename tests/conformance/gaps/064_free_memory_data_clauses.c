// Free memory falls by what data clauses, enter data and acc_copyin/acc_create make present, and rises on exit data, acc_delete and region ends.
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
/* gcc 12's host fallback reports 0 for memory properties, so the checks on free memory run
   under accjit only; gcc validates the rest. */

static size_t free_mem(void) {
  acc_device_t t = acc_get_device_type();
  return acc_get_property(acc_get_device_num(t), t, acc_property_free_memory);
}

#define FREE_IS(x) CHECK(!TRACKED || free_mem() == (x))

int main(void) {
  acc_device_t t = acc_get_device_type();
  if (t == acc_device_none) { acc_init(acc_device_default); t = acc_get_device_type(); }
  srand(42);
  int n = 10000 + rand() % 1000, m = 3000 + rand() % 500;
  size_t na = n * sizeof(double), nb = m * sizeof(float);
  double *a = malloc(na);
  float *b = malloc(nb);
  for (int i = 0; i < n; i++) a[i] = (rand() % 100) * 0.5;
  for (int i = 0; i < m; i++) b[i] = (float)(rand() % 10);
  size_t f0 = free_mem();
  #pragma acc enter data copyin(a[0:n])
  FREE_IS(f0 - na);
  #pragma acc enter data copyin(a[0:n])
  FREE_IS(f0 - na);              /* a second reference allocates nothing */
  #pragma acc data create(b[0:m])
  {
    FREE_IS(f0 - na - nb);
    #pragma acc parallel loop present(a[0:n], b[0:m])
    for (int i = 0; i < m; i++) b[i] = (float)a[i] + 1.0f;
    #pragma acc update self(b[0:m])
  }
  FREE_IS(f0 - na);
  for (int i = 0; i < m; i++) CHECK(b[i] == (float)a[i] + 1.0f);
  #pragma acc exit data delete(a[0:n])
  FREE_IS(f0 - na);
  #pragma acc exit data delete(a[0:n])
  FREE_IS(f0);
  acc_copyin(b, nb / 2);
  FREE_IS(f0 - nb / 2);
  acc_create(a, na);
  FREE_IS(f0 - nb / 2 - na);
  acc_delete(b, nb / 2);
  acc_delete(a, na);
  FREE_IS(f0);
  #pragma acc enter data create(a[0:n], b[0:m])
  FREE_IS(f0 - na - nb);
  #pragma acc exit data delete(a[0:n], b[0:m]) finalize
  FREE_IS(f0);
  double s = 0;
  #pragma acc parallel loop reduction(+:s) copyin(a[0:n])
  for (int i = 0; i < n; i++) s += a[i];
  FREE_IS(f0);
  free(a); free(b);
  if (errors == 0) printf("free memory with data clauses ok\n");
  return errors != 0;
}

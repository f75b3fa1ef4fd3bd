// copy/copyin/copyout/create of scalars and whole structs (not arrays) on data and compute constructs.
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

typedef struct { int a; double b; char tag[8]; } rec;

int main(void) {
  int x = 5; double y = 0.0; long z = 0;
  rec r = {3, 1.25, "abc"};
  #pragma acc data copy(x, r) copyout(y) create(z)
  {
    PRESENT(&x, sizeof x, 1);
    PRESENT(&r, sizeof r, 1);
    #pragma acc serial present(x, r, y, z)
    {
      z = 40;
      x += (int)z;
      y = r.b * 4;
      r.a *= 2;
      r.tag[0] = 'X';
    }
  }
  PRESENT(&x, sizeof x, 0);
  CHECK(x == 45);
  CHECK(y == 5.0);
  CHECK(r.a == 6 && r.tag[0] == 'X' && r.tag[1] == 'b');
  rec rs[3] = {{1, 0, ""}, {2, 0, ""}, {3, 0, ""}};
  #pragma acc parallel loop copy(rs)
  for (int i = 0; i < 3; i++) rs[i].b = rs[i].a * 1.5;
  for (int i = 0; i < 3; i++) CHECK(rs[i].b == (i + 1) * 1.5);
  #pragma acc enter data copyin(x)
  #pragma acc serial present(x)
  x = 100;
  #pragma acc exit data copyout(x)
  CHECK(x == 100);
  if (errors == 0) printf("scalar and struct data ok\n");
  return errors != 0;
}

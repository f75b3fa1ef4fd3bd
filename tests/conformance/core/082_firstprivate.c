// firstprivate scalars: initialised from the host value; modifications stay private.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 3000;
  int *out = malloc(n * sizeof(int));
  int offset = 17;
  double scale = 1.5;
  #pragma acc parallel loop firstprivate(offset, scale) copyout(out[0:n])
  for (int i = 0; i < n; i++) out[i] = (int)(i * scale) + offset;
  int errors = 0;
  for (int i = 0; i < n; i++) if (out[i] != (int)(i * 1.5) + 17) { errors++; printf("FAIL out[%d]\n", i); break; }
  int base = 1000;
  #pragma acc parallel num_gangs(3) firstprivate(base) copy(out[0:n])
  {
    base += 1;                    /* each gang increments its own copy from 1000 */
    #pragma acc loop gang
    for (int i = 0; i < n; i++) out[i] = base;
  }
  if (base != 1000) { errors++; printf("FAIL host base changed %d\n", base); }
  for (int i = 0; i < n; i++) if (out[i] != 1001) { errors++; printf("FAIL gang copy %d = %d\n", i, out[i]); break; }
  int start = 5;
  #pragma acc serial firstprivate(start) copy(out[0:1])
  {
    for (int k = 0; k < 10; k++) start *= 2;
    out[0] = start;
  }
  if (start != 5 || out[0] != 5120) { errors++; printf("FAIL serial firstprivate %d %d\n", start, out[0]); }
  free(out);
  if (errors == 0) printf("firstprivate ok\n");
  return errors != 0;
}

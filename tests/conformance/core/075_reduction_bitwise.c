// reduction(&:), reduction(|:) and reduction(^:) on int and long.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 4000;
  long *v = malloc(n * sizeof(long));
  srand(99);
  for (int i = 0; i < n; i++) v[i] = ((long)rand() << 31) ^ rand();
  int iand = ~0, ior = 0, ixor = 0;
  long land = -1L, lor = 0, lxor = 0x5555L;
  #pragma acc parallel loop copyin(v[0:n]) reduction(&:iand, land) reduction(|:ior, lor) reduction(^:ixor, lxor)
  for (int i = 0; i < n; i++) {
    int w = (int)(v[i] | 0x10000001);       /* two bits always set */
    iand &= w;
    ior |= (int)(v[i] & 0x7F0F);
    ixor ^= (int)v[i];
    land &= v[i] | 0x4000000000000000L;
    lor |= v[i] >> 20;
    lxor ^= v[i];
  }
  int wand = ~0, wor = 0, wxor = 0;
  long wland = -1L, wlor = 0, wlxor = 0x5555L;
  for (int i = 0; i < n; i++) {
    wand &= (int)(v[i] | 0x10000001); wor |= (int)(v[i] & 0x7F0F); wxor ^= (int)v[i];
    wland &= v[i] | 0x4000000000000000L; wlor |= v[i] >> 20; wlxor ^= v[i];
  }
  int errors = 0;
  if (iand != wand || (iand & 0x10000001) != 0x10000001) { errors++; printf("FAIL int & %x %x\n", iand, wand); }
  if (ior != wor || ixor != wxor) { errors++; printf("FAIL int | ^\n"); }
  if (land != wland || lor != wlor || lxor != wlxor) { errors++; printf("FAIL long & | ^\n"); }
  free(v);
  if (errors == 0) printf("reduction & | ^ ok\n");
  return errors != 0;
}

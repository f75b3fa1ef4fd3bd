// Reductions on unsigned int, unsigned long, short and char-sized integers (wraparound kept).
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  const int n = 10000;
  unsigned *v = malloc(n * sizeof(unsigned));
  srand(3);
  for (int i = 0; i < n; i++) v[i] = (unsigned)rand() * 2654435761u;
  unsigned usum = 0, umax = 0, uxor = 0;
  unsigned long ulsum = 0;
  short smin = 32767;
  unsigned char cor = 0;
  #pragma acc parallel loop copyin(v[0:n]) reduction(+:usum, ulsum) reduction(max:umax) reduction(^:uxor) reduction(min:smin) reduction(|:cor)
  for (int i = 0; i < n; i++) {
    usum += v[i];                              /* wraps mod 2^32 */
    ulsum += v[i];
    if (v[i] > umax) umax = v[i];
    uxor ^= v[i];
    short s = (short)(v[i] % 20000) - 10000;
    if (s < smin) smin = s;
    cor |= (unsigned char)(1u << (v[i] % 7));
  }
  unsigned wsum = 0, wmax = 0, wxor = 0;
  unsigned long wl = 0;
  short wmin = 32767;
  unsigned char wor = 0;
  for (int i = 0; i < n; i++) {
    wsum += v[i]; wl += v[i]; if (v[i] > wmax) wmax = v[i]; wxor ^= v[i];
    short s = (short)(v[i] % 20000) - 10000; if (s < wmin) wmin = s;
    wor |= (unsigned char)(1u << (v[i] % 7));
  }
  int errors = 0;
  if (usum != wsum || ulsum != wl) { errors++; printf("FAIL sums %u %u %lu %lu\n", usum, wsum, ulsum, wl); }
  if (umax != wmax || uxor != wxor) { errors++; printf("FAIL max/xor\n"); }
  if (smin != wmin || cor != wor) { errors++; printf("FAIL short/char %d %d %x %x\n", smin, wmin, cor, wor); }
  free(v);
  if (errors == 0) printf("unsigned and small-int reductions ok\n");
  return errors != 0;
}

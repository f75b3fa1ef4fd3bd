// Many small compute regions in a host loop (launch overhead path) with a running checksum.
#include <stdio.h>

int main(void) {
  int v[64];
  for (int i = 0; i < 64; i++) v[i] = i;
  long check = 0;
  #pragma acc data copy(v)
  for (int step = 0; step < 300; step++) {
    #pragma acc parallel loop present(v)
    for (int i = 0; i < 64; i++) v[i] = (v[i] * 5 + step) % 1009;
    if (step % 50 == 49) {
      #pragma acc update self(v)
      for (int i = 0; i < 64; i++) check += v[i];
    }
  }
  int w[64];
  long wcheck = 0;
  for (int i = 0; i < 64; i++) w[i] = i;
  for (int step = 0; step < 300; step++) {
    for (int i = 0; i < 64; i++) w[i] = (w[i] * 5 + step) % 1009;
    if (step % 50 == 49) for (int i = 0; i < 64; i++) wcheck += w[i];
  }
  int errors = 0;
  if (check != wcheck) { errors++; printf("FAIL checksum %ld %ld\n", check, wcheck); }
  for (int i = 0; i < 64; i++) if (v[i] != w[i]) { errors++; printf("FAIL v[%d]\n", i); break; }
  if (errors == 0) printf("many small regions ok\n");
  return errors != 0;
}

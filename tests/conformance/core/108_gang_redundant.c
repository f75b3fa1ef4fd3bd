// Gang-redundant execution: code outside loops in `parallel num_gangs(4)` runs once per gang.
#include <stdio.h>

int main(void) {
  int count = 0;
  #pragma acc parallel num_gangs(4) copy(count)
  {
    #pragma acc atomic update
    count++;
  }
#ifdef ACCJIT_GCC_VALIDATION
  const int gangs = 1;            /* gcc's host fallback runs a single gang */
#else
  const int gangs = 4;
#endif
  int errors = 0;
  if (count != gangs) { errors++; printf("FAIL gang-redundant counter = %d, want %d\n", count, gangs); }
  int before = 0, looped = 0, after = 0;
  #pragma acc parallel num_gangs(4) num_workers(2) vector_length(8) copy(before, looped, after)
  {
    #pragma acc atomic
    before += 1;
    #pragma acc loop gang worker vector
    for (int i = 0; i < 100; i++) {
      #pragma acc atomic
      looped += 1;                /* partitioned: 100 in total, not 400 */
    }
    #pragma acc atomic
    after += 10;
  }
  if (before != gangs || looped != 100 || after != 10 * gangs) { errors++; printf("FAIL modes %d %d %d\n", before, looped, after); }
  int seven = 0;
  #pragma acc parallel num_gangs(7) reduction(+:seven)
  seven += 1;
  if (seven != (gangs == 1 ? 1 : 7)) { errors++; printf("FAIL seven gangs %d\n", seven); }
  if (errors == 0) printf("gang-redundant execution ok\n");
  return errors != 0;
}

// num_gangs, num_workers and vector_length clauses with runtime values on parallel and kernels.
#include <stdio.h>
#include <stdlib.h>

static int run(int gangs, int workers, int vlen, int n) {
  int *a = malloc(n * sizeof(int));
  #pragma acc parallel loop num_gangs(gangs) num_workers(workers) vector_length(vlen) gang worker vector copyout(a[0:n])
  for (int i = 0; i < n; i++) a[i] = 2 * i + 1;
  int bad = 0;
  for (int i = 0; i < n; i++) if (a[i] != 2 * i + 1) bad++;
  long s = 0;
  #pragma acc kernels num_gangs(gangs) num_workers(workers) vector_length(vlen) copyin(a[0:n])
  {
    #pragma acc loop reduction(+:s)
    for (int i = 0; i < n; i++) s += a[i];
  }
  if (s != (long)n * n) bad++;
  free(a);
  return bad;
}

int main(void) {
  int errors = 0;
  int configs[][3] = {{1, 1, 1}, {2, 1, 32}, {7, 3, 5}, {64, 2, 128}, {3, 8, 1}, {100, 1, 64}};
  int sizes[] = {1, 17, 1000, 4099};
  for (int c = 0; c < 6; c++)
    for (int s = 0; s < 4; s++) {
      int bad = run(configs[c][0], configs[c][1], configs[c][2], sizes[s]);
      if (bad) { errors++; printf("FAIL gangs=%d workers=%d vlen=%d n=%d\n", configs[c][0], configs[c][1], configs[c][2], sizes[s]); }
    }
  if (errors == 0) printf("num_gangs/num_workers/vector_length ok\n");
  return errors != 0;
}

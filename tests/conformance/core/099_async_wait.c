// async(n) on compute constructs followed by #pragma acc wait(n); async without argument.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

int main(void) {
  const int n = 20000;
  float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { a[i] = (float)(i % 1000); b[i] = 0.0f; }
  #pragma acc data copy(a[0:n], b[0:n])
  {
    #pragma acc parallel loop async(1)
    for (int i = 0; i < n; i++) a[i] = a[i] * 2.0f;
    #pragma acc parallel loop async(1)          /* same queue: runs after the first */
    for (int i = 0; i < n; i++) b[i] = a[i] + 1.0f;
    #pragma acc wait(1)
    #pragma acc kernels loop async
    for (int i = 0; i < n; i++) b[i] += 0.5f;
    #pragma acc wait(acc_async_noval)
  }
  int errors = 0;
  for (int i = 0; i < n; i++)
    if (a[i] != (float)(i % 1000) * 2.0f || b[i] != a[i] + 1.5f) { errors++; printf("FAIL %d: %g %g\n", i, a[i], b[i]); break; }
  int q = 3;
  long sum = 0;
  #pragma acc parallel loop async(q) reduction(+:sum) copyin(a[0:n]) copy(sum)
  for (int i = 0; i < n; i++) sum += (long)a[i];
  #pragma acc wait(q)
  if (!acc_async_test(q)) { errors++; printf("FAIL queue %d still busy after wait\n", q); }
  long want = 0;
  for (int i = 0; i < n; i++) want += (long)a[i];
  if (sum != want) { errors++; printf("FAIL async reduction %ld %ld\n", sum, want); }
  free(a); free(b);
  if (errors == 0) printf("async/wait ok\n");
  return errors != 0;
}

// Independent work on several async queues, chained with wait clauses, checked with acc_async_test.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define Q 4

int main(void) {
  const int n = 6000;
  int *buf[Q];
  for (int q = 0; q < Q; q++) {
    buf[q] = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) buf[q][i] = q;
  }
  for (int q = 0; q < Q; q++) {
    int *b = buf[q];
    #pragma acc enter data copyin(b[0:n]) async(q)
    #pragma acc parallel loop present(b[0:n]) async(q)
    for (int i = 0; i < n; i++) b[i] = b[i] * 100 + i % 10;
    #pragma acc exit data copyout(b[0:n]) async(q)
  }
  #pragma acc wait
  int errors = 0;
  for (int q = 0; q < Q; q++) {
    if (!acc_async_test(q)) { errors++; printf("FAIL queue %d not done after wait\n", q); }
    for (int i = 0; i < n; i++)
      if (buf[q][i] != q * 100 + i % 10) { errors++; printf("FAIL buf[%d][%d] = %d\n", q, i, buf[q][i]); break; }
  }
  if (!acc_async_test_all()) { errors++; printf("FAIL acc_async_test_all\n"); }
  int *b0 = buf[0];
  #pragma acc data copy(b0[0:n])
  {
    #pragma acc parallel loop async(7)
    for (int i = 0; i < n; i++) b0[i] = -b0[i];
    #pragma acc parallel loop async(8) wait(7)
    for (int i = 0; i < n; i++) b0[i] -= 1;
    #pragma acc wait(8)
  }
  for (int i = 0; i < n; i++) if (b0[i] != -(i % 10) - 1) { errors++; printf("FAIL chained queues %d\n", i); break; }
  for (int q = 0; q < Q; q++) free(buf[q]);
  if (errors == 0) printf("async queues ok\n");
  return errors != 0;
}

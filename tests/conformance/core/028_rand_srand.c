// rand/srand: same seed gives the same sequence; values stay in [0, RAND_MAX].
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int errors = 0;
  int first[100], second[100];
  srand(42);
  for (int i = 0; i < 100; i++) first[i] = rand();
  srand(1234);
  int other = rand();
  srand(42);
  for (int i = 0; i < 100; i++) second[i] = rand();
  int distinct = 0;
  for (int i = 0; i < 100; i++) {
    if (first[i] != second[i]) { errors++; printf("FAIL repeat %d\n", i); break; }
    if (first[i] < 0 || first[i] > RAND_MAX) { errors++; printf("FAIL range\n"); break; }
    if (i && first[i] != first[i - 1]) distinct++;
  }
  if (distinct < 90) { errors++; printf("FAIL too few distinct values %d\n", distinct); }
  (void)other;
  int buckets[10] = {0};
  srand(99);
  for (int i = 0; i < 10000; i++) buckets[rand() % 10]++;
  for (int b = 0; b < 10; b++)
    if (buckets[b] < 800 || buckets[b] > 1200) { errors++; printf("FAIL bucket %d = %d\n", b, buckets[b]); }
  double u = 0;
  for (int i = 0; i < 10000; i++) u += (double)rand() / RAND_MAX;
  if (u / 10000 < 0.45 || u / 10000 > 0.55) { errors++; printf("FAIL mean %g\n", u / 10000); }
  if (RAND_MAX < 32767) { errors++; printf("FAIL RAND_MAX\n"); }
  if (errors == 0) printf("rand ok\n");
  return errors != 0;
}

// Three nested loops mapped to gang, worker and vector; 3-D array update.
#include <stdio.h>
#include <stdlib.h>

#define NI 16
#define NJ 12
#define NK 40

int main(void) {
  static float a[NI][NJ][NK], b[NI][NJ][NK];
  srand(9);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++) a[i][j][k] = (float)(rand() % 100);
  #pragma acc parallel num_gangs(8) num_workers(4) vector_length(32) copyin(a) copyout(b)
  {
    #pragma acc loop gang
    for (int i = 0; i < NI; i++) {
      #pragma acc loop worker
      for (int j = 0; j < NJ; j++) {
        #pragma acc loop vector
        for (int k = 0; k < NK; k++) b[i][j][k] = a[i][j][k] * 2.0f + (float)(i - j + k);
      }
    }
  }
  int errors = 0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      for (int k = 0; k < NK; k++)
        if (b[i][j][k] != a[i][j][k] * 2.0f + (float)(i - j + k)) {
          if (errors++ < 5) printf("FAIL b[%d][%d][%d]\n", i, j, k);
        }
  #pragma acc parallel loop gang worker vector copy(a)
  for (int i = 0; i < NI; i++) a[i][0][0] = -1.0f;
  for (int i = 0; i < NI; i++) if (a[i][0][0] != -1.0f) { errors++; printf("FAIL gang worker vector on one loop\n"); break; }
  if (errors == 0) printf("gang/worker/vector ok\n");
  return errors != 0;
}

// expect: compile-error "section of a global array" 7:28
// A file-scope declare of a section of a global pointer: the data behind the pointer does not exist when the program starts.
#include <stdio.h>
#include <stdlib.h>
#define N 256
double *field;
#pragma acc declare create(field[0:N])

int main(void) {
  field = malloc(N * sizeof(double));
  #pragma acc parallel loop present(field[0:N])
  for (int i = 0; i < N; i++) field[i] = i;
  printf("%f\n", field[10]);
  free(field);
  return 0;
}

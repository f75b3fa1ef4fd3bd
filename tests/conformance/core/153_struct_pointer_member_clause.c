// Structs with pointer members in data clauses: copy(s.p[0:s.n]), enter data of the struct and
// then of its member array (the member pointer is attached), present(s).
#include <stdio.h>
#include <stdlib.h>

typedef struct { int n; double *val; int *idx; double scale; } vec_t;

static vec_t make(int n) {
  vec_t v = {n, malloc(n * sizeof(double)), malloc(n * sizeof(int)), 1.5};
  for (int i = 0; i < n; i++) { v.val[i] = i * 0.25; v.idx[i] = (i * 7) % n; }
  return v;
}

int main(void) {
  vec_t v = make(1000), w = make(1000);
  #pragma acc parallel loop copy(v.val[0:v.n]) copyin(v.idx[0:v.n])
  for (int i = 0; i < v.n; i++) v.val[i] += v.idx[i];
  #pragma acc enter data copyin(w)
  #pragma acc enter data copyin(w.val[0:w.n], w.idx[0:w.n])
  #pragma acc parallel loop present(w)
  for (int i = 0; i < w.n; i++) w.val[i] = w.val[i] * w.scale + w.idx[i];
  #pragma acc exit data copyout(w.val[0:w.n]) delete(w.idx[0:w.n])
  #pragma acc exit data delete(w)
  int errors = 0;
  for (int i = 0; i < 1000; i++) {
    if (v.val[i] != i * 0.25 + (i * 7) % 1000) { errors++; printf("FAIL v.val[%d]\n", i); break; }
    if (w.val[i] != i * 0.25 * 1.5 + (i * 7) % 1000) { errors++; printf("FAIL w.val[%d] = %g\n", i, w.val[i]); break; }
  }
  free(v.val); free(v.idx); free(w.val); free(w.idx);
  if (errors == 0) printf("struct pointer members in clauses ok\n");
  return errors != 0;
}

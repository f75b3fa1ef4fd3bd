// Structs with pointer members: a small dynamic vector type.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  double *data;
  int len, cap;
  const char *name;
} vec;

static void vec_push(vec *v, double x) {
  if (v->len == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 2;
    v->data = realloc(v->data, v->cap * sizeof(double));
  }
  v->data[v->len++] = x;
}
static double vec_dot(const vec *a, const vec *b) {
  double s = 0;
  for (int i = 0; i < a->len && i < b->len; i++) s += a->data[i] * b->data[i];
  return s;
}

int main(void) {
  vec a = {NULL, 0, 0, "a"}, b = {0};
  b.name = "b";
  for (int i = 1; i <= 100; i++) { vec_push(&a, i); vec_push(&b, 1.0 / i); }
  int errors = 0;
  if (a.len != 100 || a.cap < 100) { errors++; printf("FAIL len/cap\n"); }
  if (vec_dot(&a, &b) != 100.0) { errors++; printf("FAIL dot %g\n", vec_dot(&a, &b)); }
  vec *pv = &a;
  pv->data[0] = 42;
  if (a.data[0] != 42 || (*pv).data[99] != 100) { errors++; printf("FAIL access\n"); }
  if (strcmp(a.name, "a") != 0 || strcmp(b.name, "b") != 0) { errors++; printf("FAIL names\n"); }
  vec copy = a;                     /* shallow copy shares data */
  copy.data[1] = -7;
  if (a.data[1] != -7) { errors++; printf("FAIL shallow copy\n"); }
  free(a.data); free(b.data);
  if (errors == 0) printf("struct pointer members ok\n");
  return errors != 0;
}

// Pointer arithmetic, comparison, pointer-to-pointer, swapping through pointers.
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>

static int errors = 0;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); errors++; } } while (0)

static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
static void set_ptr(int **pp, int *target) { *pp = target; }
static void reverse(double *lo, double *hi) {
  while (lo < hi) { double t = *lo; *lo++ = *hi; *hi-- = t; }
}

int main(void) {
  int a = 3, b = 9;
  swap(&a, &b);
  CHECK(a == 9 && b == 3);
  int arr[10];
  for (int i = 0; i < 10; i++) arr[i] = i * i;
  int *p = arr + 3, *q = &arr[8];
  CHECK(q - p == 5 && *p == 9 && p[2] == 25 && *(q - 1) == 49);
  ptrdiff_t d = &arr[9] - &arr[0];
  CHECK(d == 9);
  CHECK(p < q && q > p && p != q);
  int *ptr = NULL;
  set_ptr(&ptr, &arr[4]);
  CHECK(ptr == arr + 4 && *ptr == 16);
  int **pp = &ptr;
  **pp = -1;
  CHECK(arr[4] == -1);
  (*pp)++;
  CHECK(*ptr == 25);
  double *v = malloc(7 * sizeof *v);
  for (int i = 0; i < 7; i++) v[i] = i + 0.5;
  reverse(v, v + 6);
  CHECK(v[0] == 6.5 && v[3] == 3.5 && v[6] == 0.5);
  free(v);
  char s[] = "pointer";
  int len = 0;
  for (char *c = s; *c; c++) len++;
  CHECK(len == 7);
  int *rows[3]; int r0[2] = {1, 2}, r1[2] = {3, 4}, r2[2] = {5, 6};
  rows[0] = r0; rows[1] = r1; rows[2] = r2;
  int total = 0;
  for (int **r = rows; r < rows + 3; r++) total += (*r)[0] * (*r)[1];
  CHECK(total == 2 + 12 + 30);
  if (errors == 0) printf("pointers ok\n");
  return errors != 0;
}

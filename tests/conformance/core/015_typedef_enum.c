// typedefs (scalar, pointer, array, function) and enums with explicit values.
#include <stdio.h>

typedef double real;
typedef real vec3[3];
typedef int (*binop)(int, int);
typedef enum color { RED, GREEN = 5, BLUE, ALPHA = -1 } color;
enum { SMALL = 10, LARGE = SMALL * 100 };

static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }
static real dot(const vec3 a, const vec3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static const char *name(color c) {
  switch (c) {
  case RED: return "red";
  case GREEN: return "green";
  case BLUE: return "blue";
  default: return "other";
  }
}

int main(void) {
  int errors = 0;
  if (RED != 0 || GREEN != 5 || BLUE != 6 || ALPHA != -1) { errors++; printf("FAIL enum values\n"); }
  if (LARGE != 1000 || sizeof(color) != sizeof(int)) { errors++; printf("FAIL anon enum\n"); }
  vec3 a = {1, 2, 3}, b = {4, -5, 6};
  if (dot(a, b) != 12.0 || sizeof(vec3) != 3 * sizeof(real)) { errors++; printf("FAIL vec3\n"); }
  binop ops[2] = {add, mul};
  int acc = 1;
  for (int i = 1; i <= 5; i++) acc = ops[i % 2](acc, i);
  /* i=1 mul:1, i=2 add:3, i=3 mul:9, i=4 add:13, i=5 mul:65 */
  if (acc != 65) { errors++; printf("FAIL binop %d\n", acc); }
  color c = BLUE;
  c = (color)(c - 1);
  if (c != GREEN || name(c)[0] != 'g' || name(ALPHA)[0] != 'o') { errors++; printf("FAIL names\n"); }
  enum color cs[3] = {RED, BLUE, GREEN};
  int total = 0;
  for (int i = 0; i < 3; i++) total += cs[i];
  if (total != 11) { errors++; printf("FAIL sum %d\n", total); }
  if (errors == 0) printf("typedefs and enums ok\n");
  return errors != 0;
}

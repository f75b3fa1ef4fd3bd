// #define: object-like, function-like, # stringising, ## pasting, multi-line, nested.
#include <stdio.h>
#include <string.h>

#define N 16
#define SQUARE(x) ((x) * (x))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define MAKE_GETTER(name, type) static type get_##name(void) { return name; }
#define SWAP(T, a, b) do { T tmp_ = (a); (a) = (b); (b) = tmp_; } while (0)
#define SUM3(a, b, c) \
  ((a) + \
   (b) + \
   (c))
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static int width = 7;
static double ratio = 0.25;
MAKE_GETTER(width, int)
MAKE_GETTER(ratio, double)

int main(void) {
  int errors = 0;
  int v[N];
  if (ARRAY_LEN(v) != 16) { errors++; printf("FAIL ARRAY_LEN\n"); }
  if (SQUARE(1 + 2) != 9 || MAX(3, SQUARE(2)) != 4) { errors++; printf("FAIL SQUARE/MAX\n"); }
  if (strcmp(STR(a + b), "a + b") != 0 || strcmp(XSTR(N), "16") != 0 || strcmp(STR(N), "N") != 0) { errors++; printf("FAIL stringise\n"); }
  int CAT(var, 1) = 5, CAT(var, 2) = 6;
  if (var1 + var2 != 11 || CAT(0x, 1F) != 31) { errors++; printf("FAIL paste\n"); }
  if (get_width() != 7 || get_ratio() != 0.25) { errors++; printf("FAIL generated functions\n"); }
  double p = 1.5, q = -2;
  SWAP(double, p, q);
  if (p != -2 || q != 1.5) { errors++; printf("FAIL SWAP\n"); }
  if (SUM3(1, 2, 3) != 6) { errors++; printf("FAIL multi-line\n"); }
#undef N
#define N 3
  if (N != 3) { errors++; printf("FAIL redefine\n"); }
  if (errors == 0) printf("macros ok\n");
  return errors != 0;
}

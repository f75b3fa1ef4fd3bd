// Initialised globals, arrays of strings, global structs and 2-D global tables.
#include <stdio.h>
#include <string.h>

int counter = 17;
double weights[5] = {0.1, 0.2, 0.3, 0.25, 0.15};
const char *days[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
char greeting[] = "hello, world";
int table[3][3] = {{2, 7, 6}, {9, 5, 1}, {4, 3, 8}};
struct cfg { const char *key; int value; } config[] = {{"alpha", 1}, {"beta", 22}, {"gamma", 333}};
long zeroed[100];
static float scale = 2.5f;
int *counter_ptr = &counter;

static int lookup(const char *key) {
  for (unsigned i = 0; i < sizeof config / sizeof config[0]; i++)
    if (strcmp(config[i].key, key) == 0) return config[i].value;
  return -1;
}

int main(void) {
  int errors = 0;
  double w = 0;
  for (int i = 0; i < 5; i++) w += weights[i];
  if (w < 0.999999 || w > 1.000001) { errors++; printf("FAIL weights %g\n", w); }
  if (sizeof days / sizeof days[0] != 7 || strcmp(days[3], "thu") != 0 || days[6][2] != 'n') { errors++; printf("FAIL days\n"); }
  if (strlen(greeting) != 12 || sizeof greeting != 13) { errors++; printf("FAIL greeting\n"); }
  for (int i = 0; i < 3; i++) {           /* magic square */
    int r = 0, c = 0;
    for (int j = 0; j < 3; j++) { r += table[i][j]; c += table[j][i]; }
    if (r != 15 || c != 15) { errors++; printf("FAIL magic %d\n", i); }
  }
  if (lookup("beta") != 22 || lookup("delta") != -1) { errors++; printf("FAIL lookup\n"); }
  long z = 0;
  for (int i = 0; i < 100; i++) z |= zeroed[i];
  if (z != 0) { errors++; printf("FAIL zero-init\n"); }
  *counter_ptr += 3;
  if (counter != 20 || scale * 2 != 5.0f) { errors++; printf("FAIL counter\n"); }
  if (errors == 0) printf("globals ok\n");
  return errors != 0;
}

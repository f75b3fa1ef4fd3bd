// Designated initialisers, compound literals, const and volatile qualifiers.
#include <stdio.h>

typedef struct { int x, y, z; } v3;
typedef struct { const char *label; v3 pos; int tags[4]; } node;

static int sum(const int *v, int n) { int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
static int len2(v3 v) { return v.x * v.x + v.y * v.y + v.z * v.z; }

int main(void) {
  int errors = 0;
  node n = {.pos = {.z = 3, .x = 1}, .label = "n0", .tags = {[3] = 9, [1] = 4}};
  if (n.pos.x != 1 || n.pos.y != 0 || n.pos.z != 3 || n.tags[0] != 0 || n.tags[3] != 9) { errors++; printf("FAIL designated\n"); }
  if (sum((int[]){1, 2, 3, 4, 5}, 5) != 15) { errors++; printf("FAIL compound array\n"); }
  if (len2((v3){2, 3, 6}) != 49) { errors++; printf("FAIL compound struct\n"); }
  v3 *p = &(v3){.y = 7};
  p->x = 1;
  if (p->x + p->y + p->z != 8) { errors++; printf("FAIL compound lvalue\n"); }
  const int limit = 5;
  const int table[] = {2, 4, 6};
  volatile int ticks = 0;
  for (int i = 0; i < limit; i++) ticks++;
  if (ticks != 5 || table[2] != 6) { errors++; printf("FAIL const/volatile\n"); }
  const char *const names[] = {"a", "bb", "ccc"};
  int tl = 0;
  for (int i = 0; i < 3; i++) for (const char *c = names[i]; *c; c++) tl++;
  if (tl != 6) { errors++; printf("FAIL const pointers\n"); }
  node arr[3] = {[2] = {.label = "last"}, [0].pos.y = 5};
  if (arr[0].pos.y != 5 || arr[1].label != NULL || arr[2].label[0] != 'l') { errors++; printf("FAIL nested designators\n"); }
  if (errors == 0) printf("designated/compound ok\n");
  return errors != 0;
}

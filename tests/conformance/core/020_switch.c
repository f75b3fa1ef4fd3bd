// switch: fallthrough, default in the middle, nested switch, char and enum cases.
#include <stdio.h>

static int days_in_month(int m, int leap) {
  switch (m) {
  case 2: return leap ? 29 : 28;
  case 4: case 6: case 9: case 11: return 30;
  default: return 31;
  }
}
static int classify(char c) {
  int r = 0;
  switch (c) {
  case 'a': r += 1;        /* fallthrough */
  case 'b': r += 10;       /* fallthrough */
  default: r += 100; break;
  case 'z': r = -1;
  }
  return r;
}
static int nested(int a, int b) {
  switch (a) {
  case 0:
    switch (b) { case 0: return 0; case 1: return 1; }
    return 2;
  case 1:
    return 3 + (b > 0);
  }
  return -1;
}

int main(void) {
  int errors = 0, total = 0;
  for (int m = 1; m <= 12; m++) total += days_in_month(m, 0);
  if (total != 365 || days_in_month(2, 1) != 29) { errors++; printf("FAIL months %d\n", total); }
  if (classify('a') != 111 || classify('b') != 110 || classify('q') != 100 || classify('z') != -1) { errors++; printf("FAIL classify\n"); }
  if (nested(0, 0) != 0 || nested(0, 1) != 1 || nested(0, 5) != 2 || nested(1, 1) != 4 || nested(7, 0) != -1) { errors++; printf("FAIL nested\n"); }
  int hits = 0;
  for (int i = 0; i < 20; i++) {
    switch (i % 4) {
    case 0: continue;     /* continue applies to the loop */
    case 1: hits++; break;
    case 3: hits += 2;
    }
  }
  if (hits != 5 + 10) { errors++; printf("FAIL loop switch %d\n", hits); }
  long big = 3000000000L;
  switch (big) { case 3000000000L: break; default: errors++; printf("FAIL long switch\n"); }
  if (errors == 0) printf("switch ok\n");
  return errors != 0;
}

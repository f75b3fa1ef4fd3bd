// Structs by value: pass, return, assign, compare member-wise; arrays of structs sorted.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { char name[12]; int score; double weight; } entry;

static entry make(const char *n, int s, double w) { entry e; strcpy(e.name, n); e.score = s; e.weight = w; return e; }
static entry bump(entry e) { e.score += 10; return e; }
static int by_score(const void *a, const void *b) {
  const entry *x = a, *y = b;
  return x->score - y->score;
}

int main(void) {
  int errors = 0;
  entry list[6] = {make("delta", 40, 1.0), make("alpha", 10, 0.5), make("echo", 50, 2.0),
                   make("bravo", 20, 0.25), make("fox", 5, 4.0), make("charlie", 30, 1.5)};
  entry saved = list[1];
  entry bumped = bump(saved);
  if (saved.score != 10 || bumped.score != 20 || strcmp(bumped.name, "alpha") != 0) { errors++; printf("FAIL by value\n"); }
  qsort(list, 6, sizeof(entry), by_score);
  const char *order[6] = {"fox", "alpha", "bravo", "charlie", "delta", "echo"};
  for (int i = 0; i < 6; i++)
    if (strcmp(list[i].name, order[i]) != 0) { errors++; printf("FAIL order %d %s\n", i, list[i].name); }
  double weighted = 0;
  for (int i = 0; i < 6; i++) weighted += list[i].score * list[i].weight;
  if (weighted != 5 * 4.0 + 10 * 0.5 + 20 * 0.25 + 30 * 1.5 + 40 * 1.0 + 50 * 2.0) { errors++; printf("FAIL weighted\n"); }
  entry copy;
  copy = list[5];
  copy.name[0] = 'E';
  if (list[5].name[0] != 'e' || copy.name[0] != 'E') { errors++; printf("FAIL assignment copies\n"); }
  if (errors == 0) printf("struct values ok\n");
  return errors != 0;
}

// A small expression evaluator: recursive descent over a string, globals, char classes.
#include <stdio.h>
#include <string.h>

static const char *pos;
static int failed;

static double expr(void);
static void skip(void) { while (*pos == ' ') pos++; }
static double number(void) {
  double v = 0, scale = 0;
  if (*pos < '0' || *pos > '9') { failed = 1; return 0; }
  for (; (*pos >= '0' && *pos <= '9') || *pos == '.'; pos++) {
    if (*pos == '.') { scale = 1; continue; }
    v = v * 10 + (*pos - '0');
    if (scale) scale *= 10;
  }
  return scale ? v / scale : v;
}
static double factor(void) {
  skip();
  if (*pos == '-') { pos++; return -factor(); }
  if (*pos == '(') { pos++; double v = expr(); skip(); if (*pos++ != ')') failed = 1; return v; }
  return number();
}
static double term(void) {
  double v = factor();
  for (;;) {
    skip();
    if (*pos == '*') { pos++; v *= factor(); }
    else if (*pos == '/') { pos++; v /= factor(); }
    else return v;
  }
}
static double expr(void) {
  double v = term();
  for (;;) {
    skip();
    if (*pos == '+') { pos++; v += term(); }
    else if (*pos == '-') { pos++; v -= term(); }
    else return v;
  }
}
static double eval(const char *s, int *ok) { pos = s; failed = 0; double v = expr(); skip(); *ok = !failed && *pos == 0; return v; }

int main(void) {
  struct { const char *src; double want; } cases[] = {
    {"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"-4 + 10 / 4", -1.5}, {"2 * (3 + (4 - 1)) / 3", 4},
    {"0.5 * 0.25", 0.125}, {"--3", 3}, {"100 - 99 - 1", 0},
  };
  int errors = 0, ok;
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double v = eval(cases[i].src, &ok);
    if (!ok || v != cases[i].want) { errors++; printf("FAIL '%s' = %g\n", cases[i].src, v); }
  }
  eval("1 + (2", &ok);
  if (ok) { errors++; printf("FAIL unbalanced accepted\n"); }
  eval("3 $", &ok);
  if (ok) { errors++; printf("FAIL junk accepted\n"); }
  if (errors == 0) printf("expression evaluator ok\n");
  return errors != 0;
}

// assert.h: passing assertions have no effect; NDEBUG is not defined here.
#include <stdio.h>
#include <assert.h>
#include <string.h>

static int calls = 0;
static int side_effect(void) { calls++; return 1; }

static unsigned isqrt(unsigned n) {
  unsigned r = 0;
  while ((r + 1) * (r + 1) <= n) r++;
  assert(r * r <= n && (r + 1) * (r + 1) > n);
  return r;
}

int main(void) {
  assert(1 + 1 == 2);
  assert(strlen("abc") == 3);
  assert(side_effect());
  unsigned total = 0;
  for (unsigned i = 0; i < 500; i++) total += isqrt(i);
  assert(total > 0);
  int errors = 0;
  if (calls != 1) { errors++; printf("FAIL assert argument must be evaluated once without NDEBUG\n"); }
  if (total != 7205) { errors++; printf("FAIL isqrt sum %u\n", total); }
  if (errors == 0) printf("assert ok\n");
  return errors != 0;
}

// Nested structs, arrays of structs inside structs, struct assignment and return.
#include <stdio.h>
#include <math.h>

typedef struct { double x, y; } point;
typedef struct { point lo, hi; } box;
typedef struct { box bounds; point pts[8]; int n; } cloud;

static box bound(const cloud *c) {
  box b = {c->pts[0], c->pts[0]};
  for (int i = 1; i < c->n; i++) {
    if (c->pts[i].x < b.lo.x) b.lo.x = c->pts[i].x;
    if (c->pts[i].y < b.lo.y) b.lo.y = c->pts[i].y;
    if (c->pts[i].x > b.hi.x) b.hi.x = c->pts[i].x;
    if (c->pts[i].y > b.hi.y) b.hi.y = c->pts[i].y;
  }
  return b;
}
static point centre(box b) {
  point p = {(b.lo.x + b.hi.x) / 2, (b.lo.y + b.hi.y) / 2};
  return p;
}

int main(void) {
  cloud c = {.n = 8};
  for (int i = 0; i < c.n; i++) {
    c.pts[i].x = cos(i * 0.785398163397448) * (i + 1);
    c.pts[i].y = sin(i * 0.785398163397448) * (i + 1);
  }
  c.bounds = bound(&c);
  int errors = 0;
  if (fabs(c.bounds.hi.x - 8 * cos(7 * 0.785398163397448)) > 1e-12) { errors++; printf("FAIL hi.x %g\n", c.bounds.hi.x); }
  if (fabs(c.bounds.lo.x + 5) > 1e-12) { errors++; printf("FAIL lo.x %g\n", c.bounds.lo.x); }
  if (fabs(c.bounds.hi.y - 3) > 1e-12 || fabs(c.bounds.lo.y + 7) > 1e-12) { errors++; printf("FAIL y range\n"); }
  point m = centre(c.bounds);
  cloud d = c;                      /* deep value copy of nested arrays */
  d.pts[0].x = 1000;
  if (c.pts[0].x == 1000) { errors++; printf("FAIL copy aliasing\n"); }
  if (fabs(m.y - (-2)) > 1e-12) { errors++; printf("FAIL centre %g\n", m.y); }
  box *pb = &d.bounds;
  pb->lo = (point){-1, -1};
  if (d.bounds.lo.x != -1 || sizeof(box) != 4 * sizeof(double)) { errors++; printf("FAIL ptr member\n"); }
  if (errors == 0) printf("nested structs ok\n");
  return errors != 0;
}

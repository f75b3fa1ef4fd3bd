// exit(0) from a nested function ends the program successfully; code after it never runs.
#include <stdio.h>
#include <stdlib.h>

static int depth_reached = 0;

static void finish(int depth, double value) {
  depth_reached = depth;
  if (value > 100.0 && depth == 3) {
    printf("exiting from depth %d with value %g\n", depth, value);
    exit(0);
  }
  printf("FAIL finish reached with depth %d value %g\n", depth, value);
}
static void level(int depth, double value) {
  if (depth < 3) level(depth + 1, value * 5.0);
  else finish(depth, value);
  printf("FAIL returned from level %d\n", depth);
}

int main(void) {
  double start = 1.5;
  for (int i = 0; i < 3; i++) start += i;   /* 4.5 -> 4.5*125 = 562.5 */
  level(0, start);
  printf("FAIL main continued after exit (depth %d)\n", depth_reached);
  return 1;
}

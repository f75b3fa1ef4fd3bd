// expect: compile-error "_Alignas" 7:3
// gcc: accepts (it supports over-aligned objects; accjit's IR gives every object its type's alignment, so a stronger alignas is refused rather than ignored).
#include <stdio.h>
#include <stdalign.h>

int main(void) {
  alignas(64) double line[8];
  line[0] = 1.0;
  printf("%f\n", line[0]);
  return 0;
}

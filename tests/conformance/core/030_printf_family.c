// printf, fprintf(stdout), puts, putchar: return values count characters written.
#include <stdio.h>

int main(void) {
  int errors = 0;
  int n = printf("%d %5.2f %s %c %x %lu %e\n", -42, 3.14159, "str", 'q', 255u, 123456789012UL, 1.5e-7);
  if (n != 45) { errors++; printf("FAIL printf returned %d\n", n); }
  n = fprintf(stdout, "[%-6s|%6s|%06d|%+d]\n", "ab", "cd", 42, 7);
  if (n != 26) { errors++; printf("FAIL fprintf returned %d\n", n); }
  if (puts("a line from puts") < 0) { errors++; printf("FAIL puts\n"); }
  int c = putchar('!');
  putchar('\n');
  if (c != '!') { errors++; printf("FAIL putchar\n"); }
  n = printf("%%%ld %lld %hd %g %.3e %o\n", -5L, 9000000000LL, (short)-2, 0.0001, 12345.678, 8);
  if (n != 38) { errors++; printf("FAIL printf 2 returned %d\n", n); }
  n = printf("%*d|%-*.*f|\n", 6, 12, 8, 2, 2.5);
  if (n != 17) { errors++; printf("FAIL star widths %d\n", n); }
  fflush(stdout);
  if (errors == 0) printf("printf family ok\n");
  return errors != 0;
}

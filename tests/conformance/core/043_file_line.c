// __FILE__ and __LINE__ (also through macros and #line), __func__ and __STDC__.
#include <stdio.h>
#include <string.h>

#define HERE() __LINE__
#define WHERE(buf) sprintf(buf, "%s:%d", __FILE__, __LINE__)

static int errors = 0;
static void check_line(int got, int want) {
  if (got != want) { errors++; printf("FAIL line %d != %d\n", got, want); }
}

int main(void) {
  int base = __LINE__;
  check_line(__LINE__, base + 1);
  check_line(HERE(), base + 2);
  int l = __LINE__
    ;
  check_line(l, base + 3);
  check_line(base, 14);
  const char *f = __FILE__;
  size_t n = strlen(f);
  if (n < 15 || strcmp(f + n - 15, "043_file_line.c") != 0) { errors++; printf("FAIL __FILE__ = %s\n", f); }
  char buf[512], want[32];
  WHERE(buf);
  sprintf(want, "_file_line.c:%d", base + 11);
  if (strstr(buf, want) == NULL) { errors++; printf("FAIL WHERE = %s\n", buf); }
  if (strcmp(__func__, "main") != 0) { errors++; printf("FAIL __func__\n"); }
#line 1000
  check_line(__LINE__, 1000);
  if (__STDC__ != 1) { errors++; printf("FAIL __STDC__\n"); }
  if (errors == 0) printf("__FILE__/__LINE__ ok\n");
  return errors != 0;
}

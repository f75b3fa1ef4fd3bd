// sprintf and snprintf into buffers, checked with strcmp; truncation and return values.
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

int main(void) {
  int errors = 0;
  char buf[128];
  int n = sprintf(buf, "%d-%s-%.3f", 17, "abc", 2.0 / 3.0);
  if (n != 12 || strcmp(buf, "17-abc-0.667") != 0) { errors++; printf("FAIL sprintf '%s' %d\n", buf, n); }
  char small[8];
  const char *text = rand() >= 0 ? "truncated text" : "x";
  n = snprintf(small, sizeof small, "%s", text);
  if (n != 14 || strcmp(small, "truncat") != 0) { errors++; printf("FAIL snprintf '%s' %d\n", small, n); }
  n = snprintf(NULL, 0, "%05d|%x", 42, 0xbeef);
  if (n != 10) { errors++; printf("FAIL snprintf size %d\n", n); }
  char row[64] = "";
  size_t off = 0;
  for (int i = 0; i < 5; i++) off += snprintf(row + off, sizeof row - off, "%s%d", i ? "," : "", i * i);
  if (strcmp(row, "0,1,4,9,16") != 0 || off != 10) { errors++; printf("FAIL join '%s'\n", row); }
  sprintf(buf, "%8.2e|%-5c|%5s|%%", 12345.6789, 'z', "ab");
  if (strcmp(buf, "1.23e+04|z    |   ab|%") != 0) { errors++; printf("FAIL fmt '%s'\n", buf); }
  sprintf(buf, "%ld %lu %lld %u", -1L, 18446744073709551615UL, -9223372036854775807LL - 1, 4000000000u);
  if (strcmp(buf, "-1 18446744073709551615 -9223372036854775808 4000000000") != 0) { errors++; printf("FAIL ints '%s'\n", buf); }
  sprintf(buf, "%g %g %g %.0f", 100000.0, 1e-5, 0.5, 2.5);
  if (strcmp(buf, "100000 1e-05 0.5 2") != 0) { errors++; printf("FAIL %%g '%s'\n", buf); }
  sprintf(buf, "%p", (void *)0x1000);
  if (strstr(buf, "1000") == NULL) { errors++; printf("FAIL %%p '%s'\n", buf); }
  if (errors == 0) printf("sprintf/snprintf ok\n");
  return errors != 0;
}

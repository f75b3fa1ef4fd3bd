// String literals: escapes, concatenation, char arrays vs pointers, manual parsing.
#include <stdio.h>
#include <string.h>

static int parse_int(const char **s) {
  int sign = 1, v = 0;
  while (**s == ' ') (*s)++;
  if (**s == '-') { sign = -1; (*s)++; }
  while (**s >= '0' && **s <= '9') v = v * 10 + (*(*s)++ - '0');
  return sign * v;
}

int main(void) {
  int errors = 0;
  const char *joined = "abc" "def" "\x41\102";
  if (strcmp(joined, "abcdefAB") != 0) { errors++; printf("FAIL concat %s\n", joined); }
  const char esc[] = "a\tb\n\\\"\0hidden";
  if (sizeof esc != 14 || strlen(esc) != 6 || esc[1] != '\t' || esc[5] != '"' || esc[4] != '\\') { errors++; printf("FAIL escapes\n"); }
  char buf[] = "mutable";
  buf[0] = 'M';
  if (strcmp(buf, "Mutable") != 0) { errors++; printf("FAIL mutable\n"); }
  const char *nums = " 12 -345 6789 0 -1";
  long total = 0;
  for (int i = 0; i < 5; i++) total += parse_int(&nums);
  if (total != 12 - 345 + 6789 + 0 - 1) { errors++; printf("FAIL parse %ld\n", total); }
  int vowels = 0;
  for (const char *p = "The quick brown fox jumps over the lazy dog"; *p; p++)
    if (strchr("aeiou", *p)) vowels++;
  if (vowels != 11) { errors++; printf("FAIL vowels %d\n", vowels); }
  if ("xyz"[1] != 'y' || *("xyz" + 2) != 'z') { errors++; printf("FAIL literal index\n"); }
  char c = 'A' + 25;
  if (c != 'Z' || '0' + 7 != '7' || '\n' != 10) { errors++; printf("FAIL char consts\n"); }
  if (errors == 0) printf("string literals ok\n");
  return errors != 0;
}

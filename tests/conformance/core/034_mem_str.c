// memcpy, memmove, memset, memcmp, strlen, strcmp, strncmp, strcpy, strcat, strncpy.
#include <stdio.h>
#include <string.h>

int main(void) {
  int errors = 0;
  double src[16], dst[16];
  for (int i = 0; i < 16; i++) src[i] = i * 1.5 - 4;
  memcpy(dst, src, sizeof src);
  if (memcmp(dst, src, sizeof src) != 0) { errors++; printf("FAIL memcpy\n"); }
  dst[7] = 1000;
  if (memcmp(dst, src, sizeof src) <= 0) { errors++; printf("FAIL memcmp sign\n"); }
  int ints[10];
  memset(ints, 0, sizeof ints);
  memset(ints, 0xFF, 3 * sizeof(int));
  if (ints[0] != -1 || ints[2] != -1 || ints[3] != 0) { errors++; printf("FAIL memset\n"); }
  char s[32] = "0123456789";
  memmove(s + 2, s, 8);                  /* overlapping */
  if (strcmp(s, "0101234567") != 0) { errors++; printf("FAIL memmove '%s'\n", s); }
  if (strlen("") != 0 || strlen("hello") != 5) { errors++; printf("FAIL strlen\n"); }
  if (strcmp("abc", "abd") >= 0 || strcmp("b", "abc") <= 0 || strcmp("same", "same") != 0) { errors++; printf("FAIL strcmp\n"); }
  if (strncmp("prefix-one", "prefix-two", 7) != 0 || strncmp("ab", "ac", 2) >= 0) { errors++; printf("FAIL strncmp\n"); }
  char buf[32];
  strcpy(buf, "open");
  strcat(buf, "acc");
  strcat(buf, "-jit");
  if (strcmp(buf, "openacc-jit") != 0 || strlen(buf) != 11) { errors++; printf("FAIL strcat '%s'\n", buf); }
  char nb[8];
  memset(nb, 'x', sizeof nb);
  strncpy(nb, "ab", sizeof nb);          /* pads with NULs */
  if (nb[2] != 0 || nb[7] != 0) { errors++; printf("FAIL strncpy padding\n"); }
  const char *hay = "find the needle here";
  if (strstr(hay, "needle") != hay + 9 || strchr(hay, 'z') != NULL || strrchr(hay, 'e') != hay + 19) { errors++; printf("FAIL search\n"); }
  if (errors == 0) printf("mem/str functions ok\n");
  return errors != 0;
}

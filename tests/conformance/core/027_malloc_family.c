// malloc, calloc (zeroed), realloc (grow keeps contents), free; array of pointers.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int errors = 0;
  int *z = calloc(1000, sizeof(int));
  long zs = 0;
  for (int i = 0; i < 1000; i++) zs += z[i];
  if (zs != 0) { errors++; printf("FAIL calloc not zero\n"); }
  int *v = malloc(10 * sizeof(int));
  for (int i = 0; i < 10; i++) v[i] = i * 7;
  for (int size = 20; size <= 2560; size *= 2) {
    v = realloc(v, size * sizeof(int));
    if (v == NULL) { printf("FAIL realloc\n"); return 1; }
    for (int i = size / 2; i < size; i++) v[i] = i * 7;
  }
  for (int i = 0; i < 2560; i++) if (v[i] != i * 7) { errors++; printf("FAIL at %d\n", i); break; }
  char **words = malloc(5 * sizeof(char *));
  const char *src[5] = {"one", "three", "five", "seven", "nine"};
  size_t total = 0;
  for (int i = 0; i < 5; i++) {
    words[i] = malloc(strlen(src[i]) + 1);
    strcpy(words[i], src[i]);
    total += strlen(words[i]);
  }
  if (total != 21 || strcmp(words[3], "seven") != 0) { errors++; printf("FAIL words\n"); }
  for (int i = 0; i < 5; i++) free(words[i]);
  free(words);
  double *d = realloc(NULL, 8 * sizeof(double));      /* realloc(NULL) == malloc */
  d[7] = 1.25;
  if (d[7] != 1.25) { errors++; printf("FAIL realloc NULL\n"); }
  free(d); free(v); free(z);
  free(NULL);
  if (errors == 0) printf("malloc family ok\n");
  return errors != 0;
}

// _OPENACC is defined when directives are enabled, with a version date >= 201111.
#include <stdio.h>
#include <openacc.h>

#ifndef _OPENACC
#error "_OPENACC must be defined when compiling OpenACC"
#endif

#if _OPENACC < 201111
#error "_OPENACC must be at least 201111 (OpenACC 1.0)"
#endif

static int version_name(long v, char *out) {
  if (v >= 202211) return sprintf(out, "3.3+");
  if (v >= 201811) return sprintf(out, "2.7+");
  if (v >= 201510) return sprintf(out, "2.5+");
  if (v >= 201306) return sprintf(out, "2.0+");
  return sprintf(out, "1.0");
}

int main(void) {
  int errors = 0;
  long v = _OPENACC;
  int year = (int)(v / 100), month = (int)(v % 100);
  if (year < 2011 || year > 2100 || month < 1 || month > 12) { errors++; printf("FAIL _OPENACC %ld\n", v); }
  char name[16];
  if (version_name(v, name) <= 0) { errors++; printf("FAIL version name\n"); }
  printf("_OPENACC = %ld (OpenACC %s)\n", v, name);
  int x[8];
  #pragma acc parallel loop copyout(x)
  for (int i = 0; i < 8; i++) x[i] = i * _OPENACC % 97;
  for (int i = 0; i < 8; i++)
    if (x[i] != (int)(i * v % 97)) { errors++; printf("FAIL x[%d]\n", i); }
  if (errors == 0) printf("_OPENACC ok\n");
  return errors != 0;
}

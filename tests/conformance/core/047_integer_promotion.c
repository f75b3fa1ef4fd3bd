// Integer promotions and usual arithmetic conversions: char/short math, unsigned vs signed.
#include <stdio.h>

int main(void) {
  int errors = 0;
  unsigned char a = 200, b = 100;
  int s = a + b;                          /* promoted to int: no wrap */
  if (s != 300) { errors++; printf("FAIL uchar add %d\n", s); }
  unsigned char c = a + b;                /* wraps on store */
  if (c != 44) { errors++; printf("FAIL uchar store %d\n", c); }
  signed char x = -100, y = -100;
  if (x + y != -200) { errors++; printf("FAIL schar add\n"); }
  short h = 30000;
  int prod = h * 2;
  if (prod != 60000) { errors++; printf("FAIL short mul\n"); }
  unsigned int u = 1;
  int neg = -2;
  if (u + neg != 4294967295u) { errors++; printf("FAIL uint + int\n"); }
  long ln = -2;
  if (u + ln != -1L) { errors++; printf("FAIL uint + long\n"); }    /* long holds all uint values */
  unsigned short us = 65535;
  if (us + 1 != 65536) { errors++; printf("FAIL ushort promotes to int\n"); }
  if (sizeof(a + b) != sizeof(int) || sizeof(h * 1L) != sizeof(long) || sizeof(u + 1.0f) != sizeof(float)) { errors++; printf("FAIL result types\n"); }
  unsigned char bits = 0x0F;
  if ((unsigned char)~bits != 0xF0 || ~bits != -16) { errors++; printf("FAIL complement\n"); }
  char digit = '7';
  int dv = digit - '0';
  if (dv != 7) { errors++; printf("FAIL char arith\n"); }
  long long big = 2147483647;
  big += 1;
  if (big != 2147483648LL) { errors++; printf("FAIL long long\n"); }
  int i = 7;
  double r = i / 2 * 2.0, r2 = i / 2.0 * 2;
  if (r != 6.0 || r2 != 7.0) { errors++; printf("FAIL evaluation order of conversions\n"); }
  if (errors == 0) printf("integer promotions ok\n");
  return errors != 0;
}

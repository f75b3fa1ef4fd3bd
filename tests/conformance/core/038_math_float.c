// Float forms of math.h: sqrtf, sinf, cosf, expf, logf, powf, fabsf, floorf, fmaxf, atan2f.
#include <stdio.h>
#include <math.h>

static int errors = 0;
#define NEARF(a, b, tol) do { float a_ = (a), b_ = (b); if (fabsf(a_ - b_) > (tol)) { printf("FAIL line %d: %.9g vs %.9g\n", __LINE__, a_, b_); errors++; } } while (0)

int main(void) {
  NEARF(sqrtf(2.0f) * sqrtf(2.0f), 2.0f, 1e-6f);
  NEARF(sinf(0.5f) * sinf(0.5f) + cosf(0.5f) * cosf(0.5f), 1.0f, 1e-6f);
  NEARF(expf(logf(7.0f)), 7.0f, 1e-5f);
  NEARF(powf(3.0f, 4.0f), 81.0f, 1e-4f);
  NEARF(fabsf(-3.5f), 3.5f, 0);
  NEARF(floorf(-1.5f), -2.0f, 0);
  NEARF(ceilf(1.2f), 2.0f, 0);
  NEARF(fmaxf(1.0f, 2.0f), 2.0f, 0);
  NEARF(fminf(1.0f, 2.0f), 1.0f, 0);
  NEARF(atan2f(1.0f, 1.0f), 0.785398163f, 1e-6f);
  NEARF(tanf(0.3f), sinf(0.3f) / cosf(0.3f), 1e-6f);
  NEARF(fmodf(5.5f, 2.0f), 1.5f, 0);
  NEARF(log10f(1000.0f), 3.0f, 1e-6f);
  float acc = 0;
  for (int i = 1; i <= 100; i++) acc += sqrtf((float)i);
  NEARF(acc, 671.462947f, 1e-2f);
  float r = sqrtf(16.0f);
  if (sizeof(sqrtf(1.0f)) != sizeof(float) || r != 4.0f) { errors++; printf("FAIL sqrtf type\n"); }
  if (errors == 0) printf("float math ok\n");
  return errors != 0;
}

// INFINITY, NAN, HUGE_VAL, isnan, isinf, isfinite, signbit, comparisons with NaN.
#include <stdio.h>
#include <math.h>

int main(void) {
  int errors = 0;
  double inf = INFINITY, nan_v = NAN, zero = 0.0;
  if (!isinf(inf) || isinf(nan_v) || !isnan(nan_v) || isnan(inf)) { errors++; printf("FAIL classification\n"); }
  if (nan_v == nan_v || nan_v < 1 || nan_v > 1 || !(nan_v != nan_v)) { errors++; printf("FAIL NaN compares\n"); }
  if (!isfinite(1e308) || isfinite(inf) || isfinite(nan_v)) { errors++; printf("FAIL isfinite\n"); }
  if (HUGE_VAL != inf || -inf >= -1e308) { errors++; printf("FAIL HUGE_VAL\n"); }
  if (!isinf(1.0 / zero) || !isnan(zero / zero) || !isnan(inf - inf)) { errors++; printf("FAIL generated\n"); }
  if (!signbit(-0.0) || signbit(0.0) || !signbit(-inf)) { errors++; printf("FAIL signbit\n"); }
  double big = 1e308;
  if (!isinf(big * 10)) { errors++; printf("FAIL overflow\n"); }
  double tiny = 1e-308;
  if (tiny / 1e10 == 0 || tiny / 1e300 != 0) { errors++; printf("FAIL underflow/denormal\n"); }
  int nans = 0;
  double v[6] = {1, NAN, -2, INFINITY, NAN, 0};
  double mx = -INFINITY;
  for (int i = 0; i < 6; i++) { if (isnan(v[i])) { nans++; continue; } mx = fmax(mx, v[i]); }
  if (nans != 2 || mx != INFINITY) { errors++; printf("FAIL scan\n"); }
  if (isnan(sqrtf(-1.0f)) == 0 || !isinf(HUGE_VALF)) { errors++; printf("FAIL float specials\n"); }
  if (errors == 0) printf("special float values ok\n");
  return errors != 0;
}

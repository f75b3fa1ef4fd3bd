/* accjit bundled <math.h>: glibc libm x86-64 declarations.
   double and float functions bind to libm; accjit's long double IS double, so
   every *l function is a macro naming the double function (libm's own *l
   functions take x87 80-bit values and must not be called).
   Classification macros use the front end's __builtin_is* (see headers.rs). */
#ifndef _ACCJIT_MATH_H
#define _ACCJIT_MATH_H

typedef float float_t;
typedef double double_t;

#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_inff())
#define HUGE_VALL (__builtin_huge_val())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))

#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
#define FP_ILOGB0 (-2147483647 - 1)
#define FP_ILOGBNAN (-2147483647 - 1)
#define MATH_ERRNO 1
#define MATH_ERREXCEPT 2
#define math_errhandling (MATH_ERRNO | MATH_ERREXCEPT)

#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define isnormal(x) __builtin_isnormal(x)
#define signbit(x) __builtin_signbit(x)
#define fpclassify(x) (__builtin_isnan(x) ? FP_NAN : __builtin_isinf(x) ? FP_INFINITE : \
                       __builtin_isnormal(x) ? FP_NORMAL : (x) == 0 ? FP_ZERO : FP_SUBNORMAL)
#define isgreater(x, y) ((x) > (y))
#define isgreaterequal(x, y) ((x) >= (y))
#define isless(x, y) ((x) < (y))
#define islessequal(x, y) ((x) <= (y))
#define islessgreater(x, y) ((x) < (y) || (x) > (y))
#define isunordered(x, y) (__builtin_isnan(x) || __builtin_isnan(y))

#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LOG10E 0.43429448190325182765
#define M_LN2 0.69314718055994530942
#define M_LN10 2.30258509299404568402
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_PI_4 0.78539816339744830962
#define M_1_PI 0.31830988618379067154
#define M_2_PI 0.63661977236758134308
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440

/* double */
double acos(double x);
double asin(double x);
double atan(double x);
double cos(double x);
double sin(double x);
double tan(double x);
double acosh(double x);
double asinh(double x);
double atanh(double x);
double cosh(double x);
double sinh(double x);
double tanh(double x);
double exp(double x);
double exp2(double x);
double expm1(double x);
double log(double x);
double log10(double x);
double log1p(double x);
double log2(double x);
double logb(double x);
double cbrt(double x);
double fabs(double x);
double sqrt(double x);
double erf(double x);
double erfc(double x);
double lgamma(double x);
double tgamma(double x);
double ceil(double x);
double floor(double x);
double nearbyint(double x);
double rint(double x);
double round(double x);
double trunc(double x);
double atan2(double x, double y);
double fmod(double x, double y);
double remainder(double x, double y);
double copysign(double x, double y);
double nextafter(double x, double y);
double fdim(double x, double y);
double fmax(double x, double y);
double fmin(double x, double y);
double pow(double x, double y);
double hypot(double x, double y);
double frexp(double x, int *exp);
int ilogb(double x);
double ldexp(double x, int exp);
double modf(double x, double *iptr);
double scalbn(double x, int n);
double scalbln(double x, long n);
long lrint(double x);
long long llrint(double x);
long lround(double x);
long long llround(double x);
double remquo(double x, double y, int *quo);
double nan(const char *tagp);
double fma(double x, double y, double z);

/* float */
float acosf(float x);
float asinf(float x);
float atanf(float x);
float cosf(float x);
float sinf(float x);
float tanf(float x);
float acoshf(float x);
float asinhf(float x);
float atanhf(float x);
float coshf(float x);
float sinhf(float x);
float tanhf(float x);
float expf(float x);
float exp2f(float x);
float expm1f(float x);
float logf(float x);
float log10f(float x);
float log1pf(float x);
float log2f(float x);
float logbf(float x);
float cbrtf(float x);
float fabsf(float x);
float sqrtf(float x);
float erff(float x);
float erfcf(float x);
float lgammaf(float x);
float tgammaf(float x);
float ceilf(float x);
float floorf(float x);
float nearbyintf(float x);
float rintf(float x);
float roundf(float x);
float truncf(float x);
float atan2f(float x, float y);
float fmodf(float x, float y);
float remainderf(float x, float y);
float copysignf(float x, float y);
float nextafterf(float x, float y);
float fdimf(float x, float y);
float fmaxf(float x, float y);
float fminf(float x, float y);
float powf(float x, float y);
float hypotf(float x, float y);
float frexpf(float x, int *exp);
int ilogbf(float x);
float ldexpf(float x, int exp);
float modff(float x, float *iptr);
float scalbnf(float x, int n);
float scalblnf(float x, long n);
long lrintf(float x);
long long llrintf(float x);
long lroundf(float x);
long long llroundf(float x);
float remquof(float x, float y, int *quo);
float nanf(const char *tagp);
float fmaf(float x, float y, float z);

/* Bessel functions (POSIX) */
double j0(double x);
double j1(double x);
double y0(double x);
double y1(double x);
double jn(int n, double x);
double yn(int n, double x);

/* nexttoward: the direction argument is long double (= double in accjit). */
#define nexttoward(x, y) nextafter((x), (y))
#define nexttowardf(x, y) nextafterf((x), (y) > (x) ? HUGE_VALF : (y) < (x) ? -HUGE_VALF : (float)(y))
#define nexttowardl(x, y) nextafter((x), (y))

/* long double = double */
#define acosl acos
#define asinl asin
#define atanl atan
#define cosl cos
#define sinl sin
#define tanl tan
#define acoshl acosh
#define asinhl asinh
#define atanhl atanh
#define coshl cosh
#define sinhl sinh
#define tanhl tanh
#define expl exp
#define exp2l exp2
#define expm1l expm1
#define logl log
#define log10l log10
#define log1pl log1p
#define log2l log2
#define logbl logb
#define cbrtl cbrt
#define fabsl fabs
#define sqrtl sqrt
#define erfl erf
#define erfcl erfc
#define lgammal lgamma
#define tgammal tgamma
#define ceill ceil
#define floorl floor
#define nearbyintl nearbyint
#define rintl rint
#define roundl round
#define truncl trunc
#define atan2l atan2
#define fmodl fmod
#define remainderl remainder
#define copysignl copysign
#define nextafterl nextafter
#define fdiml fdim
#define fmaxl fmax
#define fminl fmin
#define powl pow
#define hypotl hypot
#define frexpl frexp
#define ilogbl ilogb
#define ldexpl ldexp
#define modfl modf
#define scalbnl scalbn
#define scalblnl scalbln
#define lrintl lrint
#define llrintl llrint
#define lroundl lround
#define llroundl llround
#define remquol remquo
#define nanl nan
#define fmal fma

#endif

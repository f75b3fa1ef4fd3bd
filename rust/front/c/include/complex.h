/* accjit bundled <complex.h>.
   creal/cimag/conj are front-end builtins; the other functions are libm's,
   taking and returning double _Complex / float _Complex by value (x86-64 SysV:
   double _Complex in two SSE registers, float _Complex packed in one).
   long double complex is double complex in accjit: the *l names are macros. */
#ifndef _ACCJIT_COMPLEX_H
#define _ACCJIT_COMPLEX_H

#define complex _Complex
#define _Complex_I (__builtin_complex_i())
#define I _Complex_I
#define CMPLX(x, y) ((double _Complex)((double)(x) + _Complex_I * (double)(y)))
#define CMPLXF(x, y) ((float _Complex)((float)(x) + _Complex_I * (float)(y)))
#define CMPLXL(x, y) CMPLX(x, y)

#define creal(z) __builtin_creal(z)
#define cimag(z) __builtin_cimag(z)
#define conj(z) __builtin_conj(z)
#define crealf(z) ((float)__builtin_creal(z))
#define cimagf(z) ((float)__builtin_cimag(z))
#define conjf(z) ((float _Complex)__builtin_conj(z))
#define creall(z) __builtin_creal(z)
#define cimagl(z) __builtin_cimag(z)
#define conjl(z) __builtin_conj(z)

double cabs(double _Complex z);
double carg(double _Complex z);
double _Complex cproj(double _Complex z);
double _Complex cexp(double _Complex z);
double _Complex clog(double _Complex z);
double _Complex csqrt(double _Complex z);
double _Complex cpow(double _Complex x, double _Complex y);
double _Complex csin(double _Complex z);
double _Complex ccos(double _Complex z);
double _Complex ctan(double _Complex z);
double _Complex casin(double _Complex z);
double _Complex cacos(double _Complex z);
double _Complex catan(double _Complex z);
double _Complex csinh(double _Complex z);
double _Complex ccosh(double _Complex z);
double _Complex ctanh(double _Complex z);
double _Complex casinh(double _Complex z);
double _Complex cacosh(double _Complex z);
double _Complex catanh(double _Complex z);

float cabsf(float _Complex z);
float cargf(float _Complex z);
float _Complex cprojf(float _Complex z);
float _Complex cexpf(float _Complex z);
float _Complex clogf(float _Complex z);
float _Complex csqrtf(float _Complex z);
float _Complex cpowf(float _Complex x, float _Complex y);
float _Complex csinf(float _Complex z);
float _Complex ccosf(float _Complex z);
float _Complex ctanf(float _Complex z);
float _Complex casinf(float _Complex z);
float _Complex cacosf(float _Complex z);
float _Complex catanf(float _Complex z);
float _Complex csinhf(float _Complex z);
float _Complex ccoshf(float _Complex z);
float _Complex ctanhf(float _Complex z);
float _Complex casinhf(float _Complex z);
float _Complex cacoshf(float _Complex z);
float _Complex catanhf(float _Complex z);

#define cabsl cabs
#define cargl carg
#define cprojl cproj
#define cexpl cexp
#define clogl clog
#define csqrtl csqrt
#define cpowl cpow
#define csinl csin
#define ccosl ccos
#define ctanl ctan
#define casinl casin
#define cacosl cacos
#define catanl catan
#define csinhl csinh
#define ccoshl ccosh
#define ctanhl ctanh
#define casinhl casinh
#define cacoshl cacosh
#define catanhl catanh

#endif

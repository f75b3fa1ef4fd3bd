/* accjit bundled <tgmath.h>: a minimal version. It makes <math.h> and
   <complex.h> visible; the generic names resolve to the double functions
   (float arguments are converted to double), not to the type-generic
   selections of C99 7.22. */
#ifndef _ACCJIT_TGMATH_H
#define _ACCJIT_TGMATH_H
#include <math.h>
#include <complex.h>
#endif

/* Macros for the preprocessed programs (#include "fdefs.h"); cpp syntax, Fortran bodies. */
#define NSIZE 64
#define SQUARE(x) ((x)*(x))
#define HAVE_FDEFS 1

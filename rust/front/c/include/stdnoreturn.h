/* accjit bundled <stdnoreturn.h> (C11 §7.23). */
#ifndef _ACCJIT_STDNORETURN_H
#define _ACCJIT_STDNORETURN_H
#define noreturn _Noreturn
#endif

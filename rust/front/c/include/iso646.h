/* accjit bundled <iso646.h> (C99 §7.9): alternative spellings. */
#ifndef _ACCJIT_ISO646_H
#define _ACCJIT_ISO646_H
#define and &&
#define and_eq &=
#define bitand &
#define bitor |
#define compl ~
#define not !
#define not_eq !=
#define or ||
#define or_eq |=
#define xor ^
#define xor_eq ^=
#endif

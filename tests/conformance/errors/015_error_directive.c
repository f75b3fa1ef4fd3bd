// expect: compile-error "conformance error directive" 7:2
// #error stops the compilation with its message.
#include <stdio.h>

#define BROKEN 1
#if BROKEN
#error conformance error directive
#endif
int main(void) { return 0; }

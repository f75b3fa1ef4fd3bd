// expect: compile-error "nosuch_header.h" 4:10
// #include of a header that does not exist.
#include <stdio.h>
#include <nosuch_header.h>

int main(void) { return 0; }

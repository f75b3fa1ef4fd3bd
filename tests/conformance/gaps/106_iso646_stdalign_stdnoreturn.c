// <iso646.h> alternative operator spellings, <stdalign.h> alignas (up to the type's own alignment: accjit refuses over-alignment, errors/05x) and alignof, <stdnoreturn.h> noreturn on a function that ends the program
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <iso646.h>
#include <stdalign.h>
#include <stdnoreturn.h>

noreturn static void die(const char *why) {
    printf("FAIL %s\n", why);
    exit(1);
}

struct padded { char c; alignas(double) double d; };
struct two { alignas(8) long a; alignas(4) int b; };

int main(void) {
    int failures = 0;
    srand(42);
    for (int t = 0; t < 100; t++) {
        unsigned a = rand(), b = rand();
        int p = rand() % 2, q = rand() % 2;
        if ((p and q) != (p && q) or (p or q) != (p || q) or (not p) != !p) failures++;
        if ((a bitand b) != (a & b) or (a bitor b) != (a | b) or (a xor b) != (a ^ b) or (compl a) != ~a) failures++;
        if ((a not_eq b) != (a != b)) failures++;
        unsigned c = a;
        c and_eq b;
        unsigned d = a;
        d or_eq b;
        unsigned e = a;
        e xor_eq b;
        if (c != (a & b) or d != (a | b) or e != (a ^ b)) failures++;
    }
    if (failures) printf("FAIL iso646 operators\n");
    alignas(8) static double block[8];
    alignas(int) int ints[4];
    alignas(0) char any = 'x';
    ints[0] = any;
    if ((uintptr_t)block % 8 != 0 or (uintptr_t)ints % 4 != 0 or ints[0] != 'x') { printf("FAIL alignas\n"); failures++; }
    if (alignof(double) != 8 or alignof(struct padded) != 8 or sizeof(struct padded) != 16 or sizeof(struct two) != 16 or alignof(char) != 1) { printf("FAIL alignof\n"); failures++; }
    if (not __alignas_is_defined or not __alignof_is_defined) failures++;
    if (failures > 1000) die("impossible");
    return failures != 0;
}

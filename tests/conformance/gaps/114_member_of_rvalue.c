// member access on struct values that are not lvalues: f().x, f().inner.y, f().arr[i], (c ? s1 : s2).x, (s = t).x, calls through a function pointer returning a struct
#include <stdio.h>
#include <stdlib.h>

struct inner { double y; int tag; };
struct big { int x; struct inner in; double arr[6]; };
struct pt { int x, y; };

static int calls;

static struct big make_big(int seed) {
    struct big b;
    calls++;
    b.x = seed * 3 + 1;
    b.in.y = seed / 4.0;
    b.in.tag = seed % 7;
    for (int i = 0; i < 6; i++) b.arr[i] = seed + i * 0.5;
    return b;
}

static struct pt make_pt(int x, int y) { struct pt p = { x, y }; calls++; return p; }

int main(void) {
    int failures = 0;
    srand(42);
    for (int t = 0; t < 50; t++) {
        int s = rand() % 1000;
        calls = 0;
        int x = make_big(s).x;
        double y = make_big(s).in.y;
        int tag = make_big(s).in.tag;
        int i = rand() % 6;
        double a = make_big(s).arr[i];
        if (x != s * 3 + 1 || y != s / 4.0 || tag != s % 7 || a != s + i * 0.5) { printf("FAIL make_big(%d)\n", s); failures++; }
        if (calls != 4) { printf("FAIL calls %d\n", calls); failures++; }

        struct pt p = make_pt(s, -s), q = make_pt(2 * s, 5);
        int c = rand() % 2;
        int px = (c ? p : q).x;
        if (px != (c ? s : 2 * s)) { printf("FAIL conditional member\n"); failures++; }
        struct pt r;
        int ry = (r = q).y;
        if (ry != 5 || r.x != 2 * s) { printf("FAIL assignment member\n"); failures++; }

        struct pt (*fp)(int, int) = make_pt;
        calls = 0;
        int sum = fp(s, 1).x + fp(1, s).y;
        if (sum != 2 * s || calls != 2) { printf("FAIL function pointer member\n"); failures++; }
        /* evaluated only when its operand is: no call in the other branch */
        calls = 0;
        int v = c ? make_pt(s, 0).x : 0;
        if (v != (c ? s : 0) || calls != c) { printf("FAIL conditional evaluation\n"); failures++; }
    }
    return failures != 0;
}

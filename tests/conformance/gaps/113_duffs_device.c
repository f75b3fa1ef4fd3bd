// case labels inside nested blocks of a switch: Duff's device (copy and sum, every remainder), labels inside if/while blocks, default inside a nested block, break from inside the nested blocks, a nested switch keeping its own labels
#include <stdio.h>
#include <stdlib.h>

static void duff_copy(double *to, const double *from, int count) {
    if (count <= 0) return;
    int n = (count + 7) / 8;
    switch (count % 8) {
    case 0: do { *to++ = *from++;
    case 7:      *to++ = *from++;
    case 6:      *to++ = *from++;
    case 5:      *to++ = *from++;
    case 4:      *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}

static long duff_sum(const int *a, int count) {
    long s = 0;
    int n = (count + 3) / 4;
    if (count == 0) return 0;
    switch (count & 3) {
    case 0: do { s += *a++;
    case 3:      s += *a++;
    case 2:      s += *a++;
    case 1:      s += *a++;
            } while (--n);
    }
    return s;
}

/* labels in if/else blocks and a default inside a block; break leaves the switch */
static int classify(int v, int flag) {
    int r = 0;
    switch (v) {
    case 1:
        r += 1;
        if (flag) {
    case 2:
            r += 20;
            if (v == 2) break;
        } else {
            {
    default:
                r += 300;
            }
        }
        r += 4000;
        break;
    case 3:
        r = -1;
    }
    return r;
}

/* an inner switch with its own nested label, inside an outer nested block */
static int inner_outer(int a, int b) {
    int r = 0, i = 0;
    switch (a) {
    case 0:
        for (i = 0; i < 2; i++) {
    case 1:
            r += 10;
            switch (b) {
            case 0: { r += 1;
            case 1: r += 2; }
                break;
            default: r += 100;
            }
            if (r > 50) break;
        }
        break;
    }
    return r;
}

static int classify_ref(int v, int flag) {
    if (v == 1) return flag ? 1 + 20 + 4000 : 1 + 300 + 4000;
    return v == 2 ? 20 : v == 3 ? -1 : 300 + 4000;
}

static int inner_outer_ref(int a, int b) {
    int add = b == 0 ? 3 : b == 1 ? 2 : 100;
    if (a != 0 && a != 1) return 0;
    int r = 0;
    for (int i = 0; i < 2; i++) { r += 10 + add; if (r > 50) break; }
    return r;
}

int main(void) {
    int failures = 0;
    srand(42);
    double src[100], dst[100];
    for (int i = 0; i < 100; i++) src[i] = rand() / (double)RAND_MAX;
    for (int count = 0; count <= 40; count++) {
        for (int i = 0; i < 100; i++) dst[i] = -1.0;
        duff_copy(dst, src, count);
        for (int i = 0; i < 100; i++) {
            double want = i < count ? src[i] : -1.0;
            if (dst[i] != want) { printf("FAIL duff_copy count %d at %d\n", count, i); failures++; break; }
        }
    }
    int a[64];
    for (int i = 0; i < 64; i++) a[i] = rand() % 1000 - 300;
    for (int count = 0; count <= 64; count++) {
        long want = 0;
        for (int i = 0; i < count; i++) want += a[i];
        if (duff_sum(a, count) != want) { printf("FAIL duff_sum %d\n", count); failures++; }
    }
    for (int v = 0; v <= 5; v++)
        for (int flag = 0; flag < 2; flag++)
            if (classify(v, flag) != classify_ref(v, flag)) { printf("FAIL classify(%d,%d) = %d\n", v, flag, classify(v, flag)); failures++; }
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++)
            if (inner_outer(x, y) != inner_outer_ref(x, y)) { printf("FAIL inner_outer(%d,%d) = %d, want %d\n", x, y, inner_outer(x, y), inner_outer_ref(x, y)); failures++; }
    return failures != 0;
}

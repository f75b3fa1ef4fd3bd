/* atomic update and capture forms of several types: native (int ++,
   double +=), and compare-and-swap (double *=, short +=). */
void atomics(int n, const int *key, int *count, double *total, const double *x, int *slot, double *prod, short *small) {
    #pragma acc parallel loop copyin(key[0:n], x[0:n]) copy(count[0:16], total[0:1], prod[0:1], small[0:1]) copyout(slot[0:n])
    for (int i = 0; i < n; i++) {
        int k = key[i] & 15;
        int old;
        #pragma acc atomic capture
        old = count[k]++;
        slot[i] = old;
        #pragma acc atomic update
        total[0] += x[i];
        #pragma acc atomic update
        prod[0] *= 1.0 + x[i] * 1e-6;
        #pragma acc atomic update
        small[0] += (short)(key[i] & 3);
    }
}

void histogram(int n, const int *v, int *bins, int nbins) {
    #pragma acc parallel loop copyin(v[0:n]) copy(bins[0:nbins])
    for (int i = 0; i < n; i++) {
        int b = v[i] % nbins;
        #pragma acc atomic update
        bins[b]++;
    }
}

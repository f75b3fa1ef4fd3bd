double f(int n, const double *x) {
    double s = 0;
    #pragma acc kernels reduction(+:s)
    for (int i = 0; i < n; i++) s += x[i];
    return s;
}

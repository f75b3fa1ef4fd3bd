double sum(long n, const float *x) {
    double s = 0.0;
    #pragma acc parallel loop reduction(+:s)
    for (long i = 0; i < n; i++)
        s += x[i];
    return s;
}

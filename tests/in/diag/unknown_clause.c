void f(int n, float *x) {
    #pragma acc parallel loop copyinn(x[0:n])
    for (int i = 0; i < n; i++) x[i] = 0;
}

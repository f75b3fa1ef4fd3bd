/* gang / worker / vector nest: a row-block sum with a worker loop over rows
   and a vector loop over columns reducing into a worker-private sum. */
void row_sums(int n, int m, const double *a, double *out) {
    #pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(a[0:n*m]) copyout(out[0:n])
    for (int b = 0; b < n; b += 4) {
        #pragma acc loop worker
        for (int i = b; i < b + 4; i++) {
            double s = 0.0;
            #pragma acc loop vector reduction(+:s)
            for (int j = 0; j < m; j++)
                s += a[i * m + j];
            if (i < n) out[i] = s;
        }
    }
}

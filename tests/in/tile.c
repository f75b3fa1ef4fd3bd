void tiled_jacobi(int m, const float *A, float *B) {
    #pragma acc parallel loop gang vector tile(32, 4) present(A[0:m*m], B[0:m*m])
    for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++) {
            #pragma acc cache(A[(i - 1) * m + j - 1:3])
            B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);
        }
}

void jacobi(int m, const float *A, float *B) {
    #pragma acc parallel loop collapse(2) present(A[0:m*m], B[0:m*m])
    for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++)
            B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);
}

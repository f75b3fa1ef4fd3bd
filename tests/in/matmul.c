void matmul(int n, const float *P, const float *Q, float *R) {
    #pragma acc parallel loop gang collapse(2) copyin(P[0:n*n], Q[0:n*n]) copyout(R[0:n*n])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (int k = 0; k < n; k++)
                s += P[i * n + k] * Q[k * n + j];
            R[i * n + j] = s;
        }
}

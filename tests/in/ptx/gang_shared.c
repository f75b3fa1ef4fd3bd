/* A gang's array filled by one vector loop and read back reversed by the
   next: one copy per gang, in shared memory. */
void reverse_rows(int n, const float *a, float *b) {
    #pragma acc parallel loop gang vector_length(64) copyin(a[0:n*64]) copyout(b[0:n*64])
    for (int i = 0; i < n; i++) {
        float row[64];
        row[0] = 0.0f;
        #pragma acc loop vector
        for (int j = 0; j < 64; j++) row[j] = a[i * 64 + j] * 2.0f;
        #pragma acc loop vector
        for (int j = 0; j < 64; j++) b[i * 64 + j] = row[63 - j];
    }
}

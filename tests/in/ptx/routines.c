/* A seq routine called per iteration and a vector routine called per row. */
#pragma acc routine seq
static float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

#pragma acc routine vector
static float row_max(int m, const float *row) {
    float best = -1e30f;
    #pragma acc loop vector reduction(max:best)
    for (int j = 0; j < m; j++)
        best = clampf(row[j], -100.0f, 100.0f) > best ? clampf(row[j], -100.0f, 100.0f) : best;
    return best;
}

void maxes(int n, int m, const float *a, float *out) {
    #pragma acc parallel loop gang copyin(a[0:n*m]) copyout(out[0:n])
    for (int i = 0; i < n; i++)
        out[i] = row_max(m, &a[i * m]);
}

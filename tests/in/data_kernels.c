#include <stdlib.h>
int scale_twice(int n, double *a, double s) {
    #pragma acc data copy(a[0:n])
    {
        #pragma acc kernels
        {
            for (int i = 0; i < n; i++) a[i] *= s;
            for (int i = 0; i < n; i++) a[i] += 1.0;
        }
        #pragma acc update self(a[0:n])
    }
    return 0;
}

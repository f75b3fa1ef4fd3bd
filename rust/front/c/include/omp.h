/* accjit bundled <omp.h>: the OpenMP routines OpenACC programs use for
 * timing and reporting, implemented by accjit's runtime (there are no OpenMP
 * parallel regions: `#pragma omp` lines are ignored). Seen from host code the
 * team is one thread: omp_get_thread_num() is 0, omp_get_num_threads() is 1;
 * omp_get_max_threads() is the multicore pool's thread count (or what
 * omp_set_num_threads last set, which does not resize the pool);
 * omp_get_wtime() is monotonic seconds. */
#ifndef _ACCJIT_OMP_H
#define _ACCJIT_OMP_H

double omp_get_wtime(void);
double omp_get_wtick(void);
int omp_get_num_threads(void);
int omp_get_thread_num(void);
int omp_get_max_threads(void);
void omp_set_num_threads(int n);
int omp_get_num_procs(void);
int omp_in_parallel(void);
int omp_get_dynamic(void);
void omp_set_dynamic(int on);
int omp_get_level(void);

#endif

//! The OpenMP routines of the bundled `<omp.h>` that OpenACC programs call
//! for timing and reporting. accjit runs no OpenMP parallel regions (`#pragma
//! omp` is ignored), so host code always sees a team of one: thread number 0
//! of 1, never in parallel. `omp_get_max_threads` reports the multicore pool's
//! thread count, or what `omp_set_num_threads` set last: that call only
//! changes the reported value, never the pool OpenACC kernels run on.

use std::ffi::c_int;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::Instant;

/// `omp_set_num_threads`'s value (0: never set).
static MAX_THREADS: AtomicI32 = AtomicI32::new(0);
static DYNAMIC: AtomicI32 = AtomicI32::new(0);

/// The origin of `omp_get_wtime` (the first call; OpenMP fixes only that it
/// does not change while the program runs).
fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// Seconds since a fixed point in the past, from a monotonic clock.
#[no_mangle]
pub extern "C" fn omp_get_wtime() -> f64 {
    // One second added so the first reading is not 0.0 (programs divide by
    // differences only, but some print the raw value).
    1.0 + origin().elapsed().as_secs_f64()
}

/// The resolution of `omp_get_wtime`: the monotonic clock's, 1 ns.
#[no_mangle]
pub extern "C" fn omp_get_wtick() -> f64 {
    1e-9
}

#[no_mangle]
pub extern "C" fn omp_get_num_threads() -> c_int {
    1
}

#[no_mangle]
pub extern "C" fn omp_get_thread_num() -> c_int {
    0
}

#[no_mangle]
pub extern "C" fn omp_get_max_threads() -> c_int {
    match MAX_THREADS.load(Relaxed) {
        0 => crate::pool::num_threads().min(c_int::MAX as usize) as c_int,
        n => n,
    }
}

#[no_mangle]
pub extern "C" fn omp_set_num_threads(n: c_int) {
    if n > 0 {
        MAX_THREADS.store(n, Relaxed);
    }
}

#[no_mangle]
pub extern "C" fn omp_get_num_procs() -> c_int {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(c_int::MAX as usize) as c_int
}

#[no_mangle]
pub extern "C" fn omp_in_parallel() -> c_int {
    0
}

#[no_mangle]
pub extern "C" fn omp_get_dynamic() -> c_int {
    DYNAMIC.load(Relaxed)
}

#[no_mangle]
pub extern "C" fn omp_set_dynamic(on: c_int) {
    DYNAMIC.store((on != 0) as c_int, Relaxed);
}

#[no_mangle]
pub extern "C" fn omp_get_level() -> c_int {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wtime_is_monotonic_seconds() {
        let a = omp_get_wtime();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let b = omp_get_wtime();
        assert!(b - a >= 0.019 && b - a < 5.0, "{a} {b}");
    }

    #[test]
    fn team_of_one_and_max_threads() {
        assert_eq!((omp_get_thread_num(), omp_get_num_threads(), omp_in_parallel()), (0, 1, 0));
        assert_eq!(omp_get_max_threads() as usize, crate::pool::num_threads());
        assert!(omp_get_num_procs() >= 1);
    }
}

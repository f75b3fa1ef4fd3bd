//! The Fortran intrinsic subroutines with state or a clock: `random_number`
//! and `random_seed` (xoshiro256**, one generator per process behind a
//! lock, a fixed seed at start as gfortran; the seed is 8 default integers,
//! and `get` after `put` gives back what was put), `cpu_time` (process CPU
//! time) and `system_clock` (a monotonic clock: milliseconds for 4-byte
//! arguments, nanoseconds for 8-byte ones, as gfortran), and the command
//! line (`command_argument_count`, `get_command_argument`: the arguments
//! the embedder set with [`set_command_line`], `accjit run`'s argv).

#![allow(clippy::missing_safety_doc)]

use std::sync::{Mutex, RwLock};

/// The program's command line: its name, then its arguments.
static COMMAND_LINE: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// Sets what `get_command_argument` returns (argv\[0\] the program's name);
/// `run_main` calls it with the program's argv.
pub fn set_command_line(argv: &[String]) {
    *COMMAND_LINE.write().unwrap_or_else(|e| e.into_inner()) = argv.to_vec();
}

/// `command_argument_count()`: the arguments after the program's name.
#[no_mangle]
pub extern "C" fn __accjit_f_command_argument_count() -> i64 {
    COMMAND_LINE.read().unwrap_or_else(|e| e.into_inner()).len().saturating_sub(1) as i64
}

/// `get_command_argument(n, value, length, status)`: each pointer null when
/// absent; `value` is blank-padded (or truncated: status -1); an `n` out of
/// range gives status 1, blanks and length 0.
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_get_command_argument(n: i64, value: *mut u8, value_len: i64, length: *mut i32, status: *mut i32) {
    let line = COMMAND_LINE.read().unwrap_or_else(|e| e.into_inner());
    let arg = usize::try_from(n).ok().and_then(|i| line.get(i));
    let bytes = arg.map(|a| a.as_bytes()).unwrap_or(&[]);
    let cap = value_len.max(0) as usize;
    if !value.is_null() {
        let v = std::slice::from_raw_parts_mut(value, cap);
        v.fill(b' ');
        let k = bytes.len().min(cap);
        v[..k].copy_from_slice(&bytes[..k]);
    }
    if !length.is_null() {
        length.write_unaligned(bytes.len() as i32);
    }
    if !status.is_null() {
        let st = if arg.is_none() {
            1
        } else if !value.is_null() && bytes.len() > cap {
            -1
        } else {
            0
        };
        status.write_unaligned(st);
    }
}

/// The seed's size in default integers.
pub const SEED_SIZE: usize = 8;

/// xoshiro256** state.
static STATE: Mutex<[u64; 4]> = Mutex::new(DEFAULT_STATE);

const DEFAULT_STATE: [u64; 4] = [0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB, 0x2545_F491_4F6C_DD1D];

/// Mixed into a put seed so that small seeds (1, 2, 3...) give good states.
const SCRAMBLE: [u64; 4] = [0xA5A5_5A5A_0F0F_F0F0, 0x3C3C_C3C3_9696_6969, 0x1234_5678_9ABC_DEF0, 0x0FED_CBA9_8765_4321];

fn next(s: &mut [u64; 4]) -> u64 {
    let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
    let t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = s[3].rotate_left(45);
    result
}

fn lock() -> std::sync::MutexGuard<'static, [u64; 4]> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// `n` uniform numbers in [0, 1) into `p` (f32 for `kind_bytes` 4, else f64).
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_random_number(p: *mut u8, n: i64, kind_bytes: i64) {
    let mut s = lock();
    for i in 0..n.max(0) as usize {
        let r = next(&mut s);
        if kind_bytes == 4 {
            (p as *mut f32).add(i).write_unaligned((r >> 40) as f32 * (1.0 / (1u64 << 24) as f32));
        } else {
            (p as *mut f64).add(i).write_unaligned((r >> 11) as f64 * (1.0 / (1u64 << 53) as f64));
        }
    }
}

fn fortran_error(msg: &str) -> ! {
    crate::hosted::flush_c_stdio();
    eprintln!("Fortran runtime error: {msg}\n\nError termination.");
    super::stop::exit_program(2)
}

/// `random_seed([size=] [put=] [get=])`: each pointer null when absent;
/// with none, a fresh seed from the OS.
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_random_seed(size_out: *mut i32, put: *const i32, put_n: i64, get: *mut i32, get_n: i64) {
    let mut s = lock();
    if !size_out.is_null() {
        size_out.write_unaligned(SEED_SIZE as i32);
    }
    if !put.is_null() {
        if (put_n as usize) < SEED_SIZE {
            drop(s);
            fortran_error("Array size of PUT is too small.");
        }
        for (k, w) in s.iter_mut().enumerate() {
            let lo = put.add(2 * k).read_unaligned() as u32 as u64;
            let hi = put.add(2 * k + 1).read_unaligned() as u32 as u64;
            *w = (lo | hi << 32) ^ SCRAMBLE[k];
        }
        if s.iter().all(|&w| w == 0) {
            *s = DEFAULT_STATE;
        }
    }
    if !get.is_null() {
        if (get_n as usize) < SEED_SIZE {
            drop(s);
            fortran_error("Array size of GET is too small.");
        }
        for (k, w) in s.iter().enumerate() {
            let v = w ^ SCRAMBLE[k];
            get.add(2 * k).write_unaligned(v as u32 as i32);
            get.add(2 * k + 1).write_unaligned((v >> 32) as u32 as i32);
        }
    }
    if size_out.is_null() && put.is_null() && get.is_null() {
        let mut fresh = [0u64; 4];
        let got = libc::getrandom(fresh.as_mut_ptr() as *mut libc::c_void, 32, 0);
        if got != 32 {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1);
            fresh = [t, t.rotate_left(17) ^ std::process::id() as u64, !t, t.wrapping_mul(0x9E37_79B9_7F4A_7C15)];
        }
        if fresh.iter().any(|&w| w != 0) {
            *s = fresh;
        }
    }
}

fn clock_seconds(clock: libc::clockid_t) -> (i64, i64) {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: ts is a valid timespec
    unsafe { libc::clock_gettime(clock, &mut ts) };
    (ts.tv_sec, ts.tv_nsec)
}

/// `cpu_time(t)`: the process's CPU time in seconds (f32 for `kind_bytes` 4).
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_cpu_time(out: *mut u8, kind_bytes: i64) {
    let (s, ns) = clock_seconds(libc::CLOCK_PROCESS_CPUTIME_ID);
    let t = s as f64 + ns as f64 * 1e-9;
    if kind_bytes == 4 {
        (out as *mut f32).write_unaligned(t as f32)
    } else {
        (out as *mut f64).write_unaligned(t)
    }
}

/// `system_clock([count] [, count_rate] [, count_max])`: pointers null when
/// absent; kinds 1/2/4/8 for integers, -4/-8 for a real `count_rate`. The
/// widest integer argument chooses the resolution (8 bytes: ns, else ms).
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_system_clock(count: *mut u8, count_kind: i64, rate: *mut u8, rate_kind: i64, max: *mut u8, max_kind: i64) {
    let widest = [(count, count_kind), (rate, rate_kind), (max, max_kind)].iter().filter(|(p, k)| !p.is_null() && *k > 0).map(|&(_, k)| k).max().unwrap_or(4);
    let (per_sec, cmax): (i64, i64) = if widest >= 8 { (1_000_000_000, i64::MAX) } else { (1000, i32::MAX as i64) };
    if !count.is_null() {
        let (s, ns) = clock_seconds(libc::CLOCK_MONOTONIC);
        let ticks = if per_sec == 1000 { (s as i128 * 1000 + ns as i128 / 1_000_000) % (cmax as i128 + 1) } else { s as i128 * 1_000_000_000 + ns as i128 };
        store(count, ticks as i64, count_kind);
    }
    if !rate.is_null() {
        match rate_kind {
            -4 => (rate as *mut f32).write_unaligned(per_sec as f32),
            -8 => (rate as *mut f64).write_unaligned(per_sec as f64),
            k => store(rate, per_sec, k),
        }
    }
    if !max.is_null() {
        store(max, cmax, max_kind);
    }
}

unsafe fn store(p: *mut u8, v: i64, kind: i64) {
    match kind {
        1 => (p as *mut i8).write_unaligned(v as i8),
        2 => (p as *mut i16).write_unaligned(v as i16),
        4 => (p as *mut i32).write_unaligned(v as i32),
        _ => (p as *mut i64).write_unaligned(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_arguments_as_gfortran_gives_them() {
        set_command_line(&["prog".into(), "alpha".into(), "xy".into()]);
        assert_eq!(__accjit_f_command_argument_count(), 2);
        let (mut v, mut len, mut st) = ([0u8; 4], 0i32, 9i32);
        unsafe { __accjit_f_get_command_argument(2, v.as_mut_ptr(), 4, &mut len, &mut st) };
        assert_eq!((&v, len, st), (b"xy  ", 2, 0));
        unsafe { __accjit_f_get_command_argument(1, v.as_mut_ptr(), 4, &mut len, &mut st) };
        assert_eq!((&v, len, st), (b"alph", 5, -1), "truncated");
        unsafe { __accjit_f_get_command_argument(3, v.as_mut_ptr(), 4, &mut len, &mut st) };
        assert_eq!((&v, len, st), (b"    ", 0, 1), "no such argument");
        unsafe { __accjit_f_get_command_argument(0, std::ptr::null_mut(), 0, &mut len, std::ptr::null_mut()) };
        assert_eq!(len, 4);
    }

    #[test]
    fn put_seeds_repeat_and_get_returns_them() {
        let put: Vec<i32> = (1..=SEED_SIZE as i32).collect();
        let (mut a, mut b) = ([0f64; 6], [0f64; 6]);
        let mut got = [0i32; SEED_SIZE];
        let mut size = 0i32;
        unsafe {
            __accjit_f_random_seed(&mut size, std::ptr::null(), 0, std::ptr::null_mut(), 0);
            __accjit_f_random_seed(std::ptr::null_mut(), put.as_ptr(), put.len() as i64, std::ptr::null_mut(), 0);
            __accjit_f_random_seed(std::ptr::null_mut(), std::ptr::null(), 0, got.as_mut_ptr(), got.len() as i64);
            __accjit_f_random_number(a.as_mut_ptr() as *mut u8, 6, 8);
            __accjit_f_random_seed(std::ptr::null_mut(), put.as_ptr(), put.len() as i64, std::ptr::null_mut(), 0);
            __accjit_f_random_number(b.as_mut_ptr() as *mut u8, 6, 8);
        }
        assert_eq!(size, SEED_SIZE as i32);
        assert_eq!(&got[..], &put[..]);
        assert_eq!(a, b);
        assert!(a.iter().all(|&x| (0.0..1.0).contains(&x)) && a[0] != a[1]);
    }
}

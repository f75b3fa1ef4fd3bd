//! Variadic shims for the POSIX functions of the bundled headers that are
//! variadic in C but take at most one optional argument: `open` and `fcntl`
//! (`__accjit_va_open`, `__accjit_va_fcntl`; the calling convention is
//! printf's, docs/runtime-abi.md "Variadic C library functions"). The
//! optional argument is read as the type the function expects.

#![allow(clippy::missing_safety_doc)]

use crate::printf::VaArgs;
use std::ffi::{c_char, c_int};

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_open(path: *const c_char, flags: c_int, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    let mode = VaArgs::new(slots, kinds, n).next() as libc::mode_t;
    libc::open(path, flags, mode as libc::c_uint)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_fcntl(fd: c_int, cmd: c_int, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    // The argument is an int or a pointer: pass the whole slot, which holds
    // either (ints sign-extended), in the register the callee reads.
    let arg = VaArgs::new(slots, kinds, n).next();
    libc::fcntl(fd, cmd, arg as libc::c_long)
}

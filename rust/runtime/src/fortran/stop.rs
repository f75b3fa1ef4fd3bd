//! `stop` and `error stop` as gfortran does them: `stop` ends the program
//! with status 0 and prints nothing, `stop 3` prints `STOP 3` on stderr and
//! exits 3, `stop 'msg'` prints `STOP msg` and exits 0; `error stop` prints
//! `ERROR STOP` (with the code or message) and exits with the code, or 1.
//! `quiet=.true.` prints nothing. Output written so far is flushed first.
//! Also the run-time errors compiled code detects itself, reported as
//! gfortran reports them (`Fortran runtime error: ...`, status 2).

#![allow(clippy::missing_safety_doc)]

use std::ffi::c_char;

/// Ends the program with `code` the way `exit(code)` from generated code
/// does (on a thread the Python bindings host: only the program).
pub(crate) fn exit_program(code: i32) -> ! {
    crate::hosted::__accjit_exit(code)
}

/// The stderr line of a `stop`/`error stop`, if any, and the exit status.
/// `msg` None with `has_code` false: a stop without a stop code.
pub(crate) fn stop_outcome(code: i64, has_code: bool, msg: Option<&[u8]>, quiet: bool, is_error: bool) -> (Option<String>, i32) {
    let word = if is_error { "ERROR STOP" } else { "STOP" };
    let (line, status) = match msg {
        Some(m) => (Some(format!("{word} {}", String::from_utf8_lossy(m))), is_error as i32),
        None if has_code => (Some(format!("{word} {code}")), code as i32),
        None if is_error => (Some(format!("{word} ")), 1),
        None => (None, 0),
    };
    (if quiet { None } else { line }, status)
}

/// `stop`/`error stop`: `msg` null for an integer stop code `code`, or the
/// message `msg[..msg_len]`; a stop without a code passes msg null and
/// `msg_len` -1. Never returns.
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_stop(code: i64, quiet: i64, is_error: i64, msg: *const u8, msg_len: i64) {
    let text = (!msg.is_null()).then(|| std::slice::from_raw_parts(msg, msg_len.max(0) as usize));
    let (line, status) = stop_outcome(code, msg_len != -1, text, quiet != 0, is_error != 0);
    crate::hosted::flush_c_stdio();
    if let Some(l) = line {
        eprintln!("{l}");
    }
    exit_program(status)
}

/// gfortran's report of a run-time error at `loc` (`file:line`).
pub(crate) fn runtime_error_text(msg: &str, loc: &str) -> String {
    match loc.rsplit_once(':') {
        Some((file, line)) if line.parse::<u64>().is_ok() => format!("At line {line} of file {file}\nFortran runtime error: {msg}\n\nError termination."),
        _ => format!("Fortran runtime error: {msg}\n\nError termination."),
    }
}

/// A run-time error of the program (`msg[..msg_len]` at `loc`, `file:line`):
/// the message as gfortran prints it, then exit status 2. Never returns.
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_runtime_error(msg: *const u8, msg_len: i64, loc: *const c_char) {
    let m = if msg.is_null() { String::new() } else { String::from_utf8_lossy(std::slice::from_raw_parts(msg, msg_len.max(0) as usize)).into_owned() };
    let l = if loc.is_null() { String::new() } else { std::ffi::CStr::from_ptr(loc).to_string_lossy().into_owned() };
    crate::hosted::flush_c_stdio();
    eprintln!("{}", runtime_error_text(&m, &l));
    exit_program(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_statuses_are_gfortrans() {
        assert_eq!(stop_outcome(0, false, None, false, false), (None, 0));
        assert_eq!(stop_outcome(3, true, None, false, false), (Some("STOP 3".into()), 3));
        assert_eq!(stop_outcome(0, true, None, false, false), (Some("STOP 0".into()), 0));
        assert_eq!(stop_outcome(0, false, Some(b"bye"), false, false), (Some("STOP bye".into()), 0));
        assert_eq!(stop_outcome(0, false, None, false, true), (Some("ERROR STOP ".into()), 1));
        assert_eq!(stop_outcome(4, true, None, false, true), (Some("ERROR STOP 4".into()), 4));
        assert_eq!(stop_outcome(0, false, Some(b"bad"), false, true), (Some("ERROR STOP bad".into()), 1));
        assert_eq!(stop_outcome(3, true, None, true, false), (None, 3));
    }

    #[test]
    fn runtime_errors_read_as_gfortrans() {
        assert_eq!(
            runtime_error_text("Attempt to DEALLOCATE unallocated 'a'", "prog.f90:12"),
            "At line 12 of file prog.f90\nFortran runtime error: Attempt to DEALLOCATE unallocated 'a'\n\nError termination."
        );
        assert_eq!(runtime_error_text("x", ""), "Fortran runtime error: x\n\nError termination.");
    }
}

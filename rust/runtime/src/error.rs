//! Runtime errors: [`AccError`] (an `acc_error_*` code, a message, and what
//! the error concerns), constructors for the common cases, and [`fatal`],
//! the one place where an error met inside an `extern "C"` entry point ends
//! the program.
//!
//! Rust callers (the Python bindings, the driver) use `api`, which returns
//! `Err(AccError)` instead. C callers reach [`fatal`]: it dispatches the
//! `acc_ev_error` callbacks and the Rust recorder, prints one line
//! `accjit: <message> (variable 'a[0:n]' at prog.c:12)` on stderr and
//! calls `exit(1)` (which flushes stdio, so earlier `printf` output is kept).
//! A later change may unwind to the host there instead; nothing else in the
//! runtime terminates the process.

use crate::consts::*;
use std::ffi::{c_char, CStr};
use std::fmt;

/// An OpenACC runtime error (spec §5.2.2 codes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccError {
    /// An `acc_error_*` code (`crate::consts`).
    pub code: i32,
    pub message: String,
    /// The variable or clause text concerned (`"a[0:n]"`), if known.
    pub var: Option<String>,
    /// The host address range concerned: (first byte, one past the last byte).
    pub host_range: Option<(usize, usize)>,
    /// Where in the program: `"file.c:LINE"`.
    pub loc: Option<String>,
}

pub type AccResult<T> = Result<T, AccError>;

impl AccError {
    pub fn new(code: i32, message: impl Into<String>) -> AccError {
        AccError { code, message: message.into(), var: None, host_range: None, loc: None }
    }

    /// Adds the variable name unless one is already set.
    pub fn with_var(mut self, var: Option<&str>) -> AccError {
        if self.var.is_none() {
            self.var = var.filter(|v| !v.is_empty()).map(str::to_owned);
        }
        self
    }

    pub fn with_range(mut self, start: usize, bytes: usize) -> AccError {
        self.host_range = Some((start, start.wrapping_add(bytes)));
        self
    }

    /// Adds the source location unless one is already set.
    pub fn with_loc(mut self, loc: Option<&str>) -> AccError {
        if self.loc.is_none() {
            self.loc = loc.filter(|l| !l.is_empty()).map(str::to_owned);
        }
        self
    }

    /// The code's spelling (`"acc_error_not_present"`).
    pub fn code_name(&self) -> &'static str {
        error_name(self.code)
    }

    pub fn not_present(what: &str, addr: usize, bytes: usize, device: &str) -> AccError {
        AccError::new(acc_error_not_present, format!("{what}: data is not present on the {device} device (host {addr:#x}, {bytes} bytes)"))
            .with_range(addr, bytes)
    }

    /// `present` is the (start, bytes) of the overlapping present entry.
    pub fn partly_present(what: &str, addr: usize, bytes: usize, present: (usize, usize), device: &str) -> AccError {
        AccError::new(
            acc_error_partly_present,
            format!(
                "{what}: data is only partly present on the {device} device (host {addr:#x}, {bytes} bytes; present: {:#x}, {} bytes)",
                present.0, present.1
            ),
        )
        .with_range(addr, bytes)
    }

    pub fn invalid_async(value: i64) -> AccError {
        AccError::new(acc_error_invalid_async, format!("invalid async argument {value} (expected a queue number >= 0, acc_async_noval or acc_async_sync)"))
    }

    pub fn null_pointer(what: &str) -> AccError {
        AccError::new(acc_error_invalid_null_pointer, format!("{what}: invalid null pointer (with a nonzero byte count)"))
    }
}

impl fmt::Display for AccError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        match (&self.var, &self.loc) {
            (Some(v), Some(l)) => write!(f, " (variable '{v}' at {l})"),
            (Some(v), None) => write!(f, " (variable '{v}')"),
            (None, Some(l)) => write!(f, " (at {l})"),
            (None, None) => Ok(()),
        }
    }
}

impl std::error::Error for AccError {}

/// Ends the program after an error inside an `extern "C"` entry point: calls
/// the error callbacks, prints the message, then [`crate::hosted::terminate`]
/// (`exit(1)` when not hosted; the hosted caller gets the error). A hosted
/// caller (a call from Python) reports the error itself, as an exception it
/// may catch, so the message is printed only where the program ends with it.
pub fn fatal(err: &AccError) -> ! {
    crate::prof::dispatch_error(err);
    if !crate::hosted::is_hosted() {
        eprintln!("accjit: {err}");
    }
    crate::hosted::terminate(crate::hosted::Outcome::Error(err.clone()))
}

/// Unwraps a result in an `extern "C"` entry point, ending the program on error.
pub(crate) fn or_fatal<T>(r: AccResult<T>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => fatal(&e),
    }
}

/// A borrowed C string (`name`, `loc` arguments): `None` for null or invalid UTF-8.
///
/// # Safety
/// `p` must be null or point to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn cstr<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        None
    } else {
        CStr::from_ptr(p).to_str().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_var_and_loc() {
        let e = AccError::not_present("present", 0x1000, 400, "multicore").with_var(Some("a[0:n]")).with_loc(Some("prog.c:12"));
        let s = e.to_string();
        assert!(s.ends_with("(variable 'a[0:n]' at prog.c:12)"), "{s}");
        assert_eq!(e.code, acc_error_not_present);
        assert_eq!(e.host_range, Some((0x1000, 0x1000 + 400)));
        assert_eq!(e.code_name(), "acc_error_not_present");
    }
}

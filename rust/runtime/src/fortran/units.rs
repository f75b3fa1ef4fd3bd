//! External files connected to units: `open`, `close`, `rewind`,
//! `backspace`, `endfile`, `flush` as generated code calls them — one
//! `__accjit_f_fileop_begin(op, unit, loc)`, one `__accjit_f_fileop_spec`
//! per specifier given (`file=`, `status=`, `action=`, `position=`,
//! `form=`, `access=`, `newunit=`...; `newunit` asks for a fresh unit,
//! which `__accjit_f_fileop_unit` returns after the end), then
//! `__accjit_f_fileop_end(wants_iostat)`, which does it and returns the
//! `iostat` (gfortran's codes; without `iostat=` an error ends the program
//! with gfortran's message and status 2).
//!
//! A connected unit is a libc `FILE` (sequential, formatted): `io.rs` writes
//! records to it and reads lines from it. `status='scratch'` is an
//! anonymous `tmpfile()`; `newunit=` numbers go -10, -11, ... as gfortran's.

#![allow(clippy::missing_safety_doc)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, CStr};
use std::sync::Mutex;

/// An open unit.
struct Conn {
    file: usize,
    name: String,
    /// Last operation wrote (a read after a write needs a seek in C stdio).
    writing: bool,
}

/// Units connected by `open`, by number.
static UNITS: Mutex<Option<HashMap<i64, Conn>>> = Mutex::new(None);
/// The next `newunit=` number.
static NEXT_NEWUNIT: Mutex<i64> = Mutex::new(-10);

/// The statement being built on this thread.
struct FileOp {
    op: String,
    unit: i64,
    loc: String,
    specs: HashMap<String, String>,
    /// The unit `newunit=` got (or the one given).
    result_unit: i64,
}

thread_local! {
    static OP: RefCell<Option<FileOp>> = const { RefCell::new(None) };
    static LAST_UNIT: RefCell<i64> = const { RefCell::new(0) };
}

fn units<R>(f: impl FnOnce(&mut HashMap<i64, Conn>) -> R) -> R {
    let mut g = UNITS.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(HashMap::new))
}

/// The FILE of unit `n` if `open` connected it, ready for writing
/// (`writing`) or reading, and its file name.
pub(crate) fn connected(n: i64, writing: bool) -> Option<(*mut libc::FILE, String)> {
    units(|m| {
        let c = m.get_mut(&n)?;
        let f = c.file as *mut libc::FILE;
        if c.writing != writing {
            // C stdio: switching between output and input needs a positioning call.
            // SAFETY: an open FILE.
            unsafe { libc::fseek(f, 0, libc::SEEK_CUR) };
            c.writing = writing;
        }
        Some((f, c.name.clone()))
    })
}

/// gfortran's iostat for an `open` the OS refuses is the `errno`.
fn os_error(name: &str, errno: i32) -> (i64, String) {
    let why = match errno {
        libc::ENOENT => "No such file or directory".to_string(),
        libc::EEXIST => "File exists".to_string(),
        e => std::io::Error::from_raw_os_error(e).to_string(),
    };
    (errno as i64, format!("Cannot open file '{name}': {why}"))
}

fn fopen(name: &str, mode: &str) -> Result<*mut libc::FILE, (i64, String)> {
    let cname = std::ffi::CString::new(name).map_err(|_| os_error(name, libc::EINVAL))?;
    let cmode = std::ffi::CString::new(mode).unwrap();
    // SAFETY: NUL-terminated strings.
    let f = unsafe { libc::fopen(cname.as_ptr(), cmode.as_ptr()) };
    if f.is_null() {
        return Err(os_error(name, std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO)));
    }
    Ok(f)
}

impl FileOp {
    fn spec(&self, k: &str) -> Option<String> {
        self.specs.get(k).map(|v| v.trim_end().to_ascii_lowercase())
    }

    /// Does the statement; Err((iostat, message)).
    fn run(&mut self) -> Result<(), (i64, String)> {
        let os = |m: String| (super::io::iostat::OS, m);
        match self.op.as_str() {
            "open" => {
                let newunit = self.specs.contains_key("newunit");
                if newunit {
                    self.unit = *NEXT_NEWUNIT.lock().unwrap_or_else(|e| e.into_inner());
                }
                let status = self.spec("status").unwrap_or_else(|| "unknown".into());
                let action = self.spec("action").unwrap_or_else(|| "readwrite".into());
                let position = self.spec("position").unwrap_or_else(|| "asis".into());
                if self.spec("form").is_some_and(|f| f != "formatted") || self.spec("access").is_some_and(|a| a != "sequential") {
                    return Err((super::io::iostat::BAD_OPTION, "accjit's Fortran I/O opens sequential formatted files only".into()));
                }
                let name = self.specs.get("file").map(|s| s.trim_end().to_string()).unwrap_or_else(|| format!("fort.{}", self.unit));
                // already connected: gfortran closes it first (same file: changes modes)
                self.close(false).ok();
                let f = if status == "scratch" {
                    // SAFETY: libc call.
                    let f = unsafe { libc::tmpfile() };
                    if f.is_null() {
                        return Err(os(format!("Cannot open scratch file: {}", std::io::Error::last_os_error())));
                    }
                    f
                } else {
                    let exists = std::path::Path::new(&name).exists();
                    match status.as_str() {
                        "old" if !exists => return Err(os_error(&name, libc::ENOENT)),
                        "new" if exists => return Err(os_error(&name, libc::EEXIST)),
                        _ => {}
                    }
                    let append = position == "append";
                    let mode = match (action.as_str(), status.as_str()) {
                        ("read", _) => "r",
                        ("write", "replace" | "new") => "w",
                        (_, "replace" | "new") => "w+",
                        ("write", _) if append => "a",
                        _ if exists && append => "a+",
                        _ if exists => "r+",
                        ("write", _) => "w",
                        _ => "w+",
                    };
                    fopen(&name, mode)?
                };
                units(|m| m.insert(self.unit, Conn { file: f as usize, name, writing: false }));
                if newunit {
                    *NEXT_NEWUNIT.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
                }
                // newunit= is defined only when the open succeeds
                self.result_unit = self.unit;
                Ok(())
            }
            "close" => {
                let delete = self.spec("status").is_some_and(|s| s == "delete");
                self.close(delete)
            }
            "rewind" | "backspace" | "endfile" | "flush" => {
                let op = self.op.clone();
                units(|m| {
                    if let Some(c) = m.get_mut(&self.unit) {
                        let f = c.file as *mut libc::FILE;
                        // SAFETY: an open FILE.
                        unsafe {
                            match op.as_str() {
                                "rewind" => libc::rewind(f),
                                "flush" | "endfile" => {
                                    libc::fflush(f);
                                }
                                _ => backspace(f),
                            }
                        }
                        c.writing = false;
                    } else if op == "flush" {
                        // SAFETY: libc's stdout/stderr.
                        unsafe { libc::fflush(std::ptr::null_mut()) };
                    }
                });
                Ok(())
            }
            other => Err((super::io::iostat::BAD_OPTION, format!("`{other}` is not supported"))),
        }
    }

    /// Closes the unit if connected (deleting its file when asked).
    fn close(&self, delete: bool) -> Result<(), (i64, String)> {
        if let Some(c) = units(|m| m.remove(&self.unit)) {
            // SAFETY: an open FILE, closed once (removed from the table).
            unsafe { libc::fclose(c.file as *mut libc::FILE) };
            if delete {
                let _ = std::fs::remove_file(&c.name);
            }
        }
        Ok(())
    }
}

/// Moves back to the start of the previous record (line).
unsafe fn backspace(f: *mut libc::FILE) {
    let mut pos = libc::ftell(f);
    if pos <= 0 {
        return;
    }
    // skip the newline ending the previous record, then back to the one before it
    pos -= 1;
    while pos > 0 {
        libc::fseek(f, pos - 1, libc::SEEK_SET);
        if libc::fgetc(f) == b'\n' as i32 {
            break;
        }
        pos -= 1;
    }
    libc::fseek(f, pos, libc::SEEK_SET);
}

/// Starts `open`/`close`/`rewind`/`backspace`/`endfile`/`flush` (`op`,
/// NUL-terminated) on `unit` (ignored with `newunit=`).
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_fileop_begin(op: *const c_char, unit: i64, loc: *const c_char) {
    let s = |p: *const c_char| if p.is_null() { String::new() } else { CStr::from_ptr(p).to_string_lossy().into_owned() };
    OP.with(|o| *o.borrow_mut() = Some(FileOp { op: s(op), unit, loc: s(loc), specs: HashMap::new(), result_unit: unit }));
}

/// One specifier of the statement: `key` (NUL-terminated, lower case) and
/// its character value `val[..len]` (numbers the front end passes as text).
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_fileop_spec(key: *const c_char, val: *const u8, len: i64) {
    let k = CStr::from_ptr(key).to_string_lossy().into_owned();
    let v = if val.is_null() || len <= 0 { String::new() } else { String::from_utf8_lossy(std::slice::from_raw_parts(val, len as usize)).into_owned() };
    OP.with(|o| {
        if let Some(op) = o.borrow_mut().as_mut() {
            op.specs.insert(k, v);
        }
    });
}

/// Does the statement; returns its iostat. Without `iostat=` (`wants_iostat`
/// 0) an error ends the program as gfortran's would.
#[no_mangle]
pub extern "C" fn __accjit_f_fileop_end(wants_iostat: i64) -> i64 {
    let Some(mut op) = OP.with(|o| o.borrow_mut().take()) else { return 0 };
    let r = op.run();
    LAST_UNIT.with(|u| *u.borrow_mut() = op.result_unit);
    match r {
        Ok(()) => 0,
        Err((code, msg)) if wants_iostat != 0 => {
            let _ = msg;
            code
        }
        Err((_, msg)) => {
            crate::hosted::flush_c_stdio();
            // gfortran names the unit after the line: `At line 3 of file f.f90 (unit = 12)`
            let text = super::stop::runtime_error_text(&msg, &op.loc).replacen('\n', &format!(" (unit = {})\n", op.unit), 1);
            eprintln!("{text}");
            super::stop::exit_program(2)
        }
    }
}

/// The unit the last `open` on this thread connected (`newunit=`).
#[no_mangle]
pub extern "C" fn __accjit_f_fileop_unit() -> i64 {
    LAST_UNIT.with(|u| *u.borrow())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(name: &std::ffi::CStr, unit: i64, specs: &[(&std::ffi::CStr, &str)]) -> i64 {
        unsafe {
            __accjit_f_fileop_begin(name.as_ptr(), unit, c"t.f90:1".as_ptr());
            for (k, v) in specs {
                __accjit_f_fileop_spec(k.as_ptr(), v.as_ptr(), v.len() as i64);
            }
        }
        __accjit_f_fileop_end(1)
    }

    #[test]
    fn open_old_missing_file_is_an_error_and_newunit_counts_down() {
        let dir = std::env::temp_dir().join(format!("accjit-units-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.txt");
        assert_eq!(op(c"open", 42, &[(c"file", missing.to_str().unwrap()), (c"status", "old")]), libc::ENOENT as i64);
        let f = dir.join("x.txt");
        assert_eq!(op(c"open", 0, &[(c"newunit", ""), (c"file", f.to_str().unwrap()), (c"status", "replace")]), 0);
        let u = __accjit_f_fileop_unit();
        assert!(u <= -10, "{u}");
        assert!(connected(u, true).is_some());
        assert_eq!(op(c"close", u, &[(c"status", "delete")]), 0);
        assert!(connected(u, false).is_none());
        assert!(!f.exists());
    }
}

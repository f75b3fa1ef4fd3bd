//! Variadic shims for the printf family: `__accjit_va_printf`, `_fprintf`,
//! `_sprintf`, `_snprintf`. Cranelift cannot make C variadic calls, so
//! generated code passes the variadic arguments as 64-bit slots with kinds
//! (0 integer, 1 double, 2 pointer; docs/runtime-abi.md).
//!
//! The format is walked here; literal text is copied and each conversion
//! spec is handed to libc's `snprintf` on its own with a value of the C type
//! the spec expects (`int` for `%d`/`%c`/`%hhx`, `long` for `%ld`/`%zu`/…,
//! `double` for `%f %e %g %a`, a pointer for `%s %p`), `*` widths and
//! precisions taken from the slots as `int`. So the bytes are exactly libc's.
//! `long double` is `double` in accjit: `%Lf` is formatted as `%f`. `%n` is
//! refused (a fatal error). `printf` writes through libc's `stdout` FILE, so
//! it interleaves with `puts`, `putchar`, … called directly from JIT code.
//! The `vprintf` family (`__accjit_vprintf`, …, bound under the C names)
//! takes a `va_list` of the program's own variadic functions: a cursor into
//! the same kind of slot block. The wide forms (`wprintf`, `fwprintf`,
//! `swprintf` and their `v` forms) read a UTF-32 format, format it the same
//! way and count wide characters; streams receive UTF-8 bytes.

#![allow(clippy::missing_safety_doc)]

use crate::consts::acc_error_implementation_defined;
use crate::error::{fatal, AccError};
use std::ffi::{c_char, c_int, c_void, CStr};

extern "C" {
    static mut stdout: *mut libc::FILE;
}

/// The variadic arguments of one call.
pub(crate) struct VaArgs {
    slots: *const u64,
    kinds: *const u8,
    n: usize,
    i: usize,
}

impl VaArgs {
    pub(crate) unsafe fn new(slots: *const u64, kinds: *const u8, n: i64) -> VaArgs {
        let n = if slots.is_null() || n < 0 { 0 } else { n as usize };
        VaArgs { slots, kinds, n, i: 0 }
    }

    /// The next slot's bits (0 when the caller passed too few: C would be undefined).
    pub(crate) fn next(&mut self) -> u64 {
        if self.i >= self.n {
            return 0;
        }
        let v = unsafe { *self.slots.add(self.i) };
        self.i += 1;
        v
    }

    /// The next slot as a double: converted when the caller stored an integer.
    fn next_f64(&mut self) -> f64 {
        let kind = if self.i < self.n && !self.kinds.is_null() { unsafe { *self.kinds.add(self.i) } } else { 1 };
        let v = self.next();
        if kind == 0 {
            v as i64 as f64
        } else {
            f64::from_bits(v)
        }
    }
}

/// The value one conversion consumes.
enum Val {
    None,
    Int(c_int),
    Long(i64),
    Double(f64),
    Ptr(*const c_void),
}

/// Formats one conversion spec (`spec` is NUL-terminated) with libc.
unsafe fn put_spec(out: &mut Vec<u8>, spec: &[u8], w: Option<c_int>, p: Option<c_int>, v: &Val) -> bool {
    let mut buf = [0u8; 256];
    let r = snprintf_val(buf.as_mut_ptr() as *mut c_char, buf.len(), spec, w, p, v);
    if r < 0 {
        return false;
    }
    let r = r as usize;
    if r < buf.len() {
        out.extend_from_slice(&buf[..r]);
    } else {
        let mut big = vec![0u8; r + 1];
        snprintf_val(big.as_mut_ptr() as *mut c_char, big.len(), spec, w, p, v);
        out.extend_from_slice(&big[..r]);
    }
    true
}

unsafe fn snprintf_val(buf: *mut c_char, cap: usize, spec: &[u8], w: Option<c_int>, p: Option<c_int>, v: &Val) -> c_int {
    let f = spec.as_ptr() as *const c_char;
    macro_rules! call {
        ($($x:expr),*) => {
            match (w, p) {
                (None, None) => libc::snprintf(buf, cap, f $(, $x)*),
                (Some(w), None) => libc::snprintf(buf, cap, f, w $(, $x)*),
                (None, Some(p)) => libc::snprintf(buf, cap, f, p $(, $x)*),
                (Some(w), Some(p)) => libc::snprintf(buf, cap, f, w, p $(, $x)*),
            }
        };
    }
    match *v {
        Val::None => call!(),
        Val::Int(x) => call!(x),
        Val::Long(x) => call!(x),
        Val::Double(x) => call!(x),
        Val::Ptr(x) => call!(x),
    }
}

/// Formats `fmt` with `args` exactly as libc's printf would; `None` when
/// libc reports an encoding error.
pub(crate) unsafe fn format(fmt: &[u8], args: &mut VaArgs) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(fmt.len() + 16);
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c != b'%' {
            let start = i;
            while i < fmt.len() && fmt[i] != b'%' {
                i += 1;
            }
            out.extend_from_slice(&fmt[start..i]);
            continue;
        }
        // A conversion spec: % flags width .precision length conv
        let start = i;
        i += 1;
        let mut spec: Vec<u8> = vec![b'%'];
        while i < fmt.len() && b"-+ #0'I".contains(&fmt[i]) {
            spec.push(fmt[i]);
            i += 1;
        }
        let mut w = None;
        if i < fmt.len() && fmt[i] == b'*' {
            spec.push(b'*');
            w = Some(args.next() as i64 as c_int);
            i += 1;
        } else {
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                spec.push(fmt[i]);
                i += 1;
            }
        }
        let mut p = None;
        if i < fmt.len() && fmt[i] == b'.' {
            spec.push(b'.');
            i += 1;
            if i < fmt.len() && fmt[i] == b'*' {
                spec.push(b'*');
                p = Some(args.next() as i64 as c_int);
                i += 1;
            } else {
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    spec.push(fmt[i]);
                    i += 1;
                }
            }
        }
        let lstart = i;
        while i < fmt.len() && b"hlLqjzZt".contains(&fmt[i]) {
            i += 1;
        }
        let len = &fmt[lstart..i];
        let Some(&conv) = fmt.get(i) else {
            // A lone '%' at the end: glibc prints it as is.
            out.extend_from_slice(&fmt[start..]);
            break;
        };
        i += 1;
        let long = matches!(len, b"l" | b"ll" | b"q" | b"j" | b"z" | b"Z" | b"t" | b"L");
        let val = match conv {
            b'%' => {
                out.push(b'%');
                continue;
            }
            b'd' | b'i' | b'o' | b'u' | b'x' | b'X' => {
                spec.extend_from_slice(len);
                let v = args.next();
                if long {
                    Val::Long(v as i64)
                } else {
                    Val::Int(v as i64 as c_int)
                }
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => Val::Double(args.next_f64()),
            b'c' | b'C' => {
                spec.extend_from_slice(if len == b"l" { b"l" } else { b"" });
                Val::Int(args.next() as i64 as c_int)
            }
            b's' | b'S' | b'p' => {
                spec.extend_from_slice(if len == b"l" && conv == b's' { b"l" } else { b"" });
                Val::Ptr(args.next() as usize as *const c_void)
            }
            b'm' => Val::None,
            b'n' => fatal(&AccError::new(acc_error_implementation_defined, "printf: the %n conversion is not supported by accjit")),
            _ => {
                // Unknown conversion: glibc prints the spec as written.
                out.extend_from_slice(&fmt[start..i]);
                continue;
            }
        };
        spec.push(conv);
        spec.push(0);
        if !put_spec(&mut out, &spec, w, p, &val) {
            return None;
        }
    }
    Some(out)
}

unsafe fn fmt_bytes<'a>(fmt: *const c_char) -> &'a [u8] {
    if fmt.is_null() {
        b"(null)"
    } else {
        CStr::from_ptr(fmt).to_bytes()
    }
}

unsafe fn write_file(f: *mut libc::FILE, fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    let Some(out) = format(fmt_bytes(fmt), &mut VaArgs::new(slots, kinds, n)) else { return -1 };
    if out.is_empty() {
        return 0;
    }
    if libc::fwrite(out.as_ptr() as *const c_void, 1, out.len(), f) < out.len() {
        return -1;
    }
    out.len() as c_int
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_printf(fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    write_file(stdout, fmt, slots, kinds, n)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_fprintf(f: *mut libc::FILE, fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    write_file(f, fmt, slots, kinds, n)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_sprintf(buf: *mut c_char, fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    let Some(out) = format(fmt_bytes(fmt), &mut VaArgs::new(slots, kinds, n)) else { return -1 };
    std::ptr::copy_nonoverlapping(out.as_ptr(), buf as *mut u8, out.len());
    *buf.add(out.len()) = 0;
    out.len() as c_int
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_snprintf(buf: *mut c_char, size: usize, fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    let Some(out) = format(fmt_bytes(fmt), &mut VaArgs::new(slots, kinds, n)) else { return -1 };
    if size > 0 && !buf.is_null() {
        let k = out.len().min(size - 1);
        std::ptr::copy_nonoverlapping(out.as_ptr(), buf as *mut u8, k);
        *buf.add(k) = 0;
    }
    out.len() as c_int
}

/// A `va_list` of a variadic function of the program: a cursor into the
/// block its variadic arguments came in (the bundled `<stdarg.h>`'s
/// `struct __accjit_va_list`).
#[repr(C)]
pub struct VaCursor {
    slots: *const u64,
    kinds: *const u8,
    count: i64,
}

/// The `vprintf` family reads the arguments left in a cursor (C leaves `ap`
/// indeterminate afterwards; it is not advanced).
unsafe fn cursor(ap: *const VaCursor) -> (*const u64, *const u8, i64) {
    match ap.as_ref() {
        Some(c) => (c.slots, c.kinds, c.count),
        None => (std::ptr::null(), std::ptr::null(), 0),
    }
}

/// `vprintf` (bound in place of libc's: see `libc_overrides`).
pub unsafe extern "C" fn __accjit_vprintf(fmt: *const c_char, ap: *const VaCursor) -> c_int {
    let (s, k, n) = cursor(ap);
    __accjit_va_printf(fmt, s, k, n)
}

pub unsafe extern "C" fn __accjit_vfprintf(f: *mut libc::FILE, fmt: *const c_char, ap: *const VaCursor) -> c_int {
    let (s, k, n) = cursor(ap);
    __accjit_va_fprintf(f, fmt, s, k, n)
}

pub unsafe extern "C" fn __accjit_vsprintf(buf: *mut c_char, fmt: *const c_char, ap: *const VaCursor) -> c_int {
    let (s, k, n) = cursor(ap);
    __accjit_va_sprintf(buf, fmt, s, k, n)
}

pub unsafe extern "C" fn __accjit_vsnprintf(buf: *mut c_char, size: usize, fmt: *const c_char, ap: *const VaCursor) -> c_int {
    let (s, k, n) = cursor(ap);
    __accjit_va_snprintf(buf, size, fmt, s, k, n)
}

/// A wide format string (`wchar_t` is UTF-32) as the UTF-8 bytes the
/// format engine reads; code units that are not characters become U+FFFD.
unsafe fn wide_fmt(fmt: *const i32) -> Vec<u8> {
    if fmt.is_null() {
        return b"(null)".to_vec();
    }
    let mut s = String::new();
    let mut p = fmt;
    while *p != 0 {
        s.push(char::from_u32(*p as u32).unwrap_or(char::REPLACEMENT_CHARACTER));
        p = p.add(1);
    }
    s.into_bytes()
}

/// The wide characters of formatted output (UTF-8 from the engine).
fn wide_chars(out: &[u8]) -> Vec<i32> {
    String::from_utf8_lossy(out).chars().map(|c| c as i32).collect()
}

/// `wprintf` and `fwprintf`: the output goes to the stream as UTF-8 bytes
/// (the stream stays byte-oriented); the result counts wide characters.
unsafe fn wide_write_file(f: *mut libc::FILE, fmt: *const i32, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    let Some(out) = format(&wide_fmt(fmt), &mut VaArgs::new(slots, kinds, n)) else { return -1 };
    if !out.is_empty() && libc::fwrite(out.as_ptr() as *const c_void, 1, out.len(), f) < out.len() {
        return -1;
    }
    wide_chars(&out).len() as c_int
}

/// `swprintf`: at most `size` wide characters with the terminating NUL;
/// negative when the output does not fit (C99 7.24.2.3).
unsafe fn wide_write_buf(buf: *mut i32, size: usize, fmt: *const i32, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    let Some(out) = format(&wide_fmt(fmt), &mut VaArgs::new(slots, kinds, n)) else { return -1 };
    let w = wide_chars(&out);
    if size == 0 || buf.is_null() {
        return -1;
    }
    let k = w.len().min(size - 1);
    std::ptr::copy_nonoverlapping(w.as_ptr(), buf, k);
    *buf.add(k) = 0;
    if w.len() >= size {
        -1
    } else {
        w.len() as c_int
    }
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_wprintf(fmt: *const i32, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    wide_write_file(stdout, fmt, slots, kinds, n)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_fwprintf(f: *mut libc::FILE, fmt: *const i32, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    wide_write_file(f, fmt, slots, kinds, n)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_swprintf(buf: *mut i32, size: usize, fmt: *const i32, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    wide_write_buf(buf, size, fmt, slots, kinds, n)
}

/// `vwprintf` (bound in place of libc's, like `vprintf`).
pub unsafe extern "C" fn __accjit_vwprintf(fmt: *const i32, ap: *const VaCursor) -> c_int {
    let (s, k, n) = cursor(ap);
    wide_write_file(stdout, fmt, s, k, n)
}

pub unsafe extern "C" fn __accjit_vfwprintf(f: *mut libc::FILE, fmt: *const i32, ap: *const VaCursor) -> c_int {
    let (s, k, n) = cursor(ap);
    wide_write_file(f, fmt, s, k, n)
}

pub unsafe extern "C" fn __accjit_vswprintf(buf: *mut i32, size: usize, fmt: *const i32, ap: *const VaCursor) -> c_int {
    let (s, k, n) = cursor(ap);
    wide_write_buf(buf, size, fmt, s, k, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;

    enum A {
        I(i64),
        D(f64),
        P(*const c_void),
    }

    fn shim(fmt: &str, args: &[A]) -> (String, c_int) {
        let slots: Vec<u64> = args
            .iter()
            .map(|a| match a {
                A::I(v) => *v as u64,
                A::D(d) => d.to_bits(),
                A::P(p) => *p as u64,
            })
            .collect();
        let kinds: Vec<u8> = args
            .iter()
            .map(|a| match a {
                A::I(_) => 0,
                A::D(_) => 1,
                A::P(_) => 2,
            })
            .collect();
        let f = CString::new(fmt).unwrap();
        let mut buf = vec![0u8; 4096];
        let r = unsafe { __accjit_va_sprintf(buf.as_mut_ptr() as *mut c_char, f.as_ptr(), slots.as_ptr(), kinds.as_ptr(), slots.len() as i64) };
        let s = unsafe { CStr::from_ptr(buf.as_ptr() as *const c_char) }.to_string_lossy().into_owned();
        (s, r)
    }

    #[test]
    fn wide_forms_and_cursor() {
        let fmt: Vec<i32> = "n=%d x=%.2f \u{e9}\0".chars().map(|c| c as i32).collect();
        let slots = [42u64, 2.5f64.to_bits()];
        let kinds = [0u8, 1];
        let mut buf = [0i32; 32];
        let r = unsafe { __accjit_va_swprintf(buf.as_mut_ptr(), buf.len(), fmt.as_ptr(), slots.as_ptr(), kinds.as_ptr(), 2) };
        let want: Vec<i32> = "n=42 x=2.50 \u{e9}".chars().map(|c| c as i32).collect();
        assert_eq!(r as usize, want.len());
        assert_eq!(&buf[..want.len() + 1], &[want.clone(), vec![0]].concat()[..]);
        // Too small: negative, truncated and terminated.
        let r = unsafe { __accjit_va_swprintf(buf.as_mut_ptr(), 4, fmt.as_ptr(), slots.as_ptr(), kinds.as_ptr(), 2) };
        assert!(r < 0 && buf[3] == 0 && buf[..3] == want[..3]);
        // The v forms read what is left in a va_list cursor.
        let cursor = VaCursor { slots: slots.as_ptr(), kinds: kinds.as_ptr(), count: 2 };
        let nfmt = CString::new("%d/%.1f").unwrap();
        let mut out = [0u8; 16];
        let r = unsafe { __accjit_vsnprintf(out.as_mut_ptr() as *mut c_char, out.len(), nfmt.as_ptr(), &cursor) };
        assert_eq!((r, unsafe { CStr::from_ptr(out.as_ptr() as *const c_char) }.to_str().unwrap()), (6, "42/2.5"));
    }

    macro_rules! libc_fmt {
        ($fmt:expr $(, $a:expr)*) => {{
            let f = CString::new($fmt).unwrap();
            let mut buf = vec![0u8; 4096];
            let r = unsafe { libc::snprintf(buf.as_mut_ptr() as *mut c_char, buf.len(), f.as_ptr() $(, $a)*) };
            (unsafe { CStr::from_ptr(buf.as_ptr() as *const c_char) }.to_string_lossy().into_owned(), r)
        }};
    }

    #[test]
    fn matches_libc_for_a_table_of_formats() {
        let s = CString::new("héllo").unwrap();
        let sp = s.as_ptr() as *const c_void;
        let cases: Vec<(&str, Vec<A>, (String, c_int))> = vec![
            ("plain text", vec![], libc_fmt!("plain text")),
            ("%d|%5d|%-5d|%05d|%+d", vec![A::I(42), A::I(-42), A::I(7), A::I(3), A::I(9)], libc_fmt!("%d|%5d|%-5d|%05d|%+d", 42, -42, 7, 3, 9)),
            (
                "%i %u %x %X %o %#x",
                vec![A::I(-1), A::I(-1), A::I(255), A::I(255), A::I(8), A::I(255)],
                libc_fmt!("%i %u %x %X %o %#x", -1, -1, 255, 255, 8, 255),
            ),
            (
                "%ld %lld %lu %zu %jd",
                vec![A::I(i64::MIN), A::I(-5), A::I(-1), A::I(123456789012), A::I(77)],
                libc_fmt!("%ld %lld %lu %zu %jd", i64::MIN, -5i64, -1i64, 123456789012i64, 77i64),
            ),
            ("%hhd %hd %hhu", vec![A::I(300), A::I(70000), A::I(-1)], libc_fmt!("%hhd %hd %hhu", 300, 70000, -1)),
            ("%c%c%c", vec![A::I(65), A::I(66), A::I(10)], libc_fmt!("%c%c%c", 65, 66, 10)),
            ("[%s] [%10s] [%-8.3s]", vec![A::P(sp), A::P(sp), A::P(sp)], libc_fmt!("[%s] [%10s] [%-8.3s]", sp, sp, sp)),
            (
                "%f %.2f %10.4f %-10.1f|",
                vec![A::D(2.6789), A::D(2.005), A::D(-1.5), A::D(1e10)],
                libc_fmt!("%f %.2f %10.4f %-10.1f|", 2.6789, 2.005, -1.5, 1e10),
            ),
            (
                "%e %E %g %G %a",
                vec![A::D(12345.678), A::D(1e-300), A::D(0.0001), A::D(1e20), A::D(1.0)],
                libc_fmt!("%e %E %g %G %a", 12345.678, 1e-300, 0.0001, 1e20, 1.0),
            ),
            ("%f %f %f", vec![A::D(f64::INFINITY), A::D(f64::NAN), A::D(-0.0)], libc_fmt!("%f %f %f", f64::INFINITY, f64::NAN, -0.0)),
            (
                "%*d|%-*d|%.*f|%*.*f",
                vec![A::I(6), A::I(1), A::I(4), A::I(2), A::I(3), A::D(1.23456), A::I(9), A::I(2), A::D(2.6789)],
                libc_fmt!("%*d|%-*d|%.*f|%*.*f", 6, 1, 4, 2, 3, 1.23456, 9, 2, 2.6789),
            ),
            ("100%% done %d%%", vec![A::I(5)], libc_fmt!("100%% done %d%%", 5)),
            ("%p", vec![A::P(sp)], libc_fmt!("%p", sp)),
            ("%p", vec![A::P(std::ptr::null())], libc_fmt!("%p", std::ptr::null::<c_void>())),
            ("%.3d %.0d| % d", vec![A::I(5), A::I(0), A::I(5)], libc_fmt!("%.3d %.0d| % d", 5, 0, 5)),
            ("%g %g %#g", vec![A::D(100000.0), A::D(1e6), A::D(1.0)], libc_fmt!("%g %g %#g", 100000.0, 1e6, 1.0)),
        ];
        for (fmt, args, want) in cases {
            assert_eq!(shim(fmt, &args), want, "format {fmt:?}");
        }
        // long double is double: %Lf formats like %f
        assert_eq!(shim("%Lf %.3Le", &[A::D(2.5), A::D(1234.5)]), libc_fmt!("%f %.3e", 2.5, 1234.5));
        // an integer slot under %f is converted
        assert_eq!(shim("%.1f", &[A::I(3)]).0, "3.0");
    }

    #[test]
    fn snprintf_truncates_and_returns_full_length() {
        let f = CString::new("abc%d").unwrap();
        let slots = [12345u64];
        let kinds = [0u8];
        let mut buf = [0x55u8; 8];
        let r = unsafe { __accjit_va_snprintf(buf.as_mut_ptr() as *mut c_char, 5, f.as_ptr(), slots.as_ptr(), kinds.as_ptr(), 1) };
        assert_eq!(r, 8);
        assert_eq!(&buf[..5], b"abc1\0");
        assert_eq!(buf[5], 0x55, "nothing past size is written");
    }

    #[test]
    fn fprintf_writes_through_the_file() {
        unsafe {
            let f = libc::tmpfile();
            assert!(!f.is_null());
            libc::fputs(c"before ".as_ptr(), f);
            let fmt = CString::new("%s=%05.1f%c").unwrap();
            let name = CString::new("pi").unwrap();
            let slots = [name.as_ptr() as u64, 2.6789f64.to_bits(), b'\n' as u64];
            let r = __accjit_va_fprintf(f, fmt.as_ptr(), slots.as_ptr(), [2u8, 1, 0].as_ptr(), 3);
            assert_eq!(r, 9);
            libc::fputs(c"after".as_ptr(), f);
            libc::rewind(f);
            let mut buf = [0u8; 64];
            let n = libc::fread(buf.as_mut_ptr() as *mut c_void, 1, 64, f);
            assert_eq!(&buf[..n], b"before pi=002.7\nafter");
            libc::fclose(f);
        }
    }
}

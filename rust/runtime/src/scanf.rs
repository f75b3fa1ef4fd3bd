//! Variadic shims for the scanf family: `__accjit_va_scanf`, `_sscanf`,
//! `_fscanf` (arguments as pointer slots, docs/runtime-abi.md).
//!
//! The format is split into directives (a whitespace run, a literal run, one
//! conversion); each is handed to libc's `sscanf`/`fscanf` on its own with
//! `%n` appended, so libc does the parsing with its own rules while the shim
//! learns how much input each directive consumed. The result follows C:
//! the number of assignments, or `EOF` when input ends before the first
//! conversion. The user's own `%n` is answered from the running count.

#![allow(clippy::missing_safety_doc)]

use crate::printf::VaArgs;
use std::ffi::{c_char, c_int, c_void, CStr};

extern "C" {
    static mut stdin: *mut libc::FILE;
}

/// Where the input comes from.
enum Src {
    Str(*const c_char),
    File(*mut libc::FILE),
}

#[derive(PartialEq, Eq)]
enum Kind {
    /// Whitespace or literal text.
    Match,
    /// A conversion that assigns (`%d`) or not (`%*d`).
    Conv { assign: bool },
    /// The user's `%n` with its length modifier.
    Count(Vec<u8>),
}

/// Splits a scanf format into directives (each is a piece of format text).
fn directives(fmt: &[u8]) -> Vec<(Vec<u8>, Kind)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        let c = fmt[i];
        if c.is_ascii_whitespace() {
            while i < fmt.len() && fmt[i].is_ascii_whitespace() {
                i += 1;
            }
            out.push((b" ".to_vec(), Kind::Match));
            continue;
        }
        if c != b'%' || fmt.get(i + 1) == Some(&b'%') {
            let start = i;
            while i < fmt.len() && !fmt[i].is_ascii_whitespace() && !(fmt[i] == b'%' && fmt.get(i + 1) != Some(&b'%')) {
                i += if fmt[i] == b'%' { 2 } else { 1 };
            }
            out.push((fmt[start..i.min(fmt.len())].to_vec(), Kind::Match));
            continue;
        }
        let start = i;
        i += 1;
        let assign = fmt.get(i) != Some(&b'*');
        if !assign {
            i += 1;
        }
        while i < fmt.len() && fmt[i].is_ascii_digit() {
            i += 1;
        }
        let lstart = i;
        while i < fmt.len() && b"hlLqjztm".contains(&fmt[i]) {
            i += 1;
        }
        let len = fmt[lstart..i].to_vec();
        match fmt.get(i) {
            None => break,
            Some(b'n') => {
                i += 1;
                out.push((Vec::new(), Kind::Count(len)));
            }
            Some(b'[') => {
                i += 1;
                if fmt.get(i) == Some(&b'^') {
                    i += 1;
                }
                if fmt.get(i) == Some(&b']') {
                    i += 1;
                }
                while i < fmt.len() && fmt[i] != b']' {
                    i += 1;
                }
                i = (i + 1).min(fmt.len());
                out.push((fmt[start..i].to_vec(), Kind::Conv { assign }));
            }
            Some(_) => {
                i += 1;
                out.push((fmt[start..i].to_vec(), Kind::Conv { assign }));
            }
        }
    }
    out
}

unsafe fn store_count(p: *mut c_void, len: &[u8], n: i64) {
    if p.is_null() {
        return;
    }
    match len {
        b"hh" => *(p as *mut i8) = n as i8,
        b"h" => *(p as *mut i16) = n as i16,
        b"l" | b"ll" | b"q" | b"j" | b"z" | b"t" => *(p as *mut i64) = n,
        _ => *(p as *mut c_int) = n as c_int,
    }
}

unsafe fn scan(src: Src, fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    if fmt.is_null() {
        return -1;
    }
    let mut args = VaArgs::new(slots, kinds, n);
    let mut cur = match src {
        Src::Str(s) if s.is_null() => return -1,
        Src::Str(s) => s,
        Src::File(_) => std::ptr::null(),
    };
    let mut assigned: c_int = 0;
    let mut converted = false;
    let mut total: i64 = 0;
    for (mut piece, kind) in directives(CStr::from_ptr(fmt).to_bytes()) {
        if let Kind::Count(len) = &kind {
            store_count(args.next() as usize as *mut c_void, len, total);
            continue;
        }
        piece.extend_from_slice(b"%n\0");
        let spec = piece.as_ptr() as *const c_char;
        let mut used: c_int = -1;
        let target = if kind == (Kind::Conv { assign: true }) { Some(args.next() as usize as *mut c_void) } else { None };
        let r = match (&src, target) {
            (Src::Str(_), Some(t)) => libc::sscanf(cur, spec, t, &mut used as *mut c_int),
            (Src::Str(_), None) => libc::sscanf(cur, spec, &mut used as *mut c_int),
            (Src::File(f), Some(t)) => libc::fscanf(*f, spec, t, &mut used as *mut c_int),
            (Src::File(f), None) => libc::fscanf(*f, spec, &mut used as *mut c_int),
        };
        if used < 0 {
            // Input failure (EOF) or matching failure.
            if r == libc::EOF && !converted {
                return libc::EOF;
            }
            return assigned;
        }
        total += used as i64;
        if let Src::Str(_) = src {
            cur = cur.add(used as usize);
        }
        if let Kind::Conv { assign } = kind {
            converted = true;
            if assign {
                assigned += 1;
            }
        }
    }
    assigned
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_scanf(fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    scan(Src::File(stdin), fmt, slots, kinds, n)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_sscanf(s: *const c_char, fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    scan(Src::Str(s), fmt, slots, kinds, n)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_va_fscanf(f: *mut libc::FILE, fmt: *const c_char, slots: *const u64, kinds: *const u8, n: i64) -> c_int {
    if f.is_null() {
        return -1;
    }
    scan(Src::File(f), fmt, slots, kinds, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;

    fn sscanf_shim(input: &str, fmt: &str, ptrs: &[*mut c_void]) -> c_int {
        let i = CString::new(input).unwrap();
        let f = CString::new(fmt).unwrap();
        let slots: Vec<u64> = ptrs.iter().map(|p| *p as u64).collect();
        let kinds = vec![2u8; slots.len()];
        unsafe { __accjit_va_sscanf(i.as_ptr(), f.as_ptr(), slots.as_ptr(), kinds.as_ptr(), slots.len() as i64) }
    }

    #[test]
    fn sscanf_conversions_and_counts() {
        let (mut a, mut b) = (0 as c_int, 0i64);
        let mut d = 0f64;
        let mut s = [0u8; 16];
        let mut cnt = 0 as c_int;
        let r = sscanf_shim(
            "  42, -7 3.5e2 word rest",
            "%d, %ld %lf %15s%n",
            &[&mut a as *mut _ as _, &mut b as *mut _ as _, &mut d as *mut _ as _, s.as_mut_ptr() as _, &mut cnt as *mut _ as _],
        );
        assert_eq!(r, 4);
        assert_eq!((a, b, d), (42, -7, 350.0));
        assert_eq!(&s[..5], b"word\0");
        assert_eq!(cnt, 19);
    }

    #[test]
    fn sscanf_failures_follow_c() {
        let mut a = 0 as c_int;
        let mut b = 0 as c_int;
        assert_eq!(sscanf_shim("", "%d", &[&mut a as *mut _ as _]), -1, "EOF before the first conversion");
        assert_eq!(sscanf_shim("   ", "%d", &[&mut a as *mut _ as _]), -1);
        assert_eq!(sscanf_shim("x", "%d", &[&mut a as *mut _ as _]), 0, "matching failure");
        assert_eq!(sscanf_shim("5 x", "%d %d", &[&mut a as *mut _ as _, &mut b as *mut _ as _]), 1);
        assert_eq!(a, 5);
        assert_eq!(sscanf_shim("5", "%d %d", &[&mut a as *mut _ as _, &mut b as *mut _ as _]), 1, "EOF after a conversion");
        assert_eq!(sscanf_shim("1 2 3", "%*d %d", &[&mut b as *mut _ as _]), 1, "suppressed conversions do not count");
        assert_eq!(b, 2);
        let mut c = [0u8; 8];
        assert_eq!(sscanf_shim("ab12", "%[a-z]%d", &[c.as_mut_ptr() as _, &mut a as *mut _ as _]), 2);
        assert_eq!((&c[..3], a), (&b"ab\0"[..], 12));
        assert_eq!(sscanf_shim("key=9", "key=%d", &[&mut a as *mut _ as _]), 1);
        assert_eq!(a, 9);
        assert_eq!(sscanf_shim("kex=9", "key=%d", &[&mut a as *mut _ as _]), 0);
        assert_eq!(sscanf_shim("50%", "%d%%", &[&mut a as *mut _ as _]), 1);
    }

    #[test]
    fn fscanf_reads_a_stream_directive_by_directive() {
        unsafe {
            let f = libc::tmpfile();
            assert!(!f.is_null());
            let text = b"12 abc 3.5\nx=7 tail";
            libc::fwrite(text.as_ptr() as *const c_void, 1, text.len(), f);
            libc::rewind(f);
            let (mut a, mut d, mut x) = (0 as c_int, 0f64, 0 as c_int);
            let mut w = [0u8; 8];
            let fmt = CString::new("%d %7s %lf x=%d").unwrap();
            let slots = [&mut a as *mut c_int as u64, w.as_mut_ptr() as u64, &mut d as *mut f64 as u64, &mut x as *mut c_int as u64];
            let r = __accjit_va_fscanf(f, fmt.as_ptr(), slots.as_ptr(), [2u8; 4].as_ptr(), 4);
            assert_eq!(r, 4);
            assert_eq!((a, d, x), (12, 3.5, 7));
            assert_eq!(&w[..4], b"abc\0");
            // the stream is left right after what was consumed
            let mut rest = [0u8; 8];
            let n = libc::fread(rest.as_mut_ptr() as *mut c_void, 1, 8, f);
            assert_eq!(&rest[..n], b" tail");
            let r = __accjit_va_fscanf(f, fmt.as_ptr(), slots.as_ptr(), [2u8; 4].as_ptr(), 4);
            assert_eq!(r, libc::EOF);
            libc::fclose(f);
        }
    }
}

//! Atomic operations on every C scalar type as PTX: [`atomic_rmw`] and
//! [`atomic_cas`] write the instructions through the code generator's
//! [`Emit`] and return the register holding the old value.
//!
//! The operation is `*addr = old OP val` (the IR's `x = x op v`, with `v`
//! already converted to x's type; reversed and mixed-type forms are the
//! caller's compare-and-swap loop over [`atomic_cas`]). Native `atom` where
//! PTX has the operation for the type and width: add (u32/s32/u64/f32/f64,
//! s64 through u64), sub as add of the negation, and/or/xor (.b32/.b64),
//! min/max (u32/s32/u64/s64), exch (.b32/.b64). Everything else is a CAS
//! loop on the value's bits: mul, div, shifts, float min/max, and every
//! 8- and 16-bit operation, which works on the aligned 32-bit word that
//! contains the value (little endian, the neighbours left as they are).
//!
//! Min/Max follow the IR's atomic semantics (back/clif/src/atomic.rs):
//! `max`: `val > old ? val : old`, `min`: `val < old ? val : old`, so a NaN
//! operand leaves the old value and of two zeros the old one stays; the CAS
//! loop stores nothing when the value would not change.
//!
//! Conventions of the interface: `addr` is a 64-bit register (or operand)
//! holding an address of `space` (for `Shared`, a shared-window address as
//! `mov.u64 %rd, var` gives); `val`, `expected`, `new` and the returned
//! register have the register class of `ty` ([`PtxTy::reg_class`]: 8- and
//! 16-bit values in `.b16` registers, the returned old value of a signed
//! 8-bit type sign-extended to 16 bits). `Emit::line` receives one complete
//! instruction (with its `;`) or a label line (`NAME:`); `Emit::label`
//! returns a fresh label name; `Emit::reg` a fresh register of the class of
//! the type it is given. Memory semantics: relaxed, scope gpu (`atom`'s
//! default; reads are `ld.relaxed.gpu`).

use crate::ty::{PtxTy, Space};

/// Where the atomic emitters write their instructions (the code generator).
pub trait Emit {
    /// A fresh register of `ty.reg_class()`.
    fn reg(&mut self, ty: PtxTy) -> String;
    /// A fresh label name.
    fn label(&mut self) -> String;
    /// One instruction (ending in `;`) or a label line (`NAME:`).
    fn line(&mut self, text: &str);
}

/// The read-modify-write operations of `#pragma acc atomic` (Exch is the
/// write; Read returns the value and ignores `val`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Exch,
    Read,
}

fn space_name(space: Space) -> &'static str {
    match space {
        Space::Global => ".global",
        Space::Shared => ".shared",
        Space::Generic => "",
    }
}

fn is_float(ty: PtxTy) -> bool {
    matches!(ty, PtxTy::F32 | PtxTy::F64)
}

fn is_signed(ty: PtxTy, signed: bool) -> bool {
    signed || matches!(ty, PtxTy::S8 | PtxTy::S16 | PtxTy::S32 | PtxTy::S64)
}

/// The integer type of `bytes` with the signedness asked.
fn int_ty(bytes: u32, signed: bool) -> PtxTy {
    match (bytes, signed) {
        (1, false) => PtxTy::U8,
        (1, true) => PtxTy::S8,
        (2, false) => PtxTy::U16,
        (2, true) => PtxTy::S16,
        (4, false) => PtxTy::U32,
        (4, true) => PtxTy::S32,
        (_, false) => PtxTy::U64,
        (_, true) => PtxTy::S64,
    }
}

fn bits_ty(bytes: u32) -> PtxTy {
    match bytes {
        1 => PtxTy::B8,
        2 => PtxTy::B16,
        4 => PtxTy::B32,
        _ => PtxTy::B64,
    }
}

/// `*addr = old OP val`, atomically; returns the register with the old value.
pub fn atomic_rmw(e: &mut dyn Emit, op: AtomicOp, ty: PtxTy, signed: bool, space: Space, addr: &str, val: &str) -> String {
    let sp = space_name(space);
    let bytes = ty.bytes();
    let sgn = is_signed(ty, signed);
    let old = e.reg(ty);
    if op == AtomicOp::Read {
        let t = if is_float(ty) { ty } else { int_ty(bytes, sgn) };
        e.line(&format!("ld.relaxed.gpu{sp}.{} {old}, [{addr}];", t.name()));
        return old;
    }
    if bytes < 4 {
        return subword_rmw(e, op, ty, sgn, sp, addr, val, old);
    }
    let wide = bytes == 8;
    // Native forms.
    let native = match (op, is_float(ty)) {
        (AtomicOp::Add, true) => Some(format!("add.{}", ty.name())),
        (AtomicOp::Add, false) => Some(format!(
            "add.{}",
            if wide {
                "u64"
            } else if sgn {
                "s32"
            } else {
                "u32"
            }
        )),
        (AtomicOp::And, false) => Some(format!("and.{}", bits_ty(bytes).name())),
        (AtomicOp::Or, false) => Some(format!("or.{}", bits_ty(bytes).name())),
        (AtomicOp::Xor, false) => Some(format!("xor.{}", bits_ty(bytes).name())),
        (AtomicOp::Min, false) => Some(format!("min.{}", int_ty(bytes, sgn).name())),
        (AtomicOp::Max, false) => Some(format!("max.{}", int_ty(bytes, sgn).name())),
        _ => None,
    };
    if let Some(inst) = native {
        e.line(&format!("atom{sp}.{inst} {old}, [{addr}], {val};"));
        return old;
    }
    if op == AtomicOp::Sub {
        // x - v = x + (-v), exactly, for integers (two's complement) and floats.
        let neg = e.reg(ty);
        let nt = if is_float(ty) {
            ty.name()
        } else if wide {
            "s64"
        } else {
            "s32"
        };
        e.line(&format!("neg.{nt} {neg}, {val};"));
        let at = if is_float(ty) {
            ty.name()
        } else if wide {
            "u64"
        } else {
            "u32"
        };
        e.line(&format!("atom{sp}.add.{at} {old}, [{addr}], {neg};"));
        return old;
    }
    if op == AtomicOp::Exch {
        let b = bits_ty(bytes);
        if is_float(ty) {
            let (vb, ob) = (e.reg(b), e.reg(b));
            e.line(&format!("mov.{} {vb}, {val};", b.name()));
            e.line(&format!("atom{sp}.exch.{} {ob}, [{addr}], {vb};", b.name()));
            e.line(&format!("mov.{} {old}, {ob};", b.name()));
        } else {
            e.line(&format!("atom{sp}.exch.{} {old}, [{addr}], {val};", b.name()));
        }
        return old;
    }
    // Compare-and-swap loop on the bits.
    let b = bits_ty(bytes);
    let (cur, next, seen) = (e.reg(b), e.reg(b), e.reg(b));
    let new = e.reg(ty);
    let p = e.reg(PtxTy::Pred);
    let (top, done) = (e.label(), e.label());
    e.line(&format!("ld.relaxed.gpu{sp}.{} {cur}, [{addr}];", b.name()));
    e.line(&format!("{top}:"));
    e.line(&format!("mov.{} {old}, {cur};", b.name()));
    let t = ty.name();
    let it = int_ty(bytes, sgn).name();
    let bn = b.name();
    match (op, is_float(ty)) {
        (AtomicOp::Mul, true) => e.line(&format!("mul.rn.{t} {new}, {old}, {val};")),
        (AtomicOp::Div, true) => e.line(&format!("div.rn.{t} {new}, {old}, {val};")),
        (AtomicOp::Max | AtomicOp::Min, true) => {
            // Unchanged unless val > old (max) / val < old (min): no store then.
            let cmp = if op == AtomicOp::Max { "gt" } else { "lt" };
            e.line(&format!("setp.{cmp}.{t} {p}, {val}, {old};"));
            e.line(&format!("@!{p} bra {done};"));
            e.line(&format!("mov.{t} {new}, {val};"));
        }
        (AtomicOp::Mul, false) => e.line(&format!("mul.lo.{it} {new}, {old}, {val};")),
        (AtomicOp::Div, false) => e.line(&format!("div.{it} {new}, {old}, {val};")),
        (AtomicOp::Shl | AtomicOp::Shr, false) => {
            let amount = if wide {
                let a = e.reg(PtxTy::U32);
                e.line(&format!("cvt.u32.u64 {a}, {val};"));
                a
            } else {
                val.to_string()
            };
            if op == AtomicOp::Shl {
                e.line(&format!("shl.{bn} {new}, {old}, {amount};"));
            } else {
                e.line(&format!("shr.{it} {new}, {old}, {amount};"));
            }
        }
        _ => panic!("atomic_rmw: no {op:?} on {ty:?}"),
    }
    e.line(&format!("mov.{bn} {next}, {new};"));
    e.line(&format!("atom{sp}.cas.{bn} {seen}, [{addr}], {cur}, {next};"));
    e.line(&format!("setp.ne.{bn} {p}, {seen}, {cur};"));
    e.line(&format!("mov.{bn} {cur}, {seen};"));
    e.line(&format!("@{p} bra {top};"));
    e.line(&format!("{done}:"));
    old
}

/// The aligned word containing an 8/16-bit value: (word address, bit shift, mask in place).
fn subword_place(e: &mut dyn Emit, bytes: u32, addr: &str) -> (String, String, String) {
    let (word, lo, shift, mask) = (e.reg(PtxTy::B64), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32));
    e.line(&format!("and.b64 {word}, {addr}, -4;"));
    e.line(&format!("cvt.u32.u64 {lo}, {addr};"));
    e.line(&format!("and.b32 {lo}, {lo}, 3;"));
    e.line(&format!("shl.b32 {shift}, {lo}, 3;"));
    e.line(&format!("shl.b32 {mask}, {}, {shift};", if bytes == 1 { "0xFF" } else { "0xFFFF" }));
    (word, shift, mask)
}

/// 8/16-bit read-modify-write: a CAS loop on the containing 32-bit word,
/// the operation computed in 32 bits on the extended values and truncated.
#[allow(clippy::too_many_arguments)]
fn subword_rmw(e: &mut dyn Emit, op: AtomicOp, ty: PtxTy, sgn: bool, sp: &str, addr: &str, val: &str, old: String) -> String {
    let bytes = ty.bytes();
    let bits = bytes * 8;
    let (word, shift, mask) = subword_place(e, bytes, addr);
    // The operand extended to 32 bits.
    let v32 = e.reg(PtxTy::B32);
    let ext = int_ty(bytes, sgn).name();
    e.line(&format!("cvt.{}32.{ext} {v32}, {val};", if sgn { "s" } else { "u" }));
    let (cur, next, seen, o32, n32, t) = (e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32));
    let p = e.reg(PtxTy::Pred);
    let top = e.label();
    let done = e.label();
    e.line(&format!("ld.relaxed.gpu{sp}.b32 {cur}, [{word}];"));
    e.line(&format!("{top}:"));
    // The old value, extended.
    e.line(&format!("bfe.{}32 {o32}, {cur}, {shift}, {bits};", if sgn { "s" } else { "u" }));
    let s = if sgn { "s32" } else { "u32" };
    match op {
        AtomicOp::Add => e.line(&format!("add.u32 {n32}, {o32}, {v32};")),
        AtomicOp::Sub => e.line(&format!("sub.u32 {n32}, {o32}, {v32};")),
        AtomicOp::Mul => e.line(&format!("mul.lo.u32 {n32}, {o32}, {v32};")),
        AtomicOp::Div => e.line(&format!("div.{s} {n32}, {o32}, {v32};")),
        AtomicOp::And => e.line(&format!("and.b32 {n32}, {o32}, {v32};")),
        AtomicOp::Or => e.line(&format!("or.b32 {n32}, {o32}, {v32};")),
        AtomicOp::Xor => e.line(&format!("xor.b32 {n32}, {o32}, {v32};")),
        AtomicOp::Shl => e.line(&format!("shl.b32 {n32}, {o32}, {v32};")),
        AtomicOp::Shr => e.line(&format!("shr.{s} {n32}, {o32}, {v32};")),
        AtomicOp::Min | AtomicOp::Max => {
            let cmp = if op == AtomicOp::Max { "gt" } else { "lt" };
            e.line(&format!("setp.{cmp}.{s} {p}, {v32}, {o32};"));
            e.line(&format!("@!{p} bra {done};"));
            e.line(&format!("mov.b32 {n32}, {v32};"));
        }
        AtomicOp::Exch => e.line(&format!("mov.b32 {n32}, {v32};")),
        AtomicOp::Read => unreachable!("handled by atomic_rmw"),
    }
    // Put the new bits in place and swap the word.
    e.line(&format!("shl.b32 {t}, {n32}, {shift};"));
    e.line(&format!("and.b32 {t}, {t}, {mask};"));
    e.line(&format!("not.b32 {next}, {mask};"));
    e.line(&format!("and.b32 {next}, {cur}, {next};"));
    e.line(&format!("or.b32 {next}, {next}, {t};"));
    e.line(&format!("atom{sp}.cas.b32 {seen}, [{word}], {cur}, {next};"));
    e.line(&format!("setp.ne.b32 {p}, {seen}, {cur};"));
    e.line(&format!("mov.b32 {cur}, {seen};"));
    e.line(&format!("@{p} bra {top};"));
    e.line(&format!("{done}:"));
    e.line(&format!("cvt.u16.u32 {old}, {o32};"));
    old
}

/// `*addr == expected ? *addr = new : nothing`, atomically; returns the
/// register with the value found (equal to `expected` when the swap happened;
/// floats compare by their bits).
pub fn atomic_cas(e: &mut dyn Emit, ty: PtxTy, space: Space, addr: &str, expected: &str, new: &str) -> String {
    let sp = space_name(space);
    let bytes = ty.bytes();
    let old = e.reg(ty);
    if bytes >= 4 {
        let b = bits_ty(bytes);
        if is_float(ty) {
            let (x, n, o) = (e.reg(b), e.reg(b), e.reg(b));
            e.line(&format!("mov.{} {x}, {expected};", b.name()));
            e.line(&format!("mov.{} {n}, {new};", b.name()));
            e.line(&format!("atom{sp}.cas.{} {o}, [{addr}], {x}, {n};", b.name()));
            e.line(&format!("mov.{} {old}, {o};", b.name()));
        } else {
            e.line(&format!("atom{sp}.cas.{} {old}, [{addr}], {expected}, {new};", b.name()));
        }
        return old;
    }
    // 8/16 bits: swap the containing word while the other bytes may change under us.
    let bits = bytes * 8;
    let (word, shift, mask) = subword_place(e, bytes, addr);
    let (x32, n32, cur, want, next, seen, o32) =
        (e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32), e.reg(PtxTy::B32));
    let p = e.reg(PtxTy::Pred);
    let (top, done) = (e.label(), e.label());
    e.line(&format!("cvt.u32.u16 {x32}, {expected};"));
    e.line(&format!("cvt.u32.u16 {n32}, {new};"));
    e.line(&format!("and.b32 {x32}, {x32}, {};", (1u32 << bits) - 1));
    e.line(&format!("and.b32 {n32}, {n32}, {};", (1u32 << bits) - 1));
    e.line(&format!("shl.b32 {x32}, {x32}, {shift};"));
    e.line(&format!("shl.b32 {n32}, {n32}, {shift};"));
    e.line(&format!("ld.relaxed.gpu{sp}.b32 {cur}, [{word}];"));
    e.line(&format!("{top}:"));
    e.line(&format!("and.b32 {o32}, {cur}, {mask};"));
    // Value differs from expected: fail, returning what is there.
    e.line(&format!("setp.ne.b32 {p}, {o32}, {x32};"));
    e.line(&format!("@{p} bra {done};"));
    e.line(&format!("not.b32 {want}, {mask};"));
    e.line(&format!("and.b32 {want}, {cur}, {want};"));
    e.line(&format!("or.b32 {next}, {want}, {n32};"));
    e.line(&format!("atom{sp}.cas.b32 {seen}, [{word}], {cur}, {next};"));
    e.line(&format!("setp.ne.b32 {p}, {seen}, {cur};"));
    e.line(&format!("mov.b32 {cur}, {seen};"));
    e.line(&format!("@{p} bra {top};"));
    e.line(&format!("{done}:"));
    e.line(&format!("shr.u32 {o32}, {o32}, {shift};"));
    e.line(&format!("cvt.u16.u32 {old}, {o32};"));
    old
}

#[cfg(test)]
mod tests;

//! A small register machine in which the math functions are written once, and
//! its two readings: PTX text (`Prog::ptx`) and a bit-exact interpreter
//! (`Prog::eval`) that the host-side tests run against the system libm.
//!
//! Every instruction maps to exactly one PTX instruction whose result is fully
//! specified by IEEE 754 (`add.rn`, `mul.rn`, `fma.rn`, `div.rn`, `sqrt.rn`,
//! conversions with explicit rounding; `.rn` also keeps ptxas from contracting
//! a multiply and an add into an fma), so the interpreter computes the same
//! bits as the GPU and the host tests measure the accuracy the GPU delivers.
//!
//! Functions are built through a per-thread builder so that the algorithms
//! read like the reference C code: `let y = one + (x * c / (two - c) - lo + hi);`
//! appends the instructions of that expression to the function being built.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Shl, Shr, Sub};

use crate::ty::PtxTy;

/// The type of a virtual register. Signedness of the integer types selects
/// the signed or unsigned form of shifts, comparisons, conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    F32,
    F64,
    S32,
    U32,
    S64,
    U64,
    Pred,
}

impl Ty {
    pub fn is_float(self) -> bool {
        matches!(self, Ty::F32 | Ty::F64)
    }
    pub(super) fn is_int(self) -> bool {
        matches!(self, Ty::S32 | Ty::U32 | Ty::S64 | Ty::U64)
    }
    #[cfg_attr(not(test), allow(dead_code))] // the interpreter's
    pub(super) fn is_signed(self) -> bool {
        matches!(self, Ty::S32 | Ty::S64)
    }
    pub(super) fn wide(self) -> bool {
        matches!(self, Ty::F64 | Ty::S64 | Ty::U64)
    }
    /// The PTX type of a parameter or return value of this type.
    pub fn ptx(self) -> PtxTy {
        match self {
            Ty::F32 => PtxTy::F32,
            Ty::F64 => PtxTy::F64,
            Ty::S32 => PtxTy::S32,
            Ty::U32 => PtxTy::U32,
            Ty::S64 => PtxTy::S64,
            Ty::U64 => PtxTy::U64,
            Ty::Pred => PtxTy::Pred,
        }
    }
    fn name(self) -> &'static str {
        self.ptx().name()
    }
    /// `b32`/`b64` for bitwise instructions.
    fn bits_name(self) -> &'static str {
        if self.wide() {
            "b64"
        } else {
            "b32"
        }
    }
    fn class(self) -> usize {
        match self {
            Ty::Pred => 0,
            Ty::S32 | Ty::U32 => 1,
            Ty::S64 | Ty::U64 => 2,
            Ty::F32 => 3,
            Ty::F64 => 4,
        }
    }
    pub(super) fn mask(self) -> u64 {
        if self.wide() {
            u64::MAX
        } else if self == Ty::Pred {
            1
        } else {
            0xffff_ffff
        }
    }
}

const CLASSES: [(&str, &str); 5] = [("pred", "%p"), ("b32", "%r"), ("b64", "%rd"), ("f32", "%f"), ("f64", "%fd")];

/// An operand: a register or an immediate (the bits of the value, in the operand's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opnd {
    Reg(u32),
    Imm(u64),
}

/// A value in the function being built.
#[derive(Clone, Copy, Debug)]
pub struct V {
    pub o: Opnd,
    pub ty: Ty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
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
    /// High half of the full integer product.
    MulHi,
    /// Integer remainder.
    Rem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Abs,
    Sqrt,
    /// Round to integral value: nearest-even, toward zero, down, up.
    Rni,
    Rzi,
    Rmi,
    Rpi,
    Not,
    /// Count of leading zeros (result u32).
    Clz,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Unordered-or forms (true when an operand is NaN).
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Nan,
}

/// Rounding of a conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    /// Exact conversions (widening float, integer to integer).
    Exact,
    Rn,
    Rzi,
    Rni,
    Rmi,
}

#[derive(Clone, Debug)]
pub enum Inst {
    Bin(BinOp, Ty, u32, Opnd, Opnd),
    Fma(Ty, u32, Opnd, Opnd, Opnd),
    Un(UnOp, Ty, u32, Opnd),
    /// Conversion to the first type from the second.
    Cvt(Ty, Ty, Rnd, u32, Opnd),
    /// Reinterpretation of the bits (same width).
    Bits(Ty, Ty, u32, Opnd),
    Mov(Ty, u32, Opnd),
    Setp(Cmp, Ty, u32, Opnd, Opnd),
    Selp(Ty, u32, Opnd, Opnd, u32),
    Label(u32),
    /// Branch, optionally under a predicate (register, negated).
    Bra(Option<(u32, bool)>, u32),
    Ret(Option<(u32, bool)>, Opnd),
    /// Store through a generic address.
    St(Ty, Opnd, Opnd),
    /// `d = tables[t][idx]` (u64 words; `tmp` a scratch u64 register).
    Table(u32, u32, u32, Opnd),
}

/// A function of the register machine.
#[derive(Clone, Debug)]
pub struct Prog {
    pub insts: Vec<Inst>,
    pub regs: Vec<Ty>,
    pub params: Vec<Ty>,
    pub ret: Ty,
    /// Constant tables of u64 words (function-scoped `.global` arrays in PTX).
    pub tables: Vec<Vec<u64>>,
}

struct Builder {
    prog: Prog,
    labels: u32,
    /// Open [`sub`] blocks: where their `ret` goes (result variable, exit label).
    exits: Vec<(V, u32)>,
}

thread_local! {
    static BUILDER: RefCell<Option<Builder>> = const { RefCell::new(None) };
}

fn with<R>(f: impl FnOnce(&mut Builder) -> R) -> R {
    BUILDER.with(|b| f(b.borrow_mut().as_mut().expect("libm builder used outside dsl::func")))
}

fn new_reg(ty: Ty) -> u32 {
    with(|b| {
        b.prog.regs.push(ty);
        (b.prog.regs.len() - 1) as u32
    })
}

fn push(i: Inst) {
    with(|b| b.prog.insts.push(i));
}

/// Builds a function: the body receives the parameters and must end in `ret`.
pub fn func(params: &[Ty], ret: Ty, body: impl FnOnce(&[V])) -> Prog {
    let prog = Prog { insts: Vec::new(), regs: params.to_vec(), params: params.to_vec(), ret, tables: Vec::new() };
    BUILDER.with(|b| *b.borrow_mut() = Some(Builder { prog, labels: 0, exits: Vec::new() }));
    let args: Vec<V> = params.iter().enumerate().map(|(i, &ty)| V { o: Opnd::Reg(i as u32), ty }).collect();
    body(&args);
    BUILDER.with(|b| b.borrow_mut().take().expect("builder").prog)
}

fn reg_of(v: V) -> u32 {
    match v.o {
        Opnd::Reg(r) => r,
        Opnd::Imm(_) => {
            let r = new_reg(v.ty);
            push(Inst::Mov(v.ty, r, v.o));
            r
        }
    }
}

/// Something usable as an operand of type `ty`: a value or a Rust constant.
pub trait IntoV: Copy {
    fn v(self, ty: Ty) -> V;
    /// The type when this is a value (constants take their type from the context).
    fn ty_hint(&self) -> Option<Ty> {
        None
    }
    /// The type of a constant on its own (both sides of a `sel` constants).
    fn own_ty(&self) -> Ty;
}
impl IntoV for V {
    fn own_ty(&self) -> Ty {
        self.ty
    }
    fn ty_hint(&self) -> Option<Ty> {
        Some(self.ty)
    }
    fn v(self, ty: Ty) -> V {
        assert!(self.ty == ty || (self.ty.class() == ty.class() && ty.is_int()), "libm dsl: operand of type {:?} where {:?} is expected", self.ty, ty);
        V { o: self.o, ty }
    }
}
impl IntoV for f64 {
    fn own_ty(&self) -> Ty {
        Ty::F64
    }
    fn v(self, ty: Ty) -> V {
        match ty {
            Ty::F64 => V { o: Opnd::Imm(self.to_bits()), ty },
            Ty::F32 => V { o: Opnd::Imm((self as f32).to_bits() as u64), ty },
            _ => panic!("libm dsl: float constant {self} as {ty:?}"),
        }
    }
}
impl IntoV for i64 {
    fn own_ty(&self) -> Ty {
        Ty::S64
    }
    fn v(self, ty: Ty) -> V {
        assert!(ty.is_int(), "libm dsl: integer constant as {ty:?}");
        V { o: Opnd::Imm(self as u64 & ty.mask()), ty }
    }
}
impl IntoV for i32 {
    fn own_ty(&self) -> Ty {
        Ty::S32
    }
    fn v(self, ty: Ty) -> V {
        (self as i64).v(ty)
    }
}
impl IntoV for u64 {
    fn own_ty(&self) -> Ty {
        Ty::U64
    }
    fn v(self, ty: Ty) -> V {
        (self as i64).v(ty)
    }
}
impl IntoV for u32 {
    fn own_ty(&self) -> Ty {
        Ty::U32
    }
    fn v(self, ty: Ty) -> V {
        (self as i64).v(ty)
    }
}

pub fn u64c(x: u64) -> V {
    x.v(Ty::U64)
}
pub fn s32c(x: i32) -> V {
    x.v(Ty::S32)
}

fn bin(op: BinOp, a: V, b: V) -> V {
    let ty = a.ty;
    let d = new_reg(ty);
    push(Inst::Bin(op, ty, d, a.o, b.o));
    V { o: Opnd::Reg(d), ty }
}

fn un(op: UnOp, a: V) -> V {
    let ty = if op == UnOp::Clz { Ty::U32 } else { a.ty };
    let d = new_reg(ty);
    push(Inst::Un(op, a.ty, d, a.o));
    V { o: Opnd::Reg(d), ty }
}

/// A fresh mutable variable (a register assigned with [`set`]).
pub fn var(ty: Ty, init: impl IntoV) -> V {
    let d = new_reg(ty);
    push(Inst::Mov(ty, d, init.v(ty).o));
    V { o: Opnd::Reg(d), ty }
}

/// `v = x` for a variable made by [`var`].
pub fn set(v: V, x: impl IntoV) {
    let Opnd::Reg(d) = v.o else { panic!("libm dsl: set on a constant") };
    push(Inst::Mov(v.ty, d, x.v(v.ty).o));
}

pub fn fma(a: V, b: impl IntoV, c: impl IntoV) -> V {
    let ty = a.ty;
    let d = new_reg(ty);
    push(Inst::Fma(ty, d, a.o, b.v(ty).o, c.v(ty).o));
    V { o: Opnd::Reg(d), ty }
}

/// `p ? a : b`.
pub fn sel(p: V, a: impl IntoV, b: impl IntoV) -> V {
    assert_eq!(p.ty, Ty::Pred);
    // The type comes from whichever side is a value.
    let ty = a.ty_hint().or(b.ty_hint()).unwrap_or(a.own_ty());
    if ty == Ty::Pred {
        // PTX has no selp.pred.
        return (p & a.v(ty)) | (!p & b.v(ty));
    }
    let d = new_reg(ty);
    push(Inst::Selp(ty, d, a.v(ty).o, b.v(ty).o, reg_of(p)));
    V { o: Opnd::Reg(d), ty }
}

pub fn label() -> u32 {
    with(|b| {
        b.labels += 1;
        b.labels
    })
}
pub fn place(l: u32) {
    push(Inst::Label(l));
}
pub fn bra(l: u32) {
    push(Inst::Bra(None, l));
}
pub fn bra_if(p: V, l: u32) {
    push(Inst::Bra(Some((reg_of(p), false)), l));
}
/// Returns `v`: from the function, or from the innermost [`sub`] block.
pub fn ret(v: impl IntoV) {
    match with(|b| b.exits.last().copied()) {
        Some((var, l)) => {
            set(var, v);
            bra(l);
        }
        None => {
            let ty = with(|b| b.prog.ret);
            push(Inst::Ret(None, v.v(ty).o));
        }
    }
}
/// Returns `v` when `p` holds.
pub fn ret_if(p: V, v: impl IntoV) {
    match with(|b| b.exits.last().copied()) {
        Some((var, l)) => {
            let x = sel(p, v, var);
            set(var, x);
            bra_if(p, l);
        }
        None => {
            let ty = with(|b| b.prog.ret);
            push(Inst::Ret(Some((reg_of(p), false)), v.v(ty).o));
        }
    }
}
/// Returns `f()` when `p` holds, computing it only then (behind a branch):
/// for early returns whose value is costly (a division).
pub fn ret_when(p: V, f: impl FnOnce() -> V) {
    let skip = label();
    bra_if(!p, skip);
    let v = f();
    ret(v);
    place(skip);
}
/// Runs `body` as an inlined function of result type `ty`: its `ret`s end the
/// block with their value, which `sub` returns (how a float function runs the
/// double algorithm, and how one algorithm uses another).
pub fn sub(ty: Ty, body: impl FnOnce()) -> V {
    let var = var(ty, V { o: Opnd::Imm(0), ty });
    let l = label();
    with(|b| b.exits.push((var, l)));
    body();
    with(|b| b.exits.pop());
    place(l);
    // A copy, so later `set`s of an outer block cannot alias it.
    let r = new_reg(ty);
    push(Inst::Mov(ty, r, var.o));
    V { o: Opnd::Reg(r), ty }
}
/// `words[idx]` (idx S32) from a constant table.
pub fn table(words: &[u64], idx: V) -> V {
    let t = with(|b| {
        b.prog.tables.push(words.to_vec());
        (b.prog.tables.len() - 1) as u32
    });
    let (d, tmp) = (new_reg(Ty::U64), new_reg(Ty::U64));
    push(Inst::Table(d, tmp, t, idx.o));
    V { o: Opnd::Reg(d), ty: Ty::U64 }
}
/// `*(ty *)addr = v` (generic address).
pub fn store(addr: V, v: V) {
    push(Inst::St(v.ty, addr.o, v.o));
}

impl V {
    fn cmp(self, c: Cmp, b: impl IntoV) -> V {
        let d = new_reg(Ty::Pred);
        push(Inst::Setp(c, self.ty, d, self.o, b.v(self.ty).o));
        V { o: Opnd::Reg(d), ty: Ty::Pred }
    }
    pub fn eq(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Eq, b)
    }
    pub fn ne(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Ne, b)
    }
    pub fn lt(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Lt, b)
    }
    pub fn le(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Le, b)
    }
    pub fn gt(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Gt, b)
    }
    pub fn ge(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Ge, b)
    }
    /// `!(self < b)` etc. with NaN: the unordered forms.
    pub fn geu(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Geu, b)
    }
    pub fn gtu(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Gtu, b)
    }
    pub fn leu(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Leu, b)
    }
    pub fn ltu(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Ltu, b)
    }
    pub fn neu(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Neu, b)
    }
    pub fn equ(self, b: impl IntoV) -> V {
        self.cmp(Cmp::Equ, b)
    }
    pub fn is_nan(self) -> V {
        self.cmp(Cmp::Nan, self)
    }
    /// Either operand is NaN.
    pub fn either_nan(self, b: V) -> V {
        self.cmp(Cmp::Nan, b)
    }
    pub fn abs(self) -> V {
        un(UnOp::Abs, self)
    }
    pub fn sqrt(self) -> V {
        un(UnOp::Sqrt, self)
    }
    pub fn rint(self) -> V {
        un(UnOp::Rni, self)
    }
    pub fn trunc(self) -> V {
        un(UnOp::Rzi, self)
    }
    pub fn floor(self) -> V {
        un(UnOp::Rmi, self)
    }
    pub fn ceil(self) -> V {
        un(UnOp::Rpi, self)
    }
    pub fn clz(self) -> V {
        un(UnOp::Clz, self)
    }
    pub fn min(self, b: impl IntoV) -> V {
        bin(BinOp::Min, self, b.v(self.ty))
    }
    pub fn max(self, b: impl IntoV) -> V {
        bin(BinOp::Max, self, b.v(self.ty))
    }
    pub fn rem(self, b: impl IntoV) -> V {
        bin(BinOp::Rem, self, b.v(self.ty))
    }
    pub fn mul_hi(self, b: impl IntoV) -> V {
        bin(BinOp::MulHi, self, b.v(self.ty))
    }
    /// Conversion with the natural rounding: float→int toward zero, to a
    /// narrower float or int→float to nearest.
    pub fn to(self, ty: Ty) -> V {
        let rnd = match (self.ty.is_float(), ty.is_float()) {
            (true, false) => Rnd::Rzi,
            (true, true) if self.ty == Ty::F64 && ty == Ty::F32 => Rnd::Rn,
            (false, true) => Rnd::Rn,
            _ => Rnd::Exact,
        };
        self.cvt(ty, rnd)
    }
    pub fn cvt(self, ty: Ty, rnd: Rnd) -> V {
        if ty == self.ty {
            return self;
        }
        let d = new_reg(ty);
        push(Inst::Cvt(ty, self.ty, rnd, d, self.o));
        V { o: Opnd::Reg(d), ty }
    }
    /// The bits of a float as an unsigned integer of its width, or an integer's bits as the float of its width.
    pub fn bits(self) -> V {
        let ty = match self.ty {
            Ty::F64 => Ty::U64,
            Ty::F32 => Ty::U32,
            Ty::S64 | Ty::U64 => Ty::F64,
            Ty::S32 | Ty::U32 => Ty::F32,
            Ty::Pred => panic!("libm dsl: bits of a predicate"),
        };
        let d = new_reg(ty);
        push(Inst::Bits(ty, self.ty, d, self.o));
        V { o: Opnd::Reg(d), ty }
    }
    /// Same register as signed / unsigned.
    pub fn s(self) -> V {
        V { o: self.o, ty: if self.ty.wide() { Ty::S64 } else { Ty::S32 } }
    }
    pub fn u(self) -> V {
        V { o: self.o, ty: if self.ty.wide() { Ty::U64 } else { Ty::U32 } }
    }
    /// High 32 bits of a double, as u32.
    pub fn hi(self) -> V {
        (self.bits() >> 32u32).to(Ty::U32)
    }
    /// Low 32 bits of a double, as u32.
    pub fn lo(self) -> V {
        self.bits().to(Ty::U32)
    }
}

/// The double with high word `hi` and low word `lo` (u32 values).
pub fn words(hi: V, lo: impl IntoV) -> V {
    let h = hi.u().to(Ty::U64) << 32u32;
    let l = lo.v(Ty::U32).to(Ty::U64);
    (h | l).bits()
}

macro_rules! binop {
    ($tr:ident, $m:ident, $op:expr) => {
        impl<T: IntoV> $tr<T> for V {
            type Output = V;
            fn $m(self, b: T) -> V {
                bin($op, self, b.v(self.ty))
            }
        }
        impl $tr<V> for f64 {
            type Output = V;
            fn $m(self, b: V) -> V {
                bin($op, self.v(b.ty), b)
            }
        }
        impl $tr<V> for i64 {
            type Output = V;
            fn $m(self, b: V) -> V {
                bin($op, self.v(b.ty), b)
            }
        }
        impl $tr<V> for i32 {
            type Output = V;
            fn $m(self, b: V) -> V {
                bin($op, self.v(b.ty), b)
            }
        }
        impl $tr<V> for u32 {
            type Output = V;
            fn $m(self, b: V) -> V {
                bin($op, self.v(b.ty), b)
            }
        }
        impl $tr<V> for u64 {
            type Output = V;
            fn $m(self, b: V) -> V {
                bin($op, self.v(b.ty), b)
            }
        }
    };
}
binop!(Add, add, BinOp::Add);
binop!(Sub, sub, BinOp::Sub);
binop!(Mul, mul, BinOp::Mul);
binop!(Div, div, BinOp::Div);
binop!(BitAnd, bitand, BinOp::And);
binop!(BitOr, bitor, BinOp::Or);
binop!(BitXor, bitxor, BinOp::Xor);

impl<T: IntoV> Shl<T> for V {
    type Output = V;
    fn shl(self, b: T) -> V {
        let ty = self.ty;
        let d = new_reg(ty);
        push(Inst::Bin(BinOp::Shl, ty, d, self.o, b.v(Ty::U32).o));
        V { o: Opnd::Reg(d), ty }
    }
}
impl<T: IntoV> Shr<T> for V {
    type Output = V;
    fn shr(self, b: T) -> V {
        let ty = self.ty;
        let d = new_reg(ty);
        push(Inst::Bin(BinOp::Shr, ty, d, self.o, b.v(Ty::U32).o));
        V { o: Opnd::Reg(d), ty }
    }
}
impl Neg for V {
    type Output = V;
    fn neg(self) -> V {
        un(UnOp::Neg, self)
    }
}
impl Not for V {
    type Output = V;
    fn not(self) -> V {
        un(UnOp::Not, self)
    }
}

// ---------------------------------------------------------------------------
// PTX text
// ---------------------------------------------------------------------------

impl Prog {
    fn imm(ty: Ty, bits: u64) -> String {
        match ty {
            Ty::F64 => format!("0d{bits:016X}"),
            Ty::F32 => format!("0f{:08X}", bits as u32),
            Ty::S32 => format!("{}", bits as u32 as i32),
            Ty::S64 => format!("{}", bits as i64),
            Ty::U32 => format!("{}", bits as u32),
            Ty::U64 => format!("{bits}"),
            Ty::Pred => format!("{}", bits & 1),
        }
    }

    /// The PTX `.func` named `symbol`.
    pub fn ptx(&self, symbol: &str) -> String {
        // Register names: class prefix + index within the class.
        let mut count = [0u32; 5];
        let names: Vec<String> = self
            .regs
            .iter()
            .map(|t| {
                let c = t.class();
                count[c] += 1;
                format!("{}{}", CLASSES[c].1, count[c] - 1)
            })
            .collect();
        let op = |o: Opnd, ty: Ty| match o {
            Opnd::Reg(r) => names[r as usize].clone(),
            Opnd::Imm(b) => Self::imm(ty, b),
        };
        let r = |d: u32| names[d as usize].clone();
        let mut s = String::new();
        let params: Vec<String> = self.params.iter().enumerate().map(|(i, t)| format!(".param .{} a{i}", t.name())).collect();
        let _ = writeln!(s, ".func (.param .{} ret) {symbol}({})\n{{", self.ret.name(), params.join(", "));
        for (c, (decl, prefix)) in CLASSES.iter().enumerate() {
            if count[c] > 0 {
                let _ = writeln!(s, "\t.reg .{decl} {prefix}<{}>;", count[c]);
            }
        }
        for (i, words) in self.tables.iter().enumerate() {
            let w: Vec<String> = words.iter().map(|w| format!("0x{w:016X}")).collect();
            let _ = writeln!(s, "\t.global .align 8 .b64 {symbol}_t{i}[{}] = {{{}}};", words.len(), w.join(", "));
        }
        for (i, t) in self.params.iter().enumerate() {
            let _ = writeln!(s, "\tld.param.{} {}, [a{i}];", t.name(), r(i as u32));
        }
        let guard = |p: Option<(u32, bool)>| match p {
            None => String::new(),
            Some((p, neg)) => format!("@{}{} ", if neg { "!" } else { "" }, r(p)),
        };
        for inst in &self.insts {
            let line = match inst {
                Inst::Bin(o, ty, d, a, b) => {
                    let t = ty.name();
                    let (d, a) = (r(*d), op(*a, *ty));
                    match o {
                        BinOp::Shl => format!("shl.{} {d}, {a}, {};", ty.bits_name(), op(*b, Ty::U32)),
                        BinOp::Shr => format!("shr.{t} {d}, {a}, {};", op(*b, Ty::U32)),
                        _ => {
                            let b = op(*b, *ty);
                            let name = match (o, ty.is_float()) {
                                (BinOp::Add, true) => format!("add.rn.{t}"),
                                (BinOp::Sub, true) => format!("sub.rn.{t}"),
                                (BinOp::Mul, true) => format!("mul.rn.{t}"),
                                (BinOp::Div, true) => format!("div.rn.{t}"),
                                (BinOp::Add, false) => format!("add.{t}"),
                                (BinOp::Sub, false) => format!("sub.{t}"),
                                (BinOp::Mul, false) => format!("mul.lo.{t}"),
                                (BinOp::Div, false) => format!("div.{t}"),
                                (BinOp::Rem, _) => format!("rem.{t}"),
                                (BinOp::MulHi, _) => format!("mul.hi.{t}"),
                                (BinOp::Min, _) => format!("min.{t}"),
                                (BinOp::Max, _) => format!("max.{t}"),
                                (BinOp::And, _) => format!("and.{}", if *ty == Ty::Pred { "pred" } else { ty.bits_name() }),
                                (BinOp::Or, _) => format!("or.{}", if *ty == Ty::Pred { "pred" } else { ty.bits_name() }),
                                (BinOp::Xor, _) => format!("xor.{}", if *ty == Ty::Pred { "pred" } else { ty.bits_name() }),
                                (BinOp::Shl | BinOp::Shr, _) => unreachable!(),
                            };
                            format!("{name} {d}, {a}, {b};")
                        }
                    }
                }
                Inst::Fma(ty, d, a, b, c) => format!("fma.rn.{} {}, {}, {}, {};", ty.name(), r(*d), op(*a, *ty), op(*b, *ty), op(*c, *ty)),
                Inst::Un(o, ty, d, a) => {
                    let t = ty.name();
                    let (d, a) = (r(*d), op(*a, *ty));
                    match o {
                        UnOp::Neg if ty.is_float() => format!("neg.{t} {d}, {a};"),
                        UnOp::Neg => format!("neg.{} {d}, {a};", if ty.wide() { "s64" } else { "s32" }),
                        UnOp::Abs => format!("abs.{t} {d}, {a};"),
                        UnOp::Sqrt => format!("sqrt.rn.{t} {d}, {a};"),
                        UnOp::Rni => format!("cvt.rni.{t}.{t} {d}, {a};"),
                        UnOp::Rzi => format!("cvt.rzi.{t}.{t} {d}, {a};"),
                        UnOp::Rmi => format!("cvt.rmi.{t}.{t} {d}, {a};"),
                        UnOp::Rpi => format!("cvt.rpi.{t}.{t} {d}, {a};"),
                        UnOp::Not if *ty == Ty::Pred => format!("not.pred {d}, {a};"),
                        UnOp::Not => format!("not.{} {d}, {a};", ty.bits_name()),
                        UnOp::Clz => format!("clz.{} {d}, {a};", ty.bits_name()),
                    }
                }
                Inst::Cvt(dt, st, rnd, d, a) => {
                    let m = match rnd {
                        Rnd::Exact => "",
                        Rnd::Rn => ".rn",
                        Rnd::Rzi => ".rzi",
                        Rnd::Rni => ".rni",
                        Rnd::Rmi => ".rmi",
                    };
                    format!("cvt{m}.{}.{} {}, {};", dt.name(), st.name(), r(*d), op(*a, *st))
                }
                Inst::Bits(dt, st, d, a) => format!("mov.{} {}, {};", dt.bits_name(), r(*d), op(*a, *st)),
                Inst::Mov(ty, d, a) => {
                    let t = if *ty == Ty::Pred { "pred" } else { ty.name() };
                    format!("mov.{t} {}, {};", r(*d), op(*a, *ty))
                }
                Inst::Setp(c, ty, d, a, b) => {
                    let cn = match c {
                        Cmp::Eq => "eq",
                        Cmp::Ne => "ne",
                        Cmp::Lt => "lt",
                        Cmp::Le => "le",
                        Cmp::Gt => "gt",
                        Cmp::Ge => "ge",
                        Cmp::Equ => "equ",
                        Cmp::Neu => "neu",
                        Cmp::Ltu => "ltu",
                        Cmp::Leu => "leu",
                        Cmp::Gtu => "gtu",
                        Cmp::Geu => "geu",
                        Cmp::Nan => "nan",
                    };
                    format!("setp.{cn}.{} {}, {}, {};", ty.name(), r(*d), op(*a, *ty), op(*b, *ty))
                }
                Inst::Selp(ty, d, a, b, p) => format!("selp.{} {}, {}, {}, {};", ty.name(), r(*d), op(*a, *ty), op(*b, *ty), r(*p)),
                Inst::Label(l) => {
                    let _ = writeln!(s, "$L{l}:");
                    continue;
                }
                Inst::Bra(p, l) => format!("{}bra $L{l};", guard(*p)),
                Inst::Ret(p, v) => {
                    let g = guard(*p);
                    format!("{g}st.param.{} [ret], {};\n\t{g}ret;", self.ret.name(), op(*v, self.ret))
                }
                Inst::St(ty, a, v) => format!("st.{} [{}], {};", ty.name(), op(*a, Ty::U64), op(*v, *ty)),
                Inst::Table(d, tmp, t, idx) => {
                    let (d, tmp) = (r(*d), r(*tmp));
                    format!(
                        "cvt.s64.s32 {tmp}, {};\n\tshl.b64 {tmp}, {tmp}, 3;\n\tmov.u64 {d}, {symbol}_t{t};\n\tadd.s64 {d}, {d}, {tmp};\n\tld.global.nc.u64 {d}, [{d}];",
                        op(*idx, Ty::S32)
                    )
                }
            };
            let _ = writeln!(s, "\t{line}");
        }
        s.push_str("}\n");
        s
    }
}

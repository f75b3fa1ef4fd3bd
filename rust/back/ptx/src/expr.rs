//! Expressions: one `lower_<kind>` per `ExprKind`, places (lvalues) to
//! generic addresses or registers, and the operators with C semantics
//! (integer arithmetic by signedness, IEEE float arithmetic, pointer ±
//! integer scaled by the pointee size, comparisons as int 0/1,
//! short-circuit `&&`/`||`, `_Complex` arithmetic with Smith's division).
//! Float `+ - *` carry `.rn`, which keeps ptxas from contracting them into
//! FMAs: results agree bit for bit with the CPU devices (unless
//! `Tuning::fma` asks for the contraction).

use accjit_ir::{BinOp, Builtin, Diagnostic, ExprId, ExprKind, Scalar, Span, Type, UnOp};

use crate::func::{FnCx, Place};
use crate::ty::PtxTy;
use crate::value::{bits_ty, float_lit, op_ty, scalar_of, Val};

fn is_cmp(op: BinOp) -> bool {
    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

fn is_pointerish(t: &Type) -> bool {
    matches!(t, Type::Ptr(_) | Type::Array(..))
}

/// The type both operands of a comparison are converted to.
pub fn common_type(a: &Type, b: &Type) -> Type {
    if a == b {
        return a.clone();
    }
    if is_pointerish(a) || is_pointerish(b) || matches!(a, Type::Func(_)) || matches!(b, Type::Func(_)) {
        return Type::U64;
    }
    let (Some(x), Some(y)) = (scalar_of(a), scalar_of(b)) else { return a.clone() };
    if x.is_float() || y.is_float() {
        return if x == Scalar::F64 || y == Scalar::F64 { Type::F64 } else { Type::F32 };
    }
    let (sx, sy) = (x.size(), y.size());
    let s = if sx > sy {
        x
    } else if sy > sx {
        y
    } else if !x.is_signed() {
        x
    } else {
        y
    };
    Type::Scalar(if s.size() < 4 { Scalar::I32 } else { s })
}

pub fn unsupported(span: Span, what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(span, format!("not supported on the nvidia device yet: {what}"))
}

impl FnCx<'_> {
    pub fn lower_expr(&mut self, id: ExprId) -> Result<Val, Diagnostic> {
        let e = self.expr(id);
        let (ty, span) = (&e.ty, e.span);
        match &e.kind {
            ExprKind::Int(v) => self.lower_int(*v, ty, span),
            ExprKind::Float(v) => self.lower_float(*v, ty, span),
            // A load an unrolled loop issued ahead (`unroll.rs`).
            ExprKind::Load(_) if self.prefetched.contains_key(&id) => Ok(self.prefetched[&id].clone()),
            // An address a counted loop keeps in a register (`strength.rs`).
            ExprKind::Binary(..) if self.reduced.contains_key(&id) => Ok(Val::S(self.reduced[&id].clone())),
            ExprKind::Load(p) => self.lower_load(*p),
            ExprKind::AddrOf(p) => self.lower_addr_of(*p, span),
            ExprKind::FuncAddr(_) => Err(unsupported(span, "taking the address of a function")),
            ExprKind::Binary(op, a, b) => self.lower_binary(*op, *a, *b, ty, span),
            ExprKind::Unary(op, a) => self.lower_unary(*op, *a, ty, span),
            ExprKind::Cast(a) => {
                let v = self.lower_expr(*a)?;
                let from = self.ety(*a);
                self.cast(v, &from, ty, span)
            }
            ExprKind::Cond(c, a, b) => self.lower_cond(*c, *a, *b, ty, span),
            ExprKind::Comma(a, b) => {
                self.lower_expr(*a)?;
                self.lower_expr(*b)
            }
            ExprKind::Call(c, args) => self.lower_call(*c, args, ty, span),
            ExprKind::CallIndirect(..) => Err(unsupported(span, "calls through function pointers")),
            ExprKind::Assign(p, v) => self.lower_assign(*p, *v, span),
            ExprKind::CompoundAssign { op, place, value, op_ty } => self.lower_compound_assign(*op, *place, *value, op_ty, span),
            ExprKind::IncDec { place, inc, prefix } => self.lower_inc_dec(*place, *inc, *prefix, span),
            ExprKind::ComplexPart(a, imag) => {
                let v = self.lower_expr(*a)?;
                let aty = self.ety(*a);
                let (re, im) = self.complex_parts(&v, &aty, span)?;
                Ok(Val::S(if *imag { im } else { re }))
            }
            ExprKind::MakeComplex(re, im) => {
                let Type::Complex(s) = ty else {
                    return Err(Diagnostic::error(span, format!("internal error: complex value of type {ty:?}")));
                };
                let et = Type::Scalar(*s);
                let r = self.lower_expr(*re)?;
                let rt = self.ety(*re);
                let r = self.cast(r, &rt, &et, span)?.s(span)?;
                let i = self.lower_expr(*im)?;
                let it = self.ety(*im);
                let i = self.cast(i, &it, &et, span)?.s(span)?;
                Ok(Val::C(r, i))
            }
            ExprKind::Alloca(n) => self.lower_alloca(*n, span),
            ExprKind::Builtin(b) => Ok(Val::S(self.builtin(*b))),
            ExprKind::DescBase(d) => self.desc_field(*d, 0, span),
            ExprKind::DescShape(d, k) => {
                let Type::Desc { rank, .. } = self.ety(*d) else { return Err(Diagnostic::error(span, "internal error: descriptor field")) };
                if *k >= rank {
                    return Err(Diagnostic::error(span, format!("dimension {k} of a rank-{rank} descriptor")));
                }
                self.desc_field(*d, 8 + 8 * *k as i64, span)
            }
            ExprKind::DescStride(d, k) => {
                let Type::Desc { rank, .. } = self.ety(*d) else { return Err(Diagnostic::error(span, "internal error: descriptor field")) };
                if *k >= rank {
                    return Err(Diagnostic::error(span, format!("dimension {k} of a rank-{rank} descriptor")));
                }
                self.desc_field(*d, 8 + 8 * rank as i64 + 8 * *k as i64, span)
            }
            ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_) | ExprKind::Member(..) | ExprKind::DescElem(..) => self.lower_load(id),
        }
    }

    fn lower_int(&mut self, v: i64, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        match ty {
            Type::Complex(s) => Ok(Val::C(self.fconst(*s, v as f64), self.fconst(*s, 0.0))),
            _ => match scalar_of(ty) {
                Some(s) if s.is_float() => Ok(Val::S(self.fconst(s, v as f64))),
                Some(s) => Ok(Val::S(self.iconst(s, v))),
                None => Err(Diagnostic::error(span, format!("internal error: an integer constant of type {ty:?}"))),
            },
        }
    }

    fn lower_float(&mut self, v: f64, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        match ty {
            Type::Complex(s) => Ok(Val::C(self.fconst(*s, v), self.fconst(*s, 0.0))),
            _ => match scalar_of(ty) {
                Some(s) if s.is_float() => Ok(Val::S(self.fconst(s, v))),
                Some(s) => {
                    let f = self.fconst(Scalar::F64, v);
                    Ok(Val::S(self.cast_scalar(&f, Scalar::F64, s)))
                }
                None => Err(Diagnostic::error(span, format!("internal error: a floating constant of type {ty:?}"))),
            },
        }
    }

    fn lower_load(&mut self, p: ExprId) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let ty = self.ety(p);
        if let (Place::Mem(a), Some(s)) = (&place, scalar_of(&ty).filter(|_| !matches!(ty, Type::Array(..)))) {
            if crate::cache::place_base(self.f, p).is_some_and(|l| self.read_only.contains(&l)) {
                // A `cache`d array the kernel cannot change: the read-only path.
                let g = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvta.to.global.u64 {g}, {a};"));
                let r = self.sreg(s);
                self.e.line(&format!("ld.global.nc.{} {r}, [{g}];", crate::value::mem_ty(s)));
                return Ok(Val::S(r));
            }
            if let Some(l) = crate::space::place_pointer(self.f, p).filter(|l| self.global_ptrs.contains(l)) {
                // Through a kernel's pointer parameter: global memory
                // (`space.rs`); the read-only path where the kernel never
                // stores through it and the knob allows.
                let nc = if self.nc_ptrs.contains(&l) { ".nc" } else { "" };
                let g = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvta.to.global.u64 {g}, {a};"));
                let r = self.sreg(s);
                self.e.line(&format!("ld.global{nc}.{} {r}, [{g}];", crate::value::mem_ty(s)));
                return Ok(Val::S(r));
            }
        }
        Ok(self.read_place(&place, &ty))
    }

    /// The location a place expression denotes.
    pub fn lower_place(&mut self, id: ExprId) -> Result<Place, Diagnostic> {
        let e = self.expr(id);
        let span = e.span;
        match &e.kind {
            ExprKind::Local(l) => self.local_place(*l, span),
            ExprKind::Global(g) => Ok(Place::Mem(self.global_addr(g.0, span)?)),
            ExprKind::Deref(p) => {
                let v = self.lower_expr(*p)?;
                match v {
                    Val::S(a) | Val::Mem(a) => Ok(Place::Mem(a)),
                    _ => Err(Diagnostic::error(span, "internal error: dereferencing a non-pointer")),
                }
            }
            ExprKind::Member(s, idx) => {
                let base = self.aggregate_addr(*s)?;
                let sty = self.ety(*s);
                let Type::Struct(sid) = sty else {
                    return Err(Diagnostic::error(span, format!("internal error: member of a non-struct type {sty:?}")));
                };
                let def = &self.ir.structs[sid.0 as usize];
                let field = def
                    .fields
                    .get(*idx as usize)
                    .ok_or_else(|| Diagnostic::error(span, format!("internal error: struct '{}' has no field #{idx}", def.name)))?;
                Ok(Place::Mem(self.offset(&base, field.offset as i64)))
            }
            ExprKind::DescElem(d, idx) => {
                let dty = self.ety(*d);
                let Type::Desc { elem, rank } = &dty else {
                    return Err(Diagnostic::error(span, format!("internal error: element of a non-descriptor {dty:?}")));
                };
                if idx.len() != *rank as usize {
                    return Err(Diagnostic::error(span, format!("internal error: {} subscripts for a rank-{rank} descriptor", idx.len())));
                }
                let addr = self.aggregate_addr(*d)?;
                let base = self.load_scalar(Scalar::U64, &addr, 0);
                let off = self.i64c(0);
                for (k, &i) in idx.iter().enumerate() {
                    let iv = self.lower_expr(i)?;
                    let ity = self.ety(i);
                    let iv = self.as_i64(iv, &ity, span)?;
                    let stride = self.load_scalar(Scalar::I64, &addr, 8 + 8 * *rank as i64 + 8 * k as i64);
                    self.e.line(&format!("mad.lo.s64 {off}, {iv}, {stride}, {off};"));
                }
                let esize = self.size_of(elem) as i64;
                let a = self.e.reg(PtxTy::B64);
                self.e.line(&format!("mad.lo.s64 {a}, {off}, {esize}, {base};"));
                Ok(Place::Mem(a))
            }
            _ => {
                // An rvalue aggregate (e.g. `f().x`): its temporary is the place.
                match self.lower_expr(id)? {
                    Val::Mem(a) => Ok(Place::Mem(a)),
                    _ => Err(Diagnostic::error(span, "internal error: expression is not a place")),
                }
            }
        }
    }

    /// Address of an aggregate place or value.
    fn aggregate_addr(&mut self, id: ExprId) -> Result<String, Diagnostic> {
        let span = self.expr(id).span;
        match self.lower_place(id)? {
            Place::Mem(a) => Ok(a),
            p => Err(Diagnostic::error(span, format!("internal error: aggregate in registers ({p:?})"))),
        }
    }

    fn desc_field(&mut self, d: ExprId, off: i64, span: Span) -> Result<Val, Diagnostic> {
        let v = self.lower_expr(d)?;
        let a = v.addr(span)?;
        Ok(Val::S(self.load_scalar(Scalar::I64, &a, off)))
    }

    fn lower_addr_of(&mut self, p: ExprId, span: Span) -> Result<Val, Diagnostic> {
        match self.lower_place(p)? {
            Place::Mem(a) => Ok(Val::S(a)),
            _ => Err(Diagnostic::error(span, "internal error: address of a register variable")),
        }
    }

    /// The generic address of IR global `g` (a `.global` symbol of the module).
    pub fn global_addr(&mut self, g: u32, span: Span) -> Result<String, Diagnostic> {
        let gl = self.ir.globals.get(g as usize).ok_or_else(|| Diagnostic::error(span, format!("internal error: global #{g} does not exist")))?;
        if gl.linkage == accjit_ir::Linkage::Import {
            return Err(unsupported(span, format!("the host variable '{}' in device code", gl.name)));
        }
        self.uses.globals.insert(g);
        let sym = crate::global_symbol(&gl.name);
        let r = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {r}, {sym};"));
        let a = self.e.reg(PtxTy::B64);
        self.e.line(&format!("cvta.global.u64 {a}, {r};"));
        Ok(a)
    }

    fn lower_binary(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            return self.lower_logical(op == BinOp::LogAnd, a, b, ty, span);
        }
        let (at, bt) = (self.ety(a), self.ety(b));
        if let Some((index, signed)) = self.is_ptr_plus_index(op, &at, b) {
            // `p + (32-bit index)` in one mad.wide (`index.rs`).
            return self.ptr_plus_index(a, index, signed, span);
        }
        let av = self.lower_expr(a)?;
        let bv = self.lower_expr(b)?;
        self.binop(op, av, &at, bv, &bt, ty, span)
    }

    /// `a op b` with operand types `at`, `bt` and result type `rt`.
    #[allow(clippy::too_many_arguments)]
    pub fn binop(&mut self, op: BinOp, av: Val, at: &Type, bv: Val, bt: &Type, rt: &Type, span: Span) -> Result<Val, Diagnostic> {
        if matches!(at, Type::Complex(_)) || matches!(bt, Type::Complex(_)) || matches!(rt, Type::Complex(_)) {
            return self.complex_binop(op, av, at, bv, bt, rt, span);
        }
        match (op, is_pointerish(at), is_pointerish(bt)) {
            (BinOp::Add, true, false) => return self.ptr_offset(av, at, bv, bt, false, span),
            (BinOp::Add, false, true) => return self.ptr_offset(bv, bt, av, at, false, span),
            (BinOp::Sub, true, false) => return self.ptr_offset(av, at, bv, bt, true, span),
            (BinOp::Sub, true, true) => return self.ptr_diff(av, at, bv, rt, span),
            _ => {}
        }
        if is_cmp(op) {
            let ct = common_type(at, bt);
            let x = self.cast(av, at, &ct, span)?.s(span)?;
            let y = self.cast(bv, bt, &ct, span)?.s(span)?;
            let s = scalar_of(&ct).ok_or_else(|| unsupported(span, format!("comparison of {ct:?} values")))?;
            let p = self.compare(op, &x, &y, s);
            let r = self.sel01(&p);
            let rs = scalar_of(rt).unwrap_or(Scalar::I32);
            return Ok(Val::S(self.cast_scalar(&r, Scalar::I32, rs)));
        }
        let s = scalar_of(rt).ok_or_else(|| unsupported(span, format!("arithmetic on {rt:?} values")))?;
        let x = self.cast(av, at, rt, span)?.s(span)?;
        let y = if matches!(op, BinOp::Shl | BinOp::Shr) && scalar_of(bt).is_some_and(|s| s.is_int()) {
            let bs = scalar_of(bt).unwrap_or(Scalar::I32);
            let v = bv.s(span)?;
            self.cast_scalar(&v, bs, Scalar::U32)
        } else {
            self.cast(bv, bt, rt, span)?.s(span)?
        };
        Ok(Val::S(self.arith(op, &x, &y, s, span)?))
    }

    /// A comparison as a predicate (floats: ordered, except `!=`).
    pub fn compare(&mut self, op: BinOp, x: &str, y: &str, s: Scalar) -> String {
        let p = self.e.reg(PtxTy::Pred);
        let c = match (op, s.is_float()) {
            (BinOp::Eq, _) => "eq",
            (BinOp::Ne, true) => "neu",
            (BinOp::Ne, false) => "ne",
            (BinOp::Lt, _) => "lt",
            (BinOp::Le, _) => "le",
            (BinOp::Gt, _) => "gt",
            _ => "ge",
        };
        let t = match s {
            Scalar::Bool | Scalar::U8 | Scalar::U16 | Scalar::U32 => "u32",
            Scalar::I8 | Scalar::I16 | Scalar::I32 => "s32",
            s => op_ty(s),
        };
        self.e.line(&format!("setp.{c}.{t} {p}, {x}, {y};"));
        p
    }

    /// An arithmetic or bitwise operator on two registers of scalar type
    /// `s` (the result normalised to `s`). The shift count `y` of `<<`/`>>`
    /// is a `.b32`.
    pub fn arith(&mut self, op: BinOp, x: &str, y: &str, s: Scalar, span: Span) -> Result<String, Diagnostic> {
        let r = self.sreg(s);
        let t = op_ty(s);
        if s.is_float() {
            let ins = match op {
                // `.rn` on every float operation: it also stops ptxas from
                // contracting a multiply and an add into an FMA, so results
                // agree bit for bit with the CPU devices (C leaves contraction
                // to the implementation; accjit chooses agreement).
                // With `Tuning::fma` they go without, and ptxas contracts.
                BinOp::Add | BinOp::Sub | BinOp::Mul if self.tuning.fma => format!(
                    "{}.{t}",
                    if op == BinOp::Add {
                        "add"
                    } else if op == BinOp::Sub {
                        "sub"
                    } else {
                        "mul"
                    }
                ),
                BinOp::Add => format!("add.rn.{t}"),
                BinOp::Sub => format!("sub.rn.{t}"),
                BinOp::Mul => format!("mul.rn.{t}"),
                BinOp::Div => format!("div.rn.{t}"),
                BinOp::Rem => {
                    let name = if s == Scalar::F32 { "fmodf" } else { "fmod" };
                    let ty = Type::Scalar(s);
                    return self.call_math(name, &[Val::S(x.into()), Val::S(y.into())], &[ty.clone(), ty.clone()], &ty, span)?.s(span);
                }
                _ => return Err(Diagnostic::error(span, format!("operator {op:?} on floating-point values"))),
            };
            self.e.line(&format!("{ins} {r}, {x}, {y};"));
            return Ok(r);
        }
        let b = bits_ty(s);
        let ins = match op {
            BinOp::Add => format!("add.{t}"),
            BinOp::Sub => format!("sub.{t}"),
            BinOp::Mul => format!("mul.lo.{t}"),
            BinOp::Div => format!("div.{t}"),
            BinOp::Rem => format!("rem.{t}"),
            BinOp::Shl => format!("shl.{b}"),
            BinOp::Shr if s.is_signed() => format!("shr.{t}"),
            BinOp::Shr => format!("shr.{}", if b == "b64" { "u64" } else { "u32" }),
            BinOp::BitAnd => format!("and.{b}"),
            BinOp::BitOr => format!("or.{b}"),
            BinOp::BitXor => format!("xor.{b}"),
            _ => return Err(Diagnostic::error(span, format!("internal error: operator {op:?} as arithmetic"))),
        };
        self.e.line(&format!("{ins} {r}, {x}, {y};"));
        if s.size() < 4 {
            let from = if s.is_signed() { Scalar::I32 } else { Scalar::U32 };
            return Ok(self.cast_scalar(&r, from, s));
        }
        Ok(r)
    }

    pub(crate) fn elem_size(&self, pt: &Type) -> i64 {
        match pt {
            Type::Ptr(t) | Type::Array(t, _) => match &**t {
                Type::Void | Type::Func(_) => 1,
                t => self.size_of(t).max(1) as i64,
            },
            _ => 1,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn ptr_offset(&mut self, p: Val, pt: &Type, n: Val, nt: &Type, sub: bool, span: Span) -> Result<Val, Diagnostic> {
        let pv = match p {
            Val::S(v) | Val::Mem(v) => v,
            _ => return Err(Diagnostic::error(span, "internal error: pointer operand")),
        };
        let nv = self.as_i64(n, nt, span)?;
        let size = self.elem_size(pt);
        let r = self.e.reg(PtxTy::B64);
        if sub {
            let off = self.e.reg(PtxTy::B64);
            self.e.line(&format!("mul.lo.s64 {off}, {nv}, {size};"));
            self.e.line(&format!("sub.s64 {r}, {pv}, {off};"));
        } else {
            self.e.line(&format!("mad.lo.s64 {r}, {nv}, {size}, {pv};"));
        }
        Ok(Val::S(r))
    }

    fn ptr_diff(&mut self, a: Val, at: &Type, b: Val, rt: &Type, span: Span) -> Result<Val, Diagnostic> {
        let (x, y) = match (a, b) {
            (Val::S(x) | Val::Mem(x), Val::S(y) | Val::Mem(y)) => (x, y),
            _ => return Err(Diagnostic::error(span, "internal error: pointer operands")),
        };
        let d = self.e.reg(PtxTy::B64);
        self.e.line(&format!("sub.s64 {d}, {x}, {y};"));
        let size = self.elem_size(at);
        let q = if size == 1 {
            d
        } else {
            let q = self.e.reg(PtxTy::B64);
            self.e.line(&format!("div.s64 {q}, {d}, {size};"));
            q
        };
        self.cast(Val::S(q), &Type::I64, rt, span)
    }

    fn lower_logical(&mut self, and: bool, a: ExprId, b: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let r = self.e.reg(PtxTy::B32);
        let av = self.lower_expr(a)?;
        let aty = self.ety(a);
        let ta = self.truth(&av, &aty, span)?;
        let done = self.e.label();
        self.e.line(&format!("selp.u32 {r}, 1, 0, {ta};"));
        if and {
            self.e.line(&format!("@!{ta} bra {done};"));
        } else {
            self.e.line(&format!("@{ta} bra {done};"));
        }
        let bv = self.lower_expr(b)?;
        let bty = self.ety(b);
        let tb = self.truth01(&bv, &bty, span)?;
        self.e.line(&format!("mov.b32 {r}, {tb};"));
        self.e.place(&done);
        let rs = scalar_of(ty).unwrap_or(Scalar::I32);
        Ok(Val::S(self.cast_scalar(&r, Scalar::I32, rs)))
    }

    fn lower_unary(&mut self, op: UnOp, a: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let v = self.lower_expr(a)?;
        let aty = self.ety(a);
        match op {
            UnOp::LogNot => {
                let p = self.truth(&v, &aty, span)?;
                let r = self.e.reg(PtxTy::B32);
                self.e.line(&format!("selp.u32 {r}, 0, 1, {p};"));
                let rs = scalar_of(ty).unwrap_or(Scalar::I32);
                Ok(Val::S(self.cast_scalar(&r, Scalar::I32, rs)))
            }
            UnOp::Neg => {
                let v = self.cast(v, &aty, ty, span)?;
                match v {
                    Val::C(re, im) => {
                        let s = match ty {
                            Type::Complex(s) => *s,
                            _ => Scalar::F64,
                        };
                        let (a, b) = (self.sreg(s), self.sreg(s));
                        self.e.line(&format!("neg.{} {a}, {re};", op_ty(s)));
                        self.e.line(&format!("neg.{} {b}, {im};", op_ty(s)));
                        Ok(Val::C(a, b))
                    }
                    Val::S(x) => {
                        let s = scalar_of(ty).ok_or_else(|| unsupported(span, format!("negation of {ty:?}")))?;
                        let r = self.sreg(s);
                        let t = if s.is_float() {
                            op_ty(s).to_string()
                        } else if s.size() == 8 {
                            "s64".into()
                        } else {
                            "s32".into()
                        };
                        self.e.line(&format!("neg.{t} {r}, {x};"));
                        if s.size() < 4 {
                            return Ok(Val::S(self.cast_scalar(&r, Scalar::I32, s)));
                        }
                        Ok(Val::S(r))
                    }
                    _ => Err(unsupported(span, format!("negation of {ty:?}"))),
                }
            }
            UnOp::BitNot => {
                let x = self.cast(v, &aty, ty, span)?.s(span)?;
                let s = scalar_of(ty).ok_or_else(|| unsupported(span, format!("~ on {ty:?}")))?;
                if s.is_float() {
                    return Err(Diagnostic::error(span, "~ on a floating-point value"));
                }
                let r = self.sreg(s);
                self.e.line(&format!("not.{} {r}, {x};", bits_ty(s)));
                if s.size() < 4 {
                    return Ok(Val::S(self.cast_scalar(&r, Scalar::U32, s)));
                }
                Ok(Val::S(r))
            }
        }
    }

    /// Registers able to hold a value of type `ty` (the merge point of a conditional).
    pub fn val_regs(&mut self, ty: &Type) -> Val {
        match ty {
            Type::Void => Val::Void,
            Type::Complex(s) => Val::C(self.sreg(*s), self.sreg(*s)),
            _ => match scalar_of(ty) {
                Some(s) => Val::S(self.sreg(s)),
                None => Val::Mem(self.e.reg(PtxTy::B64)),
            },
        }
    }

    /// `dst = src` register by register.
    pub fn move_val(&mut self, dst: &Val, src: &Val, ty: &Type) {
        let s = match ty {
            Type::Complex(s) => *s,
            t => scalar_of(t).unwrap_or(Scalar::U64),
        };
        match (dst, src) {
            (Val::S(d), Val::S(x)) => self.e.line(&format!("mov.{} {d}, {x};", bits_ty(s))),
            (Val::C(a, b), Val::C(x, y)) => {
                self.e.line(&format!("mov.{} {a}, {x};", bits_ty(s)));
                self.e.line(&format!("mov.{} {b}, {y};", bits_ty(s)));
            }
            (Val::Mem(d), Val::Mem(x)) => self.e.line(&format!("mov.b64 {d}, {x};")),
            _ => {}
        }
    }

    fn lower_cond(&mut self, c: ExprId, a: ExprId, b: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let cv = self.lower_expr(c)?;
        let cty = self.ety(c);
        let p = self.truth(&cv, &cty, span)?;
        let out = self.val_regs(ty);
        let (else_l, done) = (self.e.label(), self.e.label());
        self.e.line(&format!("@!{p} bra {else_l};"));
        for (k, arm) in [a, b].into_iter().enumerate() {
            if k == 1 {
                self.e.line(&format!("bra {done};"));
                self.e.place(&else_l);
            }
            let v = self.lower_expr(arm)?;
            let aty = self.ety(arm);
            let v = self.cast(v, &aty, ty, span)?;
            self.move_val(&out, &v, ty);
        }
        self.e.place(&done);
        Ok(out)
    }

    fn lower_assign(&mut self, p: ExprId, v: ExprId, span: Span) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let pty = self.ety(p);
        let val = self.lower_expr(v)?;
        let vty = self.ety(v);
        let val = self.cast(val, &vty, &pty, span)?;
        match (&place, &val, scalar_of(&pty)) {
            (Place::Mem(a), Val::S(v), Some(s))
                if self.tuning.stream_stores
                    && !matches!(pty, Type::Array(..))
                    && crate::space::place_pointer(self.f, p).is_some_and(|l| self.global_ptrs.contains(&l)) =>
            {
                // Through a kernel's pointer parameter: a streaming store to global memory.
                let g = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvta.to.global.u64 {g}, {a};"));
                let guard = self.store_pred.as_ref().map(|q| format!("@{q} ")).unwrap_or_default();
                self.e.line(&format!("{guard}st.global.cs.{} [{g}], {v};", crate::value::mem_ty(s)));
            }
            _ => self.write_place(&place, &pty, &val, span)?,
        }
        Ok(match (&place, &val) {
            (Place::Mem(a), Val::Mem(_)) => Val::Mem(a.clone()),
            _ => val,
        })
    }

    fn lower_compound_assign(&mut self, op: BinOp, p: ExprId, v: ExprId, op_ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let pty = self.ety(p);
        let op_ty = if pty.is_ptr() && matches!(op, BinOp::Add | BinOp::Sub) { &pty } else { op_ty };
        let old = self.read_place(&place, &pty);
        let l = self.cast(old, &pty, op_ty, span)?;
        let r = self.lower_expr(v)?;
        let vty = self.ety(v);
        let res = self.binop(op, l, op_ty, r, &vty, op_ty, span)?;
        let new = self.cast(res, op_ty, &pty, span)?;
        self.write_place(&place, &pty, &new, span)?;
        Ok(new)
    }

    fn lower_inc_dec(&mut self, p: ExprId, inc: bool, prefix: bool, span: Span) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let pty = self.ety(p);
        let old = self.read_place(&place, &pty);
        let sign: i64 = if inc { 1 } else { -1 };
        let new = match (&pty, &old) {
            (Type::Ptr(t), Val::S(v)) => {
                let size = match &**t {
                    Type::Void | Type::Func(_) => 1,
                    t => self.size_of(t) as i64,
                };
                let r = self.e.reg(PtxTy::B64);
                self.e.line(&format!("add.s64 {r}, {v}, {};", sign * size));
                Val::S(r)
            }
            (Type::Scalar(Scalar::Bool), Val::S(v)) => {
                let r = self.e.reg(PtxTy::B32);
                if inc {
                    self.e.line(&format!("mov.b32 {r}, 1;"));
                } else {
                    self.e.line(&format!("xor.b32 {r}, {v}, 1;"));
                }
                Val::S(r)
            }
            (Type::Scalar(s), Val::S(v)) if s.is_float() => {
                let r = self.sreg(*s);
                self.e.line(&format!("add.rn.{} {r}, {v}, {};", op_ty(*s), float_lit(*s, sign as f64)));
                Val::S(r)
            }
            (Type::Scalar(s), Val::S(v)) => {
                let one = self.iconst(*s, sign);
                Val::S(self.arith(BinOp::Add, v, &one, *s, span)?)
            }
            (Type::Complex(s), Val::C(re, im)) => {
                let r = self.sreg(*s);
                self.e.line(&format!("add.rn.{} {r}, {re}, {};", op_ty(*s), float_lit(*s, sign as f64)));
                Val::C(r, im.clone())
            }
            _ => return Err(unsupported(span, format!("++/-- on a value of type {pty:?}"))),
        };
        self.write_place(&place, &pty, &new, span)?;
        Ok(if prefix { new } else { old })
    }

    fn lower_alloca(&mut self, n: ExprId, span: Span) -> Result<Val, Diagnostic> {
        let v = self.lower_expr(n)?;
        let nty = self.ety(n);
        let bytes = self.as_i64(v, &nty, span)?;
        Ok(Val::S(self.alloca(&bytes)))
    }

    /// `bytes` of per-thread stack (16-byte aligned), as a generic address;
    /// released when the function returns.
    pub fn alloca(&mut self, bytes: &str) -> String {
        let n = self.e.reg(PtxTy::B64);
        // A negative size allocates nothing.
        self.e.line(&format!("max.s64 {n}, {bytes}, 0;"));
        self.e.line(&format!("add.s64 {n}, {n}, 15;"));
        self.e.line(&format!("and.b64 {n}, {n}, -16;"));
        let l = self.e.reg(PtxTy::B64);
        self.e.line(&format!("alloca.u64 {l}, {n}, 16;"));
        let g = self.e.reg(PtxTy::B64);
        self.e.line(&format!("cvta.local.u64 {g}, {l};"));
        g
    }

    /// Gang index and count (i64): the linear block index and block count.
    pub fn builtin(&mut self, b: Builtin) -> String {
        let r = self.e.reg(PtxTy::B64);
        let (x, y, z, nx, ny, nz) =
            (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        for (reg, sp) in [(&x, "%ctaid.x"), (&y, "%ctaid.y"), (&z, "%ctaid.z"), (&nx, "%nctaid.x"), (&ny, "%nctaid.y"), (&nz, "%nctaid.z")] {
            self.e.line(&format!("mov.u32 {reg}, {sp};"));
        }
        let t = self.e.reg(PtxTy::B64);
        match b {
            Builtin::GangIndex => {
                // ctaid.x + nctaid.x * (ctaid.y + nctaid.y * ctaid.z)
                self.e.line(&format!("mul.wide.u32 {t}, {ny}, {z};"));
                let y64 = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvt.u64.u32 {y64}, {y};"));
                self.e.line(&format!("add.s64 {t}, {t}, {y64};"));
                let nx64 = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvt.u64.u32 {nx64}, {nx};"));
                let x64 = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvt.u64.u32 {x64}, {x};"));
                self.e.line(&format!("mad.lo.s64 {r}, {t}, {nx64}, {x64};"));
            }
            Builtin::NumGangs => {
                self.e.line(&format!("mul.wide.u32 {t}, {nx}, {ny};"));
                let nz64 = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvt.u64.u32 {nz64}, {nz};"));
                self.e.line(&format!("mul.lo.s64 {r}, {t}, {nz64};"));
            }
        }
        r
    }

    #[allow(clippy::too_many_arguments)]
    pub fn complex_binop(&mut self, op: BinOp, av: Val, at: &Type, bv: Val, bt: &Type, rt: &Type, span: Span) -> Result<Val, Diagnostic> {
        let elem = |t: &Type| match t {
            Type::Complex(s) => Some(*s),
            t => scalar_of(t),
        };
        let wide = [elem(at), elem(bt), if let Type::Complex(s) = rt { Some(*s) } else { None }].into_iter().flatten().any(|s| s == Scalar::F64);
        let s = if wide { Scalar::F64 } else { Scalar::F32 };
        let ct = Type::Complex(s);
        let x = self.cast(av, at, &ct, span)?;
        let y = self.cast(bv, bt, &ct, span)?;
        let (a, b) = self.complex_parts(&x, &ct, span)?;
        let (c, d) = self.complex_parts(&y, &ct, span)?;
        let t = op_ty(s);
        let op3 = |fx: &mut Self, ins: &str, x: &str, y: &str| {
            let r = fx.sreg(s);
            fx.e.line(&format!("{ins}.{t} {r}, {x}, {y};"));
            r
        };
        let res = match op {
            BinOp::Add => Val::C(op3(self, "add.rn", &a, &c), op3(self, "add.rn", &b, &d)),
            BinOp::Sub => Val::C(op3(self, "sub.rn", &a, &c), op3(self, "sub.rn", &b, &d)),
            BinOp::Mul => {
                let ac = op3(self, "mul.rn", &a, &c);
                let bd = op3(self, "mul.rn", &b, &d);
                let ad = op3(self, "mul.rn", &a, &d);
                let bc = op3(self, "mul.rn", &b, &c);
                Val::C(op3(self, "sub.rn", &ac, &bd), op3(self, "add.rn", &ad, &bc))
            }
            BinOp::Div => {
                // Smith's algorithm, both branches, selected.
                let (ca, da) = (self.sreg(s), self.sreg(s));
                self.e.line(&format!("abs.{t} {ca}, {c};"));
                self.e.line(&format!("abs.{t} {da}, {d};"));
                let big = self.e.reg(PtxTy::Pred);
                self.e.line(&format!("setp.ge.{t} {big}, {ca}, {da};"));
                let r1 = op3(self, "div.rn", &d, &c);
                let t1 = op3(self, "mul.rn", &d, &r1);
                let den1 = op3(self, "add.rn", &c, &t1);
                let br = op3(self, "mul.rn", &b, &r1);
                let n1 = op3(self, "add.rn", &a, &br);
                let re1 = op3(self, "div.rn", &n1, &den1);
                let ar = op3(self, "mul.rn", &a, &r1);
                let n2 = op3(self, "sub.rn", &b, &ar);
                let im1 = op3(self, "div.rn", &n2, &den1);
                let r2 = op3(self, "div.rn", &c, &d);
                let t2 = op3(self, "mul.rn", &c, &r2);
                let den2 = op3(self, "add.rn", &t2, &d);
                let ar2 = op3(self, "mul.rn", &a, &r2);
                let n3 = op3(self, "add.rn", &ar2, &b);
                let re2 = op3(self, "div.rn", &n3, &den2);
                let br2 = op3(self, "mul.rn", &b, &r2);
                let n4 = op3(self, "sub.rn", &br2, &a);
                let im2 = op3(self, "div.rn", &n4, &den2);
                let (re, im) = (self.sreg(s), self.sreg(s));
                self.e.line(&format!("selp.{t} {re}, {re1}, {re2}, {big};"));
                self.e.line(&format!("selp.{t} {im}, {im1}, {im2}, {big};"));
                Val::C(re, im)
            }
            BinOp::Eq | BinOp::Ne => {
                let (c1, c2) = if op == BinOp::Eq { ("eq", "and") } else { ("neu", "or") };
                let p = self.e.reg(PtxTy::Pred);
                let q = self.e.reg(PtxTy::Pred);
                self.e.line(&format!("setp.{c1}.{t} {p}, {a}, {c};"));
                self.e.line(&format!("setp.{c1}.{c2}.{t} {q}, {b}, {d}, {p};"));
                let r = self.sel01(&q);
                let rs = scalar_of(rt).unwrap_or(Scalar::I32);
                return Ok(Val::S(self.cast_scalar(&r, Scalar::I32, rs)));
            }
            _ => return Err(unsupported(span, format!("operator {op:?} on complex values"))),
        };
        self.cast(res, &ct, rt, span)
    }
}

//! Operators on scalars and pointers with C semantics: integer arithmetic by
//! signedness (div/rem/shr), float arithmetic (`%` through libm `fmod`),
//! pointer ± integer scaled by the pointee size, pointer − pointer in
//! elements, comparisons (int 0/1), short-circuit `&&`/`||`, unary operators.

use accjit_ir::{BinOp, Diagnostic, ExprId, Scalar, Span, Type, UnOp};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, BlockArg, InstBuilder, Value};

use crate::abi::{cl_scalar, scalar_of};
use crate::function::FnCx;
use crate::value::Val;

fn is_cmp(op: BinOp) -> bool {
    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

fn is_pointerish(t: &Type) -> bool {
    matches!(t, Type::Ptr(_) | Type::Array(..))
}

/// The type both operands of a comparison are converted to.
pub(crate) fn common_type(a: &Type, b: &Type) -> Type {
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
    Type::Scalar(if s == Scalar::Bool { Scalar::I32 } else { s })
}

impl FnCx<'_, '_, '_> {
    pub fn lower_binary(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        if matches!(op, BinOp::LogAnd | BinOp::LogOr) {
            return self.lower_logical(op == BinOp::LogAnd, a, b, ty, span);
        }
        let av = self.lower_expr(a)?;
        let bv = self.lower_expr(b)?;
        let (at, bt) = (self.expr(a).ty.clone(), self.expr(b).ty.clone());
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
            let x = self.cast(av, at, &ct, span)?.scalar(span)?;
            let y = self.cast(bv, bt, &ct, span)?.scalar(span)?;
            let s = scalar_of(&ct).ok_or_else(|| Diagnostic::error(span, format!("comparison of {ct:?} values is not supported by the Cranelift back end")))?;
            let c = self.compare(op, x, y, s);
            let rs = scalar_of(rt).unwrap_or(Scalar::I32);
            return Ok(Val::Scalar(self.cast_scalar(c, Scalar::Bool, rs)));
        }
        let s = scalar_of(rt).ok_or_else(|| Diagnostic::error(span, format!("arithmetic on {rt:?} values is not supported by the Cranelift back end")))?;
        let x = self.cast(av, at, rt, span)?.scalar(span)?;
        let y = if matches!(op, BinOp::Shl | BinOp::Shr) && scalar_of(bt).is_some_and(|s| s.is_int()) {
            bv.scalar(span)?
        } else {
            self.cast(bv, bt, rt, span)?.scalar(span)?
        };
        Ok(Val::Scalar(self.arith(op, x, y, s, span)?))
    }

    /// A comparison as I8 0/1 (floats: ordered, except `!=`).
    pub fn compare(&mut self, op: BinOp, x: Value, y: Value, s: Scalar) -> Value {
        if s.is_float() {
            let cc = match op {
                BinOp::Eq => FloatCC::Equal,
                BinOp::Ne => FloatCC::NotEqual,
                BinOp::Lt => FloatCC::LessThan,
                BinOp::Le => FloatCC::LessThanOrEqual,
                BinOp::Gt => FloatCC::GreaterThan,
                _ => FloatCC::GreaterThanOrEqual,
            };
            self.b.ins().fcmp(cc, x, y)
        } else {
            let signed = s.is_signed();
            let cc = match (op, signed) {
                (BinOp::Eq, _) => IntCC::Equal,
                (BinOp::Ne, _) => IntCC::NotEqual,
                (BinOp::Lt, true) => IntCC::SignedLessThan,
                (BinOp::Lt, false) => IntCC::UnsignedLessThan,
                (BinOp::Le, true) => IntCC::SignedLessThanOrEqual,
                (BinOp::Le, false) => IntCC::UnsignedLessThanOrEqual,
                (BinOp::Gt, true) => IntCC::SignedGreaterThan,
                (BinOp::Gt, false) => IntCC::UnsignedGreaterThan,
                (_, true) => IntCC::SignedGreaterThanOrEqual,
                (_, false) => IntCC::UnsignedGreaterThanOrEqual,
            };
            self.b.ins().icmp(cc, x, y)
        }
    }

    /// An arithmetic or bitwise operator on two registers of scalar type `s`.
    pub fn arith(&mut self, op: BinOp, x: Value, y: Value, s: Scalar, span: Span) -> Result<Value, Diagnostic> {
        if s.is_float() && op == BinOp::Rem {
            let t = cl_scalar(s);
            let name = if s == Scalar::F32 { "fmodf" } else { "fmod" };
            let r = self.call_named(name, &[t, t], Some(t), &[x, y], span)?;
            return r.ok_or_else(|| Diagnostic::error(span, "internal error: fmod"));
        }
        let ins = self.b.ins();
        if s.is_float() {
            return Ok(match op {
                BinOp::Add => ins.fadd(x, y),
                BinOp::Sub => ins.fsub(x, y),
                BinOp::Mul => ins.fmul(x, y),
                BinOp::Div => ins.fdiv(x, y),
                _ => return Err(Diagnostic::error(span, format!("operator {op:?} on floating-point values is not supported by the Cranelift back end"))),
            });
        }
        let signed = s.is_signed();
        Ok(match op {
            BinOp::Add => ins.iadd(x, y),
            BinOp::Sub => ins.isub(x, y),
            BinOp::Mul => ins.imul(x, y),
            BinOp::Div if signed => ins.sdiv(x, y),
            BinOp::Div => ins.udiv(x, y),
            BinOp::Rem if signed => ins.srem(x, y),
            BinOp::Rem => ins.urem(x, y),
            BinOp::Shl => ins.ishl(x, y),
            BinOp::Shr if signed => ins.sshr(x, y),
            BinOp::Shr => ins.ushr(x, y),
            BinOp::BitAnd => ins.band(x, y),
            BinOp::BitOr => ins.bor(x, y),
            BinOp::BitXor => ins.bxor(x, y),
            _ => return Err(Diagnostic::error(span, format!("internal error: operator {op:?} as arithmetic"))),
        })
    }

    fn elem_size(&self, pt: &Type) -> i64 {
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
            Val::Scalar(v) | Val::Mem(v) => v,
            _ => return Err(Diagnostic::error(span, "internal error: pointer operand")),
        };
        let nv = self.cast_to_i64(n, nt, span)?;
        let size = self.elem_size(pt);
        let off = if size == 1 { nv } else { self.b.ins().imul_imm_s(nv, size) };
        Ok(Val::Scalar(if sub { self.b.ins().isub(pv, off) } else { self.b.ins().iadd(pv, off) }))
    }

    fn ptr_diff(&mut self, a: Val, at: &Type, b: Val, rt: &Type, span: Span) -> Result<Val, Diagnostic> {
        let (x, y) = match (a, b) {
            (Val::Scalar(x) | Val::Mem(x), Val::Scalar(y) | Val::Mem(y)) => (x, y),
            _ => return Err(Diagnostic::error(span, "internal error: pointer operands")),
        };
        let d = self.b.ins().isub(x, y);
        let size = self.elem_size(at);
        let q = if size == 1 {
            d
        } else if (size as u64).is_power_of_two() {
            self.b.ins().sshr_imm_s(d, size.trailing_zeros() as i64)
        } else {
            let s = self.iconst(types::I64, size);
            self.b.ins().sdiv(d, s)
        };
        self.cast(Val::Scalar(q), &Type::I64, rt, span)
    }

    fn lower_logical(&mut self, and: bool, a: ExprId, b: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let av = self.lower_expr(a)?;
        let aty = self.expr(a).ty.clone();
        let ta = self.truth(av, &aty, span)?;
        let (rhs, merge) = (self.b.create_block(), self.b.create_block());
        let r = self.b.append_block_param(merge, types::I8);
        if and {
            let z = self.iconst(types::I8, 0);
            self.b.ins().brif(ta, rhs, &[], merge, &[BlockArg::Value(z)]);
        } else {
            let one = self.iconst(types::I8, 1);
            self.b.ins().brif(ta, merge, &[BlockArg::Value(one)], rhs, &[]);
        }
        self.b.switch_to_block(rhs);
        self.b.seal_block(rhs);
        let bv = self.lower_expr(b)?;
        let bty = self.expr(b).ty.clone();
        let tb = self.truth01(bv, &bty, span)?;
        self.b.ins().jump(merge, &[BlockArg::Value(tb)]);
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        let rs = scalar_of(ty).unwrap_or(Scalar::I32);
        Ok(Val::Scalar(self.cast_scalar(r, Scalar::Bool, rs)))
    }

    pub fn lower_unary(&mut self, op: UnOp, a: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let v = self.lower_expr(a)?;
        let aty = self.expr(a).ty.clone();
        match op {
            UnOp::LogNot => {
                let t = self.truth01(v, &aty, span)?;
                let n = self.b.ins().bxor_imm_s(t, 1);
                let rs = scalar_of(ty).unwrap_or(Scalar::I32);
                Ok(Val::Scalar(self.cast_scalar(n, Scalar::Bool, rs)))
            }
            UnOp::Neg => {
                let v = self.cast(v, &aty, ty, span)?;
                match v {
                    Val::Complex(re, im) => Ok(Val::Complex(self.b.ins().fneg(re), self.b.ins().fneg(im))),
                    Val::Scalar(x) if self.b.func.dfg.value_type(x).is_float() => Ok(Val::Scalar(self.b.ins().fneg(x))),
                    Val::Scalar(x) => Ok(Val::Scalar(self.b.ins().ineg(x))),
                    _ => Err(Diagnostic::error(span, format!("negation of {ty:?} is not supported by the Cranelift back end"))),
                }
            }
            UnOp::BitNot => {
                let v = self.cast(v, &aty, ty, span)?.scalar(span)?;
                if self.b.func.dfg.value_type(v).is_float() {
                    return Err(Diagnostic::error(span, "~ on a floating-point value"));
                }
                Ok(Val::Scalar(self.b.ins().bnot(v)))
            }
        }
    }
}

//! `_Complex` arithmetic on (re, im) register pairs: + − × ÷ (Smith's
//! algorithm, so that |c| ≫ |d| does not overflow), == and != (int 0/1).
//! A real operand is promoted to (x, 0).

use accjit_ir::{BinOp, Diagnostic, Scalar, Span, Type};
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::InstBuilder;

use crate::abi::scalar_of;
use crate::function::FnCx;
use crate::value::Val;

fn elem(t: &Type) -> Option<Scalar> {
    match t {
        Type::Complex(s) => Some(*s),
        t => scalar_of(t),
    }
}

impl FnCx<'_, '_, '_> {
    #[allow(clippy::too_many_arguments)]
    pub fn complex_binop(&mut self, op: BinOp, av: Val, at: &Type, bv: Val, bt: &Type, rt: &Type, span: Span) -> Result<Val, Diagnostic> {
        let wide = [elem(at), elem(bt), if let Type::Complex(s) = rt { Some(*s) } else { None }].into_iter().flatten().any(|s| s == Scalar::F64);
        let ct = Type::Complex(if wide { Scalar::F64 } else { Scalar::F32 });
        let x = self.cast(av, at, &ct, span)?;
        let y = self.cast(bv, bt, &ct, span)?;
        let (a, b) = self.complex_parts(x, &ct, span)?;
        let (c, d) = self.complex_parts(y, &ct, span)?;
        let res = match op {
            BinOp::Add => Val::Complex(self.b.ins().fadd(a, c), self.b.ins().fadd(b, d)),
            BinOp::Sub => Val::Complex(self.b.ins().fsub(a, c), self.b.ins().fsub(b, d)),
            BinOp::Mul => {
                let ac = self.b.ins().fmul(a, c);
                let bd = self.b.ins().fmul(b, d);
                let ad = self.b.ins().fmul(a, d);
                let bc = self.b.ins().fmul(b, c);
                Val::Complex(self.b.ins().fsub(ac, bd), self.b.ins().fadd(ad, bc))
            }
            BinOp::Div => {
                let ins = self.b.ins();
                let ac_abs = ins.fabs(c);
                let ad_abs = self.b.ins().fabs(d);
                let big_c = self.b.ins().fcmp(FloatCC::GreaterThanOrEqual, ac_abs, ad_abs);
                // |c| >= |d|: r = d/c, den = c + d r, re = (a + b r)/den, im = (b - a r)/den
                let r1 = self.b.ins().fdiv(d, c);
                let t = self.b.ins().fmul(d, r1);
                let den1 = self.b.ins().fadd(c, t);
                let br = self.b.ins().fmul(b, r1);
                let n1 = self.b.ins().fadd(a, br);
                let re1 = self.b.ins().fdiv(n1, den1);
                let ar = self.b.ins().fmul(a, r1);
                let n2 = self.b.ins().fsub(b, ar);
                let im1 = self.b.ins().fdiv(n2, den1);
                // otherwise: r = c/d, den = c r + d, re = (a r + b)/den, im = (b r - a)/den
                let r2 = self.b.ins().fdiv(c, d);
                let t = self.b.ins().fmul(c, r2);
                let den2 = self.b.ins().fadd(t, d);
                let ar = self.b.ins().fmul(a, r2);
                let n1 = self.b.ins().fadd(ar, b);
                let re2 = self.b.ins().fdiv(n1, den2);
                let br = self.b.ins().fmul(b, r2);
                let n2 = self.b.ins().fsub(br, a);
                let im2 = self.b.ins().fdiv(n2, den2);
                let re = self.b.ins().select(big_c, re1, re2);
                let im = self.b.ins().select(big_c, im1, im2);
                Val::Complex(re, im)
            }
            BinOp::Eq | BinOp::Ne => {
                let (cc, join) = if op == BinOp::Eq { (FloatCC::Equal, true) } else { (FloatCC::NotEqual, false) };
                let x = self.b.ins().fcmp(cc, a, c);
                let y = self.b.ins().fcmp(cc, b, d);
                let r = if join { self.b.ins().band(x, y) } else { self.b.ins().bor(x, y) };
                let rs = scalar_of(rt).unwrap_or(Scalar::I32);
                return Ok(Val::Scalar(self.cast_scalar(r, Scalar::Bool, rs)));
            }
            _ => return Err(Diagnostic::error(span, format!("operator {op:?} on complex values is not supported by the Cranelift back end"))),
        };
        self.cast(res, &ct, rt, span)
    }
}

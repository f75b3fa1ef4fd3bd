//! `printf` in device code through the CUDA device runtime's `vprintf(fmt,
//! args)`: the variadic arguments (already default-promoted by the front
//! end: `double`, `int`/`long`, pointers) are packed into a per-thread
//! buffer, each at the next offset aligned to its size, as `vprintf`
//! expects. The result is `vprintf`'s (the number of arguments, or a
//! negative value on error), not the character count of C's `printf`.

use accjit_ir::{Diagnostic, ExprId, Scalar, Span, Type};

use crate::expr::unsupported;
use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::{bits_ty, scalar_of, Val};

/// The declaration of `vprintf` (CUDA's device runtime provides it).
pub const VPRINTF_DECL: &str = ".extern .func (.param .b32 rv) vprintf (.param .b64 fmt, .param .b64 args);\n";

impl FnCx<'_> {
    pub fn lower_printf(&mut self, args: &[ExprId], span: Span) -> Result<Val, Diagnostic> {
        let (&fmt, rest) = args.split_first().ok_or_else(|| Diagnostic::error(span, "printf needs a format"))?;
        let fv = self.lower_expr(fmt)?;
        let fty = self.ety(fmt);
        let fmt_reg = self.as_i64(fv, &fty, span)?;
        let mut vals = vec![];
        let mut off = 0u64;
        for &a in rest {
            let v = self.lower_expr(a)?;
            let aty = self.ety(a);
            // C's default promotions (the front end has applied them; again for safety).
            let (v, s) = match scalar_of(&aty) {
                Some(Scalar::F32) => (self.cast(v, &aty, &Type::F64, span)?, Scalar::F64),
                Some(s) if s.is_int() && s.size() < 4 => {
                    let to = if s.is_signed() || s == Scalar::Bool || s.size() < 4 { Scalar::I32 } else { Scalar::U32 };
                    (self.cast(v, &aty, &Type::Scalar(to), span)?, to)
                }
                Some(s) => (v, s),
                None => return Err(unsupported(span, format!("printf of a value of type {aty:?}"))),
            };
            let size = s.size();
            off = off.div_ceil(size) * size;
            vals.push((off, s, v.s(span)?));
            off += size;
        }
        let buf = if vals.is_empty() {
            let z = self.e.reg(PtxTy::B64);
            self.e.line(&format!("mov.u64 {z}, 0;"));
            z
        } else {
            let b = self.temp(off, 8);
            for (o, s, r) in &vals {
                self.store_scalar(*s, r, &b, *o as i64);
            }
            b
        };
        self.uses.vprintf = true;
        let r = self.e.reg(PtxTy::B32);
        let b = bits_ty(Scalar::I32);
        self.e.line(&format!(
            "{{\n    .param .b64 a0;\n    st.param.b64 [a0], {fmt_reg};\n    .param .b64 a1;\n    st.param.b64 [a1], {buf};\n    .param .{b} rv;\n    call (rv), vprintf, (a0, a1);\n    ld.param.{b} {r}, [rv];\n    }}"
        ));
        Ok(Val::S(r))
    }
}

//! Variadic functions of the program (C99 §7.15): `va_start`, `va_arg`,
//! `va_end`, `va_copy` over accjit's calling convention for variadic
//! arguments (`FuncSig::va_block_form`): a variadic function receives its
//! variadic arguments as a block of 64-bit slots, their kinds and a count,
//! in three hidden locals after its parameters (`FnBuilder::va`).
//!
//! A `va_list` (bundled `<stdarg.h>`) is `struct __accjit_va_list[1]`: a
//! cursor `{slots, kinds, count}` into that block, passed by address like
//! glibc's array-typed `va_list`. `va_start` points it at the block; `va_arg`
//! reads the next slot as the requested type (integers are stored extended
//! to 64 bits and doubles as their bits, so reading the slot's first bytes
//! as `T` is the value) and advances all three; the runtime's `vprintf`
//! family reads the same cursor.

use super::ctype::CType;
use super::expr::{CExpr, Cat};
use super::{PResult, Parser};
use crate::token::Token;
use accjit_ir::{ExprKind, LocalId, Scalar, Span, Stmt, StmtKind, Type};

/// The struct tag of `va_list`'s element (declared by the bundled headers).
const VA_TAG: &str = "__accjit_va_list";

impl<'a> Parser<'a> {
    /// The hidden locals of a variadic function being defined: they must be
    /// the locals right after the parameters.
    pub fn declare_va_block(&mut self, sp: Span) -> [LocalId; 3] {
        let f = self.func_mut();
        [
            f.add_local(".va_slots", Type::ptr(Type::Scalar(Scalar::U64)), sp),
            f.add_local(".va_kinds", Type::ptr(Type::Scalar(Scalar::U8)), sp),
            f.add_local(".va_count", Type::I64, sp),
        ]
    }

    /// `__builtin_va_start`, `_arg`, `_end`, `_copy` (after the name and `(`).
    pub fn va_builtin(&mut self, t: &Token) -> PResult<CExpr> {
        let sp = t.span;
        let r = match t.text.as_str() {
            "__builtin_va_start" => {
                let ap = self.va_list_arg("va_start")?;
                self.expect_p(",")?;
                self.assign_expr()?;
                let Some(block) = self.fb.as_ref().and_then(|f| f.va) else {
                    return self.err(sp, "'va_start' used in a function with a fixed parameter list");
                };
                let (cur, mut seq) = self.va_cursor(ap, sp)?;
                for (field, l) in ["__slots", "__kinds", "__count"].into_iter().zip(block) {
                    let dst = self.va_field(cur, field, sp)?;
                    let lty = CType::Scalar(Scalar::I64);
                    let src = if field == "__count" { self.local_place(l, &lty, sp) } else { self.local_place(l, &dst.ty.clone(), sp) };
                    let a = self.build_assign(dst, src, sp)?;
                    seq = self.seq(seq, a);
                }
                self.build_cast(seq, CType::Void, sp)?
            }
            "__builtin_va_arg" => {
                let ap = self.va_list_arg("va_arg")?;
                self.expect_p(",")?;
                let (ty, _) = self.type_name()?;
                match &ty {
                    CType::Scalar(Scalar::F32) => {
                        return self.err(sp, "'float' is promoted to 'double' when passed through '...': use va_arg(ap, double)");
                    }
                    t if t.is_scalar_like() && !matches!(t, CType::Complex(_)) => {}
                    t => {
                        let n = self.tyname(t);
                        return self.err(sp, format!("va_arg of type '{}' is not supported (only scalars and pointers pass through '...')", n));
                    }
                }
                let (cur, seq) = self.va_cursor(ap, sp)?;
                let kinds = self.va_field(cur, "__kinds", sp)?;
                let k = self.build_incdec(kinds, true, false, sp)?;
                let count = self.va_field(cur, "__count", sp)?;
                let c = self.build_incdec(count, false, false, sp)?;
                let slots = self.va_field(cur, "__slots", sp)?;
                let s = self.build_incdec(slots, true, false, sp)?;
                let at = self.build_cast(s, CType::ptr(ty), sp)?;
                let v = self.deref(at, sp)?;
                let v = self.rv(v);
                let seq = self.seq(seq, k);
                let seq = self.seq(seq, c);
                self.seq(seq, v)
            }
            "__builtin_va_end" => {
                let ap = self.va_list_arg("va_end")?;
                self.build_cast(ap, CType::Void, sp)?
            }
            _ => {
                // __builtin_va_copy(dst, src): the cursor copied.
                let d = self.va_list_arg("va_copy")?;
                self.expect_p(",")?;
                let s = self.va_list_arg("va_copy")?;
                let d = self.deref(d, sp)?;
                let s = self.deref(s, sp)?;
                let a = self.build_assign(CExpr { cat: Cat::Place { is_const: false }, ..d }, s, sp)?;
                self.build_cast(a, CType::Void, sp)?
            }
        };
        let rp = self.expect_p(")")?;
        Ok(CExpr { span: sp.to(rp), ..r })
    }

    /// A `va_list` argument: a pointer to the cursor (the array decays).
    fn va_list_arg(&mut self, what: &str) -> PResult<CExpr> {
        let e = self.assign_value()?;
        let ok = match e.ty.pointee() {
            Some(CType::Struct(id)) => self.m.structs.get(id.0 as usize).is_some_and(|d| d.name == VA_TAG),
            _ => false,
        };
        if !ok {
            let n = self.tyname(&e.ty);
            return self.err(e.span, format!("'{}' needs a 'va_list' (from <stdarg.h>), not '{}'", what, n));
        }
        Ok(e)
    }

    /// The cursor pointer `ap` evaluated once into a temporary: its local and
    /// the assignment to sequence first.
    fn va_cursor(&mut self, ap: CExpr, sp: Span) -> PResult<(LocalId, CExpr)> {
        let l = self.func_mut().add_local(".va_cursor", ap.ty.ir(), sp);
        self.pending.push(Stmt { kind: StmtKind::Decl(l, None), span: sp });
        let ty = ap.ty.clone();
        let dst = self.local_place(l, &ty, sp);
        let set = self.build_assign(dst, ap, sp)?;
        Ok((l, set))
    }

    /// `cursor->field`.
    fn va_field(&mut self, cursor: LocalId, field: &str, sp: Span) -> PResult<CExpr> {
        let ty = CType::ptr(self.va_struct_type(cursor));
        let p = self.local_place(cursor, &ty, sp);
        self.member(p, true, field, sp)
    }

    fn va_struct_type(&self, cursor: LocalId) -> CType {
        match &self.func().locals[cursor.index()].ty {
            Type::Ptr(t) => match &**t {
                Type::Struct(id) => CType::Struct(*id),
                _ => CType::Void,
            },
            _ => CType::Void,
        }
    }

    /// `(a, b)`.
    fn seq(&mut self, a: CExpr, b: CExpr) -> CExpr {
        let sp = a.span.to(b.span);
        let id = self.mk(ExprKind::Comma(a.id, b.id), b.ty.ir(), sp);
        CExpr { id, ty: b.ty, cat: Cat::Value, span: sp }
    }
}

//! Run-time-sized private storage (`PrivateCopy`) on the GPU: private and
//! firstprivate subarrays and the copies of non-scalar reductions.
//!
//! Every thread that reaches the statement making the copies gets its own,
//! on its stack (`alloca`, 16-byte aligned, in the `.local` space, addressed
//! generically): one copy per executor at every level, since the threads of
//! single-mode code run it redundantly and each partitioned executor is a
//! thread. A `Privates` scope or an `AccLoop` saves the stack pointer before
//! and restores it after (`stacksave`/`stackrestore`), so nothing grows
//! across iterations of an enclosing loop.

use accjit_ir::{Block, CopyInit, Diagnostic, PrivateCopy, Span, Type};

use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::Val;

impl<'m> FnCx<'m> {
    /// Make `copies` on this thread's stack and point their locals at them.
    pub fn make_private_copies(&mut self, copies: &[PrivateCopy], _span: Span) -> Result<(), Diagnostic> {
        for c in copies {
            let bv = self.lower_expr(c.bytes)?;
            let bty = self.ety(c.bytes);
            let bytes = self.as_i64(bv, &bty, c.span)?;
            let storage = self.alloca(&bytes);
            match c.init {
                CopyInit::Undefined => {}
                CopyInit::From(init) => {
                    let from = self.lower_expr(init)?;
                    let fty = self.ety(init);
                    let from = self.as_i64(from, &fty, c.span)?;
                    // By 8 bytes when the section and its size allow, else byte by byte.
                    let any = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("or.b64 {any}, {from}, {bytes};"));
                    self.e.line(&format!("and.b64 {any}, {any}, 7;"));
                    let p = self.e.reg(PtxTy::Pred);
                    self.e.line(&format!("setp.ne.u64 {p}, {any}, 0;"));
                    let (bytewise, done) = (self.e.label(), self.e.label());
                    self.e.line(&format!("@{p} bra {bytewise};"));
                    let words = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("shr.u64 {words}, {bytes}, 3;"));
                    for (count, w, t) in [(words.as_str(), 8, accjit_ir::Scalar::U64), (bytes.as_str(), 1, accjit_ir::Scalar::U8)] {
                        if w == 1 {
                            self.e.line(&format!("bra {done};"));
                            self.e.place(&bytewise);
                        }
                        self.each_index_reg(count, |fx, i| {
                            let (s, d) = (fx.e.reg(PtxTy::B64), fx.e.reg(PtxTy::B64));
                            fx.e.line(&format!("mad.lo.s64 {s}, {i}, {w}, {from};"));
                            fx.e.line(&format!("mad.lo.s64 {d}, {i}, {w}, {storage};"));
                            let v = fx.load_scalar(t, &s, 0);
                            fx.store_scalar(t, &v, &d, 0);
                            Ok(())
                        })?;
                    }
                    self.e.place(&done);
                }
                CopyInit::Identity(op) => {
                    let size = self.size_of(&c.elem_ty).max(1) as i64;
                    let count = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("div.s64 {count}, {bytes}, {size};"));
                    self.fill_identity(op, &c.elem_ty, &storage, &count, c.span)?;
                }
            }
            let ov = self.lower_expr(c.offset)?;
            let oty = self.ety(c.offset);
            let off = self.as_i64(ov, &oty, c.span)?;
            let biased = self.e.reg(PtxTy::B64);
            self.e.line(&format!("sub.s64 {biased}, {storage}, {off};"));
            let pty = self.f.locals.get(c.ptr.index()).map(|l| l.ty.clone()).unwrap_or(Type::ptr(Type::Void));
            let v = self.cast(Val::S(biased), &Type::I64, &pty, c.span)?;
            self.write_local(c.ptr, v, c.span)?;
            self.thread_ptrs.insert(c.ptr);
        }
        Ok(())
    }

    /// `StmtKind::Privates`: the block runs with its copies.
    pub fn lower_privates(&mut self, copies: &'m [PrivateCopy], body: &'m Block, span: Span) -> Result<(), Diagnostic> {
        let mark = self.e.reg(PtxTy::B64);
        self.e.line(&format!("stacksave.u64 {mark};"));
        self.make_private_copies(copies, span)?;
        self.lower_block(body)?;
        self.e.line(&format!("stackrestore.u64 {mark};"));
        Ok(())
    }
}

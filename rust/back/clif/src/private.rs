//! Run-time-sized private storage (`PrivateCopy`) on the multicore and host
//! devices: the one place copies are made and released, for private and
//! firstprivate subarrays and for the copies of non-scalar reductions
//! (`RedStorage::Copy`, made at an executor's start and released at its end
//! by `reduce.rs`).
//!
//! A gang runs on one pool thread and its worker and vector levels run in
//! that thread, so one copy per gang thread is one copy per executor at
//! every level. Copies come from the thread's VLA stack (`__accjit_alloca`,
//! heap chunks, 16-byte aligned): a `Privates` scope, an `AccLoop` with
//! copies, or a reduction's executor takes a stack mark, makes its copies
//! (a `memcpy` from the original section for firstprivate, the identity
//! object by object for a reduction) and releases to the mark when it ends.
//! A kernel that makes subarray copies also takes a mark at entry and
//! releases it at every return (`FnCx::prologue`), so no path leaks storage
//! across launches.

use accjit_ir::{Block, CopyInit, Diagnostic, PrivateCopy, Span, StmtKind, Type};
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_module::Module as _;

use crate::function::FnCx;
use crate::value::Val;

/// Does `b` make private copies anywhere?
pub fn makes_copies(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Privates(..) => true,
        StmtKind::AccLoop(l) => !l.private_copies.is_empty() || makes_copies(&l.body),
        StmtKind::If(_, t, e) => makes_copies(t) || makes_copies(e),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) => makes_copies(b),
        StmtKind::For { init, body, .. } => makes_copies(init) || makes_copies(body),
        StmtKind::Switch(_, cases) => cases.iter().any(|c| makes_copies(&c.body)),
        _ => false,
    })
}

impl<'m> FnCx<'_, 'm, '_> {
    /// Make `copies`; returns the stack mark that releases them.
    pub fn make_private_copies(&mut self, copies: &[PrivateCopy], span: Span) -> Result<Value, Diagnostic> {
        let mark = self.call_runtime("__accjit_stack_mark", &[], span)?;
        let mark = mark.ok_or_else(|| Diagnostic::error(span, "internal error: stack mark"))?;
        for c in copies {
            let bytes = self.lower_expr(c.bytes)?;
            let bty = self.expr(c.bytes).ty.clone();
            let bytes = self.cast_to_i64(bytes, &bty, c.span)?;
            let storage = self.call_runtime("__accjit_alloca", &[bytes], c.span)?;
            let storage = storage.ok_or_else(|| Diagnostic::error(c.span, "internal error: alloca"))?;
            match c.init {
                CopyInit::Undefined => {}
                CopyInit::From(init) => {
                    let from = self.lower_expr(init)?;
                    let fty = self.expr(init).ty.clone();
                    let from = self.cast_to_i64(from, &fty, c.span)?;
                    let cfg = self.m.jit.target_config();
                    self.b.call_memcpy(cfg, storage, from, bytes);
                }
                CopyInit::Identity(op) => {
                    // `bytes` is a whole number of objects; a negative size
                    // (allocated as 0) fills none.
                    let size = self.size_of(&c.elem_ty).max(1) as i64;
                    let count = self.b.ins().sdiv_imm_s(bytes, size);
                    self.fill_identity(op, &c.elem_ty, storage, count, c.span)?;
                }
            }
            let off = self.lower_expr(c.offset)?;
            let oty = self.expr(c.offset).ty.clone();
            let off = self.cast_to_i64(off, &oty, c.span)?;
            let biased = self.b.ins().isub(storage, off);
            let pty = self.f.locals.get(c.ptr.index()).map(|l| l.ty.clone()).unwrap_or(Type::ptr(Type::Void));
            let v = self.cast(Val::Scalar(biased), &Type::I64, &pty, c.span)?;
            self.write_local(c.ptr, v, c.span)?;
        }
        Ok(mark)
    }

    /// Release the copies made after `mark`.
    pub fn release_private_copies(&mut self, mark: Value, span: Span) -> Result<(), Diagnostic> {
        self.call_runtime("__accjit_stack_release", &[mark], span)?;
        Ok(())
    }

    /// `StmtKind::Privates`: the block runs with its copies.
    pub fn lower_privates(&mut self, copies: &'m [PrivateCopy], body: &'m Block, span: Span) -> Result<(), Diagnostic> {
        let mark = self.make_private_copies(copies, span)?;
        self.lower_block(body)?;
        self.release_private_copies(mark, span)
    }
}

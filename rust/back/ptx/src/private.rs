//! Run-time-sized private storage (`PrivateCopy`) on the GPU: private and
//! firstprivate subarrays and the copies of non-scalar reductions.
//!
//! Whose copy it is decides where it lives:
//! - a copy per thread (the executors are lanes or workers, or code that
//!   runs in every thread anyway): on the thread's stack (`alloca`, with
//!   `stacksave`/`stackrestore` around the scope) up to `STACK_COPY_BYTES`,
//!   larger ones on the device heap (`malloc`/`free`), since the stack of a
//!   GPU thread is small;
//! - a copy per gang (made where the whole block runs uniformly: a
//!   construct's `private`/`firstprivate` subarrays, a construct-level
//!   array reduction, the copies of a gang loop): one block of the device
//!   heap, allocated, filled and freed by the gang's single executor, its
//!   address shared through shared memory. Its threads then work on one
//!   copy, like a gang-shared local in shared memory (`kernel.rs`): stores
//!   in single-mode code run in the single executor, followed by a barrier.
//!
//! A heap allocation that fails prints what was asked (`vprintf`) and traps:
//! the runtime sizes the heap (`CU_LIMIT_MALLOC_HEAP_SIZE`).

use accjit_ir::{Block, CopyInit, Diagnostic, PrivateCopy, Span, Type};

use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::Val;

/// The largest private copy a thread keeps on its stack (copies of 920
/// bytes ran on the H100 with the default stack; 16 KiB and more faulted).
pub const STACK_COPY_BYTES: u32 = 1024;

/// The declarations of the device heap's functions (the driver provides them).
pub const MALLOC_DECL: &str = ".extern .func (.param .b64 rv) malloc (.param .b64 size);\n.extern .func free (.param .b64 p);\n";

/// How a private copy was allocated, for its release.
#[derive(Clone, Debug)]
pub enum Storage {
    /// The thread's own: `heap` is the predicate saying it came from `malloc`.
    Thread { base: String, heap: String },
    /// The gang's, on the heap.
    Gang { base: String },
}

impl<'m> FnCx<'m> {
    /// Make `copies` (one per thread, or one per gang when `per_gang`) and
    /// point their locals at them; returns what releases them.
    pub fn make_private_copies(&mut self, copies: &[PrivateCopy], per_gang: bool, _span: Span) -> Result<Vec<Storage>, Diagnostic> {
        let mut made = vec![];
        for c in copies {
            let bv = self.lower_expr(c.bytes)?;
            let bty = self.ety(c.bytes);
            let b0 = self.as_i64(bv, &bty, c.span)?;
            let bytes = self.e.reg(PtxTy::B64);
            self.e.line(&format!("max.s64 {bytes}, {b0}, 0;"));
            let from = match c.init {
                CopyInit::From(init) => {
                    let v = self.lower_expr(init)?;
                    let fty = self.ety(init);
                    Some(self.as_i64(v, &fty, c.span)?)
                }
                _ => None,
            };
            let ov = self.lower_expr(c.offset)?;
            let oty = self.ety(c.offset);
            let off = self.as_i64(ov, &oty, c.span)?;
            let (storage, skip) = if per_gang {
                // The single executor allocates and fills; the others wait.
                let slot = self.smem(16);
                self.e.line("bar.sync 0;");
                let skip = self.e.label();
                let xy0 = self.tid.xy0.clone();
                self.e.line(&format!("@!{xy0} bra {skip};"));
                let p = self.heap_alloc(&bytes);
                self.e.line(&format!("st.u64 [{slot}], {p};"));
                (p, Some((skip, slot)))
            } else {
                let (storage, heap) = self.thread_alloc(&bytes);
                made.push(Storage::Thread { base: storage.clone(), heap });
                (storage, None)
            };
            match c.init {
                CopyInit::Undefined => {}
                CopyInit::From(_) => {
                    let from = from.clone().unwrap_or_default();
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
            let storage = match skip {
                Some((skip, slot)) => {
                    self.e.place(&skip);
                    self.e.line("bar.sync 0;");
                    let p = self.load_scalar(accjit_ir::Scalar::U64, &slot, 0);
                    made.push(Storage::Gang { base: p.clone() });
                    self.gang_copies.insert(c.ptr);
                    p
                }
                None => {
                    self.thread_ptrs.insert(c.ptr);
                    storage
                }
            };
            let biased = self.e.reg(PtxTy::B64);
            self.e.line(&format!("sub.s64 {biased}, {storage}, {off};"));
            let pty = self.f.locals.get(c.ptr.index()).map(|l| l.ty.clone()).unwrap_or(Type::ptr(Type::Void));
            let v = self.cast(Val::S(biased), &Type::I64, &pty, c.span)?;
            self.write_local(c.ptr, v, c.span)?;
        }
        Ok(made)
    }

    /// `bytes` of this thread's own storage: the stack up to `STACK_COPY_BYTES`, the
    /// heap above; returns the address and the predicate "from the heap".
    fn thread_alloc(&mut self, bytes: &str) -> (String, String) {
        let storage = self.e.reg(PtxTy::B64);
        let heap = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.gt.s64 {heap}, {bytes}, {};", STACK_COPY_BYTES));
        let (big, done) = (self.e.label(), self.e.label());
        self.e.line(&format!("@{heap} bra {big};"));
        let s = self.alloca(bytes);
        self.e.line(&format!("mov.b64 {storage}, {s};"));
        self.e.line(&format!("bra {done};"));
        self.e.place(&big);
        let p = self.heap_alloc(bytes);
        self.e.line(&format!("mov.b64 {storage}, {p};"));
        self.e.place(&done);
        (storage, heap)
    }

    /// `malloc(bytes)` (16-byte aligned by the device heap); traps with a
    /// message when the heap is exhausted.
    pub fn heap_alloc(&mut self, bytes: &str) -> String {
        self.uses.malloc = true;
        let p = self.e.reg(PtxTy::B64);
        let n = self.e.reg(PtxTy::B64);
        self.e.line(&format!("max.s64 {n}, {bytes}, 16;"));
        self.e.line(&format!(
            "{{\n    .param .b64 a0;\n    st.param.b64 [a0], {n};\n    .param .b64 crv;\n    call (crv), malloc, (a0);\n    ld.param.b64 {p}, [crv];\n    }}"
        ));
        let ok = self.e.label();
        let z = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ne.u64 {z}, {p}, 0;"));
        self.e.line(&format!("@{z} bra {ok};"));
        self.uses.vprintf = true;
        self.uses.heap_message = true;
        let (m, g) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.e.line(&format!("mov.u64 {m}, {};", crate::HEAP_MSG));
        self.e.line(&format!("cvta.global.u64 {g}, {m};"));
        let buf = self.temp(8, 8);
        self.store_scalar(accjit_ir::Scalar::I64, &n, &buf, 0);
        let r = self.e.reg(PtxTy::B32);
        self.e.line(&format!(
            "{{\n    .param .b64 a0;\n    st.param.b64 [a0], {g};\n    .param .b64 a1;\n    st.param.b64 [a1], {buf};\n    .param .b32 crv;\n    call (crv), vprintf, (a0, a1);\n    ld.param.b32 {r}, [crv];\n    }}"
        ));
        self.e.line("trap;");
        self.e.place(&ok);
        p
    }

    /// Release what `make_private_copies` made (every thread of the scope
    /// reaches this: gang copies wait for the gang first).
    pub fn release_copies(&mut self, made: &[Storage]) {
        for s in made {
            match s {
                Storage::Thread { base, heap } => {
                    let skip = self.e.label();
                    self.e.line(&format!("@!{heap} bra {skip};"));
                    self.heap_free(base);
                    self.e.place(&skip);
                }
                Storage::Gang { base } => {
                    self.e.line("bar.sync 0;");
                    let skip = self.e.label();
                    let xy0 = self.tid.xy0.clone();
                    self.e.line(&format!("@!{xy0} bra {skip};"));
                    self.heap_free(base);
                    self.e.place(&skip);
                }
            }
        }
    }

    fn heap_free(&mut self, p: &str) {
        self.uses.malloc = true;
        self.e.line(&format!("{{\n    .param .b64 a0;\n    st.param.b64 [a0], {p};\n    call free, (a0);\n    }}"));
    }

    /// Whether copies made here are the gang's (one per block): the whole
    /// block runs this code uniformly in a kernel.
    pub fn per_gang_here(&self) -> bool {
        self.kernel.is_some() && !self.widened && !self.predicated && !self.mode.worker && !self.mode.vector
    }

    /// `StmtKind::Privates`: the block runs with its copies.
    pub fn lower_privates(&mut self, copies: &'m [PrivateCopy], body: &'m Block, span: Span) -> Result<(), Diagnostic> {
        let mark = self.e.reg(PtxTy::B64);
        self.e.line(&format!("stacksave.u64 {mark};"));
        let per_gang = self.per_gang_here();
        let made = self.make_private_copies(copies, per_gang, span)?;
        self.lower_block(body)?;
        self.release_copies(&made);
        self.e.line(&format!("stackrestore.u64 {mark};"));
        Ok(())
    }
}

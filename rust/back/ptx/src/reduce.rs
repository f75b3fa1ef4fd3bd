//! Reductions on the GPU: the translation of the IR's identities and
//! combines (`accjit_ir::reduce`, defined there once), and how partials meet.
//!
//! - Each thread's private copy starts at the identity: a scalar private is
//!   a register (or frame) local; the `count` objects of a `RedForm::Objects`
//!   reduction are per-thread stack storage (`alloca`, made like a private
//!   subarray in `private.rs`) or the place `lower` chose (`RedStorage::At`).
//! - When a loop ends, the partials of the threads its levels partitioned
//!   meet in every one of them (an all-reduce: warp shuffles, then one value
//!   per warp through shared memory; a serial pass over shared memory for
//!   block shapes that are not whole warps), so that the redundant copies of
//!   the code around the loop stay identical.
//! - The result is then combined into the target: a local of the executor
//!   (a gang's copy held by each of its threads) is updated by every thread;
//!   memory is updated once per executor with an atomic (native `atom` where
//!   PTX has the operation, a compare-and-swap loop otherwise, on the
//!   containing 32-bit word for 8- and 16-bit types). A kernel's
//!   construct-level reductions end the same way when the kernel returns:
//!   one atomic combine per gang into the target's device address, never a
//!   round trip through the host.

use accjit_ir::{BinOp, Combine, Diagnostic, ExprId, ExprKind, PrivateReduction, RedConst, RedForm, RedOp, RedStorage, Scalar, Span, Type};

use crate::expr::unsupported;
use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::{bits_ty, op_ty, reg_ty, Val};

fn undefined(op: RedOp, ty: &Type, span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("reduction '{}' is not defined on {ty:?}", op.symbol()))
}

/// The scalar leaves of an object type with their byte offsets (arrays
/// element by element, structs member by member, a union's first member).
pub fn leaves(ty: &Type, structs: &[accjit_ir::StructDef], base: u64, out: &mut Vec<(u64, Type)>) {
    match ty {
        Type::Scalar(_) | Type::Complex(_) => out.push((base, ty.clone())),
        Type::Array(e, Some(n)) => {
            let es = accjit_ir::size_of(e, structs);
            for k in 0..*n {
                leaves(e, structs, base + k * es, out);
            }
        }
        Type::Struct(id) => {
            if let Some(d) = structs.get(id.0 as usize) {
                let n = if d.is_union { 1 } else { d.fields.len() };
                for f in d.fields.iter().take(n) {
                    leaves(&f.ty, structs, base + f.offset, out);
                }
            }
        }
        _ => {}
    }
}

impl FnCx<'_> {
    /// The identity of `op` for values of the arithmetic type `ty`.
    pub fn identity(&mut self, op: RedOp, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let c = op.identity(ty).ok_or_else(|| undefined(op, ty, span))?;
        Ok(match (c, ty) {
            (RedConst::Complex(re, im), Type::Complex(s)) => Val::C(self.fconst(*s, re), self.fconst(*s, im)),
            (RedConst::Float(v), Type::Scalar(s)) => Val::S(self.fconst(*s, v)),
            (RedConst::Int(v), Type::Scalar(s)) => Val::S(self.iconst(*s, v)),
            _ => return Err(undefined(op, ty, span)),
        })
    }

    /// `a op b` for a reduction operator on scalar registers of type `s`.
    pub fn combine_scalar(&mut self, op: RedOp, a: &str, b: &str, s: Scalar, span: Span) -> Result<String, Diagnostic> {
        let ty = Type::Scalar(s);
        let c = op.combine(&ty).ok_or_else(|| undefined(op, &ty, span))?;
        Ok(match c {
            Combine::Bin(bop @ (BinOp::Add | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor)) => self.arith(bop, a, b, s, span)?,
            Combine::Bin(_) => return Err(undefined(op, &ty, span)),
            Combine::Max | Combine::Min if s.is_float() => {
                let cmp = if c == Combine::Max { "gt" } else { "lt" };
                let p = self.e.reg(PtxTy::Pred);
                self.e.line(&format!("setp.{cmp}.{} {p}, {b}, {a};", op_ty(s)));
                let r = self.sreg(s);
                self.e.line(&format!("selp.{} {r}, {b}, {a}, {p};", op_ty(s)));
                r
            }
            Combine::Max | Combine::Min => {
                let r = self.sreg(s);
                let m = if c == Combine::Max { "max" } else { "min" };
                self.e.line(&format!("{m}.{} {r}, {a}, {b};", op_ty(s)));
                r
            }
            Combine::LogAnd | Combine::LogOr => {
                let ta = self.truth01(&Val::S(a.into()), &ty, span)?;
                let tb = self.truth01(&Val::S(b.into()), &ty, span)?;
                let r = self.e.reg(PtxTy::B32);
                let ins = if c == Combine::LogAnd { "and" } else { "or" };
                self.e.line(&format!("{ins}.b32 {r}, {ta}, {tb};"));
                self.cast_scalar(&r, Scalar::I32, s)
            }
        })
    }

    /// `a op b` on values of the arithmetic type `ty` (complex: + and *).
    pub fn combine(&mut self, op: RedOp, a: &Val, b: &Val, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        match ty {
            Type::Complex(_) => {
                let Some(Combine::Bin(bop)) = op.combine(ty) else { return Err(undefined(op, ty, span)) };
                self.complex_binop(bop, a.clone(), ty, b.clone(), ty, ty, span)
            }
            Type::Scalar(s) => Ok(Val::S(self.combine_scalar(op, &a.s(span)?, &b.s(span)?, *s, span)?)),
            _ => Err(undefined(op, ty, span)),
        }
    }

    /// Whether the address `e` points into the thread's own storage: a
    /// local of its own (`&x`, `&x.m`), its private copies, or its frame,
    /// reached directly or through locals holding views of them.
    fn is_per_thread(&self, e: ExprId) -> bool {
        if self.storage_local(e).is_some_and(|l| !self.is_shared(l)) {
            return true;
        }
        let Some(root) = self.address_root(e) else { return false };
        let mut seeds = self.thread_ptrs.clone();
        seeds.extend(self.frame_locals());
        !self.is_shared(root) && self.derived(seeds).contains(&root)
    }

    /// The local whose own storage the address `e` is in (`&x`, `&x.m + 1`).
    fn storage_local(&self, e: ExprId) -> Option<accjit_ir::LocalId> {
        match &self.expr(e).kind {
            ExprKind::AddrOf(p) => self.place_local(*p),
            ExprKind::Binary(_, a, _) | ExprKind::Cast(a) => self.storage_local(*a),
            _ => None,
        }
    }

    /// The locals kept in the thread's frame (their addresses are its own).
    fn frame_locals(&self) -> std::collections::BTreeSet<accjit_ir::LocalId> {
        self.locals.iter().enumerate().filter(|(_, s)| matches!(s, crate::func::Slot::Mem(_))).map(|(i, _)| accjit_ir::LocalId(i as u32)).collect()
    }

    /// An executor's start: its private copy holds the identity.
    pub fn reduction_start(&mut self, r: &PrivateReduction, span: Span) -> Result<(), Diagnostic> {
        match &r.form {
            RedForm::Scalar => {
                let id = self.identity(r.op, &r.ty, span)?;
                let pty = self.local_ty(r.private);
                let id = self.cast(id, &r.ty, &pty, span)?;
                self.write_local(r.private, id, span)
            }
            RedForm::Objects { count, storage, .. } => {
                let target = self.lower_expr(r.target)?.s(span)?;
                let cv = self.lower_expr(*count)?;
                let cty = self.ety(*count);
                let c = self.as_i64(cv, &cty, span)?;
                let count = self.e.reg(PtxTy::B64);
                self.e.line(&format!("max.s64 {count}, {c}, 0;"));
                let copy = match storage {
                    RedStorage::At(p) => {
                        let copy = self.lower_expr(*p)?.s(span)?;
                        self.fill_identity(r.op, &r.ty, &copy, &count, span)?;
                        self.write_local(r.private, Val::S(copy.clone()), span)?;
                        copy
                    }
                    RedStorage::Copy(c) => {
                        let per_gang = self.per_gang_reductions;
                        let made = self.make_private_copies(std::slice::from_ref(c), per_gang, span)?;
                        self.live_storage.insert(r.private, made);
                        self.read_local(r.private, span)?.s(span)?
                    }
                };
                self.thread_ptrs.insert(r.private);
                self.live.insert(r.private, (target, count, copy));
                Ok(())
            }
        }
    }

    /// Store the identity of `op` in the `count` objects of type `ty` from `addr`.
    pub fn fill_identity(&mut self, op: RedOp, ty: &Type, addr: &str, count: &str, span: Span) -> Result<(), Diagnostic> {
        let size = self.size_of(ty) as i64;
        let mut ls = vec![];
        leaves(ty, &self.ir.structs, 0, &mut ls);
        self.each_index_reg(count, |fx, i| {
            let at = fx.e.reg(PtxTy::B64);
            fx.e.line(&format!("mad.lo.s64 {at}, {i}, {size}, {addr};"));
            for (off, lt) in &ls {
                let v = fx.identity(op, lt, span)?;
                let a = fx.offset(&at, *off as i64);
                fx.store_val(lt, &v, &a, span)?;
            }
            Ok(())
        })
    }

    /// An executor's end: the partials of the threads the loop partitioned
    /// over lanes (`xp`) and workers (`yp`) meet, then go into the target.
    pub fn reduction_end(&mut self, r: &PrivateReduction, xp: bool, yp: bool, span: Span) -> Result<(), Diagnostic> {
        match &r.form {
            RedForm::Scalar => {
                let part = self.read_local(r.private, span)?;
                let pty = self.local_ty(r.private);
                let part = self.cast(part, &pty, &r.ty, span)?;
                let red = self.allreduce(r.op, &r.ty, part, xp, yp, span)?;
                if self.place_local(r.target).is_some() {
                    let place = self.lower_place(r.target)?;
                    let tty = self.ety(r.target);
                    let old = self.read_place(&place, &tty);
                    let old = self.cast(old, &tty, &r.ty, span)?;
                    let new = self.combine(r.op, &old, &red, &r.ty, span)?;
                    let new = self.cast(new, &r.ty, &tty, span)?;
                    return self.write_place(&place, &tty, &new, span);
                }
                let skip = self.e.label();
                if let Some(p) = self.single_pred(self.mode).filter(|_| !self.widened && !self.predicated) {
                    self.e.line(&format!("@!{p} bra {skip};"));
                }
                let place = self.lower_place(r.target)?;
                let tty = self.ety(r.target);
                let crate::func::Place::Mem(addr) = place else { return Err(Diagnostic::error(span, "internal error: reduction target")) };
                let red = self.cast(red, &r.ty, &tty, span)?;
                self.atomic_combine(r.op, &tty, &addr, &red, span)?;
                self.e.place(&skip);
                Ok(())
            }
            RedForm::Objects { .. } => {
                let (target, count, copy) =
                    self.live.get(&r.private).cloned().ok_or_else(|| Diagnostic::error(span, "internal error: a reduction ends before it starts"))?;
                // A gang's copy (one per block): its single executor combines.
                let gang_target = self.is_gang_copy(r.target);
                let per_thread = !gang_target && self.is_per_thread(r.target);
                let size = self.size_of(&r.ty) as i64;
                let mut ls = vec![];
                leaves(&r.ty, &self.ir.structs, 0, &mut ls);
                let (op, xp2, yp2) = (r.op, xp, yp);
                let pred = self.single_pred(self.mode).filter(|_| !self.widened && !self.predicated && !per_thread);
                self.each_index_reg(&count, |fx, i| {
                    let off = fx.e.reg(PtxTy::B64);
                    fx.e.line(&format!("mul.lo.s64 {off}, {i}, {size};"));
                    let (src, dst) = (fx.e.reg(PtxTy::B64), fx.e.reg(PtxTy::B64));
                    fx.e.line(&format!("add.s64 {src}, {copy}, {off};"));
                    fx.e.line(&format!("add.s64 {dst}, {target}, {off};"));
                    for (lo, lt) in &ls {
                        let s_at = fx.offset(&src, *lo as i64);
                        let d_at = fx.offset(&dst, *lo as i64);
                        let part = fx.load_val(lt, &s_at);
                        let red = fx.allreduce(op, lt, part, xp2, yp2, span)?;
                        if per_thread {
                            let old = fx.load_val(lt, &d_at);
                            let new = fx.combine(op, &old, &red, lt, span)?;
                            fx.store_val(lt, &new, &d_at, span)?;
                        } else if gang_target {
                            let skip = fx.e.label();
                            if let Some(p) = &pred {
                                fx.e.line(&format!("@!{p} bra {skip};"));
                            }
                            let old = fx.load_val(lt, &d_at);
                            let new = fx.combine(op, &old, &red, lt, span)?;
                            fx.store_val(lt, &new, &d_at, span)?;
                            fx.e.place(&skip);
                        } else {
                            let skip = fx.e.label();
                            if let Some(p) = &pred {
                                fx.e.line(&format!("@!{p} bra {skip};"));
                            }
                            fx.atomic_combine(op, lt, &d_at, &red, span)?;
                            fx.e.place(&skip);
                        }
                    }
                    Ok(())
                })?;
                if gang_target && pred.is_some() && !self.mode.worker && !self.mode.vector {
                    self.e.line("bar.sync 0;");
                }
                if let Some(made) = self.live_storage.remove(&r.private) {
                    self.release_copies(&made);
                }
                Ok(())
            }
        }
    }

    /// Whether `e` points into a gang's private copy (`private.rs`).
    fn is_gang_copy(&self, e: ExprId) -> bool {
        let Some(root) = self.address_root(e) else { return false };
        let mut seeds = self.gang_copies.clone();
        seeds.extend(self.locals.iter().enumerate().filter(|(_, s)| matches!(s, crate::func::Slot::Shared(_))).map(|(i, _)| accjit_ir::LocalId(i as u32)));
        self.derived(seeds).contains(&root)
    }

    /// The combination of `v` over the threads of this block that differ
    /// only in their lane (`x`) and/or worker (`y`) index, in all of them.
    pub fn allreduce(&mut self, op: RedOp, ty: &Type, v: Val, x: bool, y: bool, span: Span) -> Result<Val, Diagnostic> {
        if !x && !y {
            return Ok(v);
        }
        if self.mode.worker && x && !y {
            // Workers run independently here: among this worker's lanes.
            return self.worker_allreduce(op, ty, v, span);
        }
        self.allreduce_at(op, ty, v, x, y, span)
    }

    /// [`allreduce`] in the current mode.
    fn allreduce_at(&mut self, op: RedOp, ty: &Type, v: Val, x: bool, y: bool, span: Span) -> Result<Val, Diagnostic> {
        match ty {
            Type::Complex(s) if op == RedOp::Add => {
                let (re, im) = self.complex_parts(&v, ty, span)?;
                let re = self.allreduce_scalar(op, *s, &re, x, y, span)?;
                let im = self.allreduce_scalar(op, *s, &im, x, y, span)?;
                Ok(Val::C(re, im))
            }
            Type::Complex(s) => self.allreduce_complex(op, *s, v, x, y, span),
            Type::Scalar(s) => Ok(Val::S(self.allreduce_scalar(op, *s, &v.s(span)?, x, y, span)?)),
            _ => Err(unsupported(span, format!("a '{}' reduction of {ty:?} across threads", op.symbol()))),
        }
    }

    /// A complex `*` all-reduce: warp shuffles of both parts inside
    /// worker-partitioned code, otherwise a serial pass over every thread's
    /// value in shared memory (16-byte slots).
    fn allreduce_complex(&mut self, op: RedOp, s: Scalar, v: Val, x: bool, y: bool, span: Span) -> Result<Val, Diagnostic> {
        let ty = Type::Complex(s);
        let (re, im) = self.complex_parts(&v, &ty, span)?;
        let tid = self.tid.clone();
        let buf = self.smem(1024 * 16);
        let lin = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mad.lo.u32 {lin}, {}, {}, {};", tid.y, tid.nx, tid.x));
        self.e.line("bar.sync 0;");
        let at = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.wide.u32 {at}, {lin}, 16;"));
        self.e.line(&format!("add.s64 {at}, {at}, {buf};"));
        self.store_scalar(s, &re, &at, 0);
        self.store_scalar(s, &im, &at, 8);
        self.e.line("bar.sync 0;");
        let (first, n, step) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        match (x, y) {
            (true, true) => {
                self.e.line(&format!("mov.u32 {first}, 0;"));
                self.e.line(&format!("mul.lo.u32 {n}, {}, {};", tid.nx, tid.ny));
                self.e.line(&format!("mov.u32 {step}, 1;"));
            }
            (true, false) => {
                self.e.line(&format!("mul.lo.u32 {first}, {}, {};", tid.y, tid.nx));
                self.e.line(&format!("mov.u32 {n}, {};", tid.nx));
                self.e.line(&format!("mov.u32 {step}, 1;"));
            }
            _ => {
                self.e.line(&format!("mov.u32 {first}, {};", tid.x));
                self.e.line(&format!("mov.u32 {n}, {};", tid.ny));
                self.e.line(&format!("mov.u32 {step}, {};", tid.nx));
            }
        }
        let id = self.identity(op, &ty, span)?;
        let acc = self.val_regs(&ty);
        self.move_val(&acc, &id, &ty);
        let (j, idx) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        self.e.line(&format!("mov.u32 {j}, 0;"));
        self.e.line(&format!("mov.u32 {idx}, {first};"));
        let (head, exit) = (self.e.label(), self.e.label());
        self.e.place(&head);
        let p = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.u32 {p}, {j}, {n};"));
        self.e.line(&format!("@{p} bra {exit};"));
        let a2 = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.wide.u32 {a2}, {idx}, 16;"));
        self.e.line(&format!("add.s64 {a2}, {a2}, {buf};"));
        let r = self.load_scalar(s, &a2, 0);
        let i = self.load_scalar(s, &a2, 8);
        let c = self.combine(op, &acc, &Val::C(r, i), &ty, span)?;
        self.move_val(&acc, &c, &ty);
        self.e.line(&format!("add.u32 {j}, {j}, 1;"));
        self.e.line(&format!("add.u32 {idx}, {idx}, {step};"));
        self.e.line(&format!("bra {head};"));
        self.e.place(&exit);
        Ok(acc)
    }

    /// `v` of the lane `off` away in this warp (butterfly).
    fn shfl_bfly(&mut self, v: &str, s: Scalar, off: u32) -> String {
        let other = self.sreg(s);
        match reg_ty(s) {
            PtxTy::B64 | PtxTy::F64 => {
                let (lo, hi) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
                self.e.line(&format!("mov.b64 {{{lo}, {hi}}}, {v};"));
                self.e.line(&format!("shfl.sync.bfly.b32 {lo}, {lo}, {off}, 31, -1;"));
                self.e.line(&format!("shfl.sync.bfly.b32 {hi}, {hi}, {off}, 31, -1;"));
                self.e.line(&format!("mov.b64 {other}, {{{lo}, {hi}}};"));
            }
            _ => {
                let b = self.e.reg(PtxTy::B32);
                self.e.line(&format!("mov.b32 {b}, {v};"));
                self.e.line(&format!("shfl.sync.bfly.b32 {b}, {b}, {off}, 31, -1;"));
                self.e.line(&format!("mov.b32 {other}, {b};"));
            }
        }
        other
    }

    /// `v` combined with the other lanes of its warp (butterfly; every lane gets the result).
    fn warp_reduce(&mut self, op: RedOp, s: Scalar, v: &str, span: Span) -> Result<String, Diagnostic> {
        let mut acc = v.to_string();
        for off in [16, 8, 4, 2, 1] {
            let other = self.shfl_bfly(&acc, s, off);
            acc = self.combine_scalar(op, &acc, &other, s, span)?;
        }
        Ok(acc)
    }

    fn allreduce_scalar(&mut self, op: RedOp, s: Scalar, v: &str, x: bool, y: bool, span: Span) -> Result<String, Diagnostic> {
        let tid = self.tid.clone();
        let buf = self.smem(1024 * 8);
        let out = self.sreg(s);
        let (slow, done) = (self.e.label(), self.e.label());
        // Whole warps: shuffles, then one value per warp.
        let lin = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mad.lo.u32 {lin}, {}, {}, {};", tid.y, tid.nx, tid.x));
        let nthr = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mul.lo.u32 {nthr}, {}, {};", tid.nx, tid.ny));
        let (shape, lane) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        self.e.line(&format!("and.b32 {shape}, {}, 31;", if y { nthr.clone() } else { tid.nx.clone() }));
        let p = self.e.reg(PtxTy::Pred);
        let fast = !y || x;
        if fast {
            self.e.line(&format!("setp.ne.u32 {p}, {shape}, 0;"));
            self.e.line(&format!("@{p} bra {slow};"));
            let w = self.warp_reduce(op, s, v, span)?;
            self.e.line("bar.sync 0;");
            self.e.line(&format!("and.b32 {lane}, {lin}, 31;"));
            let skip = self.e.label();
            let q = self.e.reg(PtxTy::Pred);
            self.e.line(&format!("setp.ne.u32 {q}, {lane}, 0;"));
            self.e.line(&format!("@{q} bra {skip};"));
            let widx = self.e.reg(PtxTy::B32);
            self.e.line(&format!("shr.u32 {widx}, {lin}, 5;"));
            let at = self.e.reg(PtxTy::B64);
            self.e.line(&format!("mul.wide.u32 {at}, {widx}, 8;"));
            self.e.line(&format!("add.s64 {at}, {at}, {buf};"));
            self.store_scalar(s, &w, &at, 0);
            self.e.place(&skip);
            self.e.line("bar.sync 0;");
            // The warps of this thread's group.
            let (first, n) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
            if y {
                self.e.line(&format!("mov.u32 {first}, 0;"));
                self.e.line(&format!("shr.u32 {n}, {nthr}, 5;"));
            } else {
                self.e.line(&format!("shr.u32 {n}, {}, 5;", tid.nx));
                self.e.line(&format!("mul.lo.u32 {first}, {}, {n};", tid.y));
            }
            let acc = self.fold_smem(op, s, &buf, &first, &n, "1", span)?;
            self.e.line(&format!("mov.{} {out}, {acc};", bits_ty(s)));
            self.e.line(&format!("bra {done};"));
        }
        // Any shape: every thread's value, then a serial pass over its group.
        self.e.place(&slow);
        self.e.line("bar.sync 0;");
        let at = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.wide.u32 {at}, {lin}, 8;"));
        self.e.line(&format!("add.s64 {at}, {at}, {buf};"));
        self.store_scalar(s, v, &at, 0);
        self.e.line("bar.sync 0;");
        let (first, n) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        let step = match (x, y) {
            (true, true) => {
                self.e.line(&format!("mov.u32 {first}, 0;"));
                self.e.line(&format!("mov.u32 {n}, {nthr};"));
                "1".to_string()
            }
            (true, false) => {
                self.e.line(&format!("mul.lo.u32 {first}, {}, {};", tid.y, tid.nx));
                self.e.line(&format!("mov.u32 {n}, {};", tid.nx));
                "1".to_string()
            }
            _ => {
                self.e.line(&format!("mov.u32 {first}, {};", tid.x));
                self.e.line(&format!("mov.u32 {n}, {};", tid.ny));
                tid.nx.clone()
            }
        };
        let acc = self.fold_smem(op, s, &buf, &first, &n, &step, span)?;
        self.e.line(&format!("mov.{} {out}, {acc};", bits_ty(s)));
        self.e.place(&done);
        Ok(out)
    }

    /// The combination of the `n` 8-byte slots of `buf` at `first`,
    /// `first + step`, … (in order, the same in every thread).
    #[allow(clippy::too_many_arguments)]
    fn fold_smem(&mut self, op: RedOp, s: Scalar, buf: &str, first: &str, n: &str, step: &str, span: Span) -> Result<String, Diagnostic> {
        let id = self.identity(op, &Type::Scalar(s), span)?.s(span)?;
        let acc = self.sreg(s);
        self.e.line(&format!("mov.{} {acc}, {id};", bits_ty(s)));
        let (j, idx) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        self.e.line(&format!("mov.u32 {j}, 0;"));
        self.e.line(&format!("mov.u32 {idx}, {first};"));
        let (head, exit) = (self.e.label(), self.e.label());
        self.e.place(&head);
        let p = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.u32 {p}, {j}, {n};"));
        self.e.line(&format!("@{p} bra {exit};"));
        let at = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.wide.u32 {at}, {idx}, 8;"));
        self.e.line(&format!("add.s64 {at}, {at}, {buf};"));
        let v = self.load_scalar(s, &at, 0);
        let c = self.combine_scalar(op, &acc, &v, s, span)?;
        self.e.line(&format!("mov.{} {acc}, {c};", bits_ty(s)));
        self.e.line(&format!("add.u32 {j}, {j}, 1;"));
        self.e.line(&format!("add.u32 {idx}, {idx}, {step};"));
        self.e.line(&format!("bra {head};"));
        self.e.place(&exit);
        Ok(acc)
    }

    /// `*addr = *addr op v` atomically (`ty` arithmetic).
    pub fn atomic_combine(&mut self, op: RedOp, ty: &Type, addr: &str, v: &Val, span: Span) -> Result<(), Diagnostic> {
        match ty {
            Type::Complex(s) if op == RedOp::Add => {
                let (re, im) = self.complex_parts(v, ty, span)?;
                let im_at = self.offset(addr, s.size() as i64);
                self.atomic_combine(op, &Type::Scalar(*s), addr, &Val::S(re), span)?;
                self.atomic_combine(op, &Type::Scalar(*s), &im_at, &Val::S(im), span)
            }
            Type::Scalar(s) => {
                let s = *s;
                let x = v.s(span)?;
                let aop = match op {
                    _ if s == Scalar::Bool => None,
                    RedOp::Add => Some(crate::atomic::AtomicOp::Add),
                    RedOp::Mul => Some(crate::atomic::AtomicOp::Mul),
                    RedOp::Max => Some(crate::atomic::AtomicOp::Max),
                    RedOp::Min => Some(crate::atomic::AtomicOp::Min),
                    RedOp::BitAnd => Some(crate::atomic::AtomicOp::And),
                    RedOp::BitOr => Some(crate::atomic::AtomicOp::Or),
                    RedOp::BitXor => Some(crate::atomic::AtomicOp::Xor),
                    RedOp::LogAnd | RedOp::LogOr => None,
                };
                if let Some(aop) = aop {
                    self.rmw(aop, s, addr, &x);
                    return Ok(());
                }
                self.cas_update(addr, s, span, &mut |fx, cur| fx.combine_scalar(op, cur, &x, s, span))?;
                Ok(())
            }
            Type::Complex(_) => {
                // No 128-bit compare-and-swap on sm_80: under the module's lock.
                self.locked(|fx| {
                    let old = fx.load_volatile_val(ty, addr);
                    let new = fx.combine(op, &old, v, ty, span)?;
                    fx.store_volatile_val(ty, &new, addr, span)
                })
            }
            _ => Err(unsupported(span, format!("an atomic '{}' combine of {ty:?}", op.symbol()))),
        }
    }

    /// Run `body` holding the module's global spin lock (one thread at a
    /// time in the whole grid; threads of one warp may wait for each other
    /// since sm_70's independent thread scheduling).
    pub fn locked(&mut self, body: impl FnOnce(&mut Self) -> Result<(), Diagnostic>) -> Result<(), Diagnostic> {
        self.uses.lock = true;
        let (l, g) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.e.line(&format!("mov.u64 {l}, {};", crate::LOCK));
        self.e.line(&format!("cvta.global.u64 {g}, {l};"));
        let head = self.e.label();
        self.e.place(&head);
        let (old, p) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::Pred));
        self.e.line(&format!("atom.acquire.gpu.cas.b32 {old}, [{g}], 0, 1;"));
        self.e.line(&format!("setp.ne.u32 {p}, {old}, 0;"));
        self.e.line(&format!("@{p} bra {head};"));
        body(self)?;
        let r = self.e.reg(PtxTy::B32);
        self.e.line(&format!("atom.release.gpu.exch.b32 {r}, [{g}], 0;"));
        Ok(())
    }

    fn load_volatile_val(&mut self, ty: &Type, addr: &str) -> Val {
        match ty {
            Type::Complex(s) => {
                let (a, b) = (self.sreg(*s), self.sreg(*s));
                let m = crate::value::mem_ty(*s);
                self.e.line(&format!("ld.volatile.{m} {a}, [{addr}];"));
                self.e.line(&format!("ld.volatile.{m} {b}, [{addr}+{}];", s.size()));
                Val::C(a, b)
            }
            _ => self.load_val(ty, addr),
        }
    }

    fn store_volatile_val(&mut self, ty: &Type, v: &Val, addr: &str, span: Span) -> Result<(), Diagnostic> {
        match (ty, v) {
            (Type::Complex(s), Val::C(a, b)) => {
                let m = crate::value::mem_ty(*s);
                self.e.line(&format!("st.volatile.{m} [{addr}], {a};"));
                self.e.line(&format!("st.volatile.{m} [{addr}+{}], {b};", s.size()));
                Ok(())
            }
            _ => self.store_val(ty, v, addr, span),
        }
    }

    /// `*addr = f(*addr)` atomically through a compare-and-swap loop (on the
    /// containing aligned 32-bit word for 8/16-bit types); returns the (old,
    /// new) values.
    pub fn cas_update(
        &mut self,
        addr: &str,
        s: Scalar,
        _span: Span,
        f: &mut dyn FnMut(&mut Self, &str) -> Result<String, Diagnostic>,
    ) -> Result<(String, String), Diagnostic> {
        let (old_v, new_v) = (self.sreg(s), self.sreg(s));
        let head = self.e.label();
        if s.size() >= 4 {
            let w = if s.size() == 8 { "b64" } else { "b32" };
            let wt = if s.size() == 8 { PtxTy::B64 } else { PtxTy::B32 };
            let old = self.e.reg(wt);
            self.e.line(&format!("ld.volatile.{w} {old}, [{addr}];"));
            self.e.place(&head);
            self.e.line(&format!("mov.{w} {old_v}, {old};"));
            let n = f(self, &old_v)?;
            self.e.line(&format!("mov.{} {new_v}, {n};", bits_ty(s)));
            let (nb, prev) = (self.e.reg(wt), self.e.reg(wt));
            self.e.line(&format!("mov.{w} {nb}, {new_v};"));
            self.e.line(&format!("atom.cas.{w} {prev}, [{addr}], {old}, {nb};"));
            let p = self.e.reg(PtxTy::Pred);
            self.e.line(&format!("setp.ne.{w} {p}, {prev}, {old};"));
            self.e.line(&format!("mov.{w} {old}, {prev};"));
            self.e.line(&format!("@{p} bra {head};"));
            return Ok((old_v, new_v));
        }
        // 8/16-bit: the aligned word holding the value, its shift and mask.
        let (wa, sh64) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.e.line(&format!("and.b64 {wa}, {addr}, -4;"));
        self.e.line(&format!("and.b64 {sh64}, {addr}, 3;"));
        let sh = self.e.reg(PtxTy::B32);
        self.e.line(&format!("cvt.u32.u64 {sh}, {sh64};"));
        self.e.line(&format!("shl.b32 {sh}, {sh}, 3;"));
        let bits = if s.size() == 1 { 8 } else { 16 };
        let mask = self.e.reg(PtxTy::B32);
        self.e.line(&format!("shl.b32 {mask}, {}, {sh};", (1u32 << bits) - 1));
        let old = self.e.reg(PtxTy::B32);
        self.e.line(&format!("ld.volatile.b32 {old}, [{wa}];"));
        self.e.place(&head);
        let field = self.e.reg(PtxTy::B32);
        self.e.line(&format!("shr.b32 {field}, {old}, {sh};"));
        // Only the value's own bits: the neighbours' would make a bool read as
        // true (a `&&` reduction into a 1-byte bool never became false).
        self.e.line(&format!("and.b32 {field}, {field}, {};", (1u32 << bits) - 1));
        let cur = self.cast_scalar(&field, Scalar::U32, s);
        self.e.line(&format!("mov.b32 {old_v}, {cur};"));
        let n = f(self, &old_v)?;
        self.e.line(&format!("mov.b32 {new_v}, {n};"));
        let (nf, nw, keep) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        self.e.line(&format!("shl.b32 {nf}, {new_v}, {sh};"));
        self.e.line(&format!("and.b32 {nf}, {nf}, {mask};"));
        self.e.line(&format!("not.b32 {keep}, {mask};"));
        self.e.line(&format!("and.b32 {keep}, {old}, {keep};"));
        self.e.line(&format!("or.b32 {nw}, {keep}, {nf};"));
        let prev = self.e.reg(PtxTy::B32);
        self.e.line(&format!("atom.cas.b32 {prev}, [{wa}], {old}, {nw};"));
        let p = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ne.b32 {p}, {prev}, {old};"));
        self.e.line(&format!("mov.b32 {old}, {prev};"));
        self.e.line(&format!("@{p} bra {head};"));
        Ok((old_v, new_v))
    }

    /// The value at `addr` (scalar type `s`), read atomically.
    pub fn atomic_load(&mut self, s: Scalar, addr: &str) -> String {
        let r = self.sreg(s);
        self.e.line(&format!("ld.relaxed.gpu.{} {r}, [{addr}];", crate::value::mem_ty(s)));
        r
    }

    pub fn atomic_store(&mut self, s: Scalar, v: &str, addr: &str) {
        self.e.line(&format!("st.relaxed.gpu.{} [{addr}], {v};", crate::value::mem_ty(s)));
    }
}

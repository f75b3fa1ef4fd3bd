//! Collectives of one worker's vector lanes, for code where workers run
//! independently (worker-partitioned code, and vector routines, which may be
//! called from it): a barrier, an all-reduce and a broadcast from lane 0
//! among the threads with the same `%tid.y`.
//!
//! A worker's lanes are threads `tid.y * ntid.x + [0, ntid.x)` of the block.
//! With at most 32 lanes (a power of two) they are one aligned segment of a
//! warp: warp-level sync and shuffles with the segment's member mask (and
//! shuffle offsets below the width). With more, a multiple of 32, they are
//! whole warps: named barrier `1 + tid.y` of `ntid.x` threads and the
//! worker's row of the shared scratch buffer. Other block shapes (or more
//! than 15 workers of more than 32 lanes) trap at entry rather than run
//! wrongly (`check_shape`).

use accjit_ir::{Diagnostic, RedOp, Scalar, Span, Type};

use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::{bits_ty, reg_ty, Val};

/// The shape check a function using these collectives starts with.
pub const SHAPE_CHECK: &str = "    {\n    .reg .pred %gp<4>;\n    .reg .b32 %gn<4>;\n    mov.u32 %gn1, %ntid.x;\n    mov.u32 %gn2, %ntid.y;\n    \
     // <= 32 lanes: a power of two; more: whole warps and at most 15 workers.\n    \
     add.u32 %gn3, %gn1, -1;\n    and.b32 %gn3, %gn3, %gn1;\n    setp.ne.u32 %gp1, %gn3, 0;\n    setp.le.u32 %gp2, %gn1, 32;\n    \
     and.pred %gp1, %gp1, %gp2;\n    and.b32 %gn3, %gn1, 31;\n    setp.ne.or.u32 %gp3, %gn3, 0, %gp1;\n    \
     setp.gt.and.u32 %gp3, %gn1, 32, %gp3;\n    setp.gt.u32 %gp2, %gn2, 15;\n    setp.gt.and.u32 %gp2, %gn1, 32, %gp2;\n    \
     or.pred %gp1, %gp1, %gp3;\n    or.pred %gp1, %gp1, %gp2;\n    @%gp1 trap;\n    }\n";

/// Registers describing this thread's worker segment.
struct Seg {
    /// The worker's lanes are within one warp.
    small: String,
    /// Member mask of the segment (small case).
    mask: String,
    /// Shuffle `c` operand: segment mask and clamp.
    c: String,
    /// Named barrier id (`1 + tid.y`) and its thread count (`ntid.x`).
    bar: String,
}

impl FnCx<'_> {
    fn seg(&mut self) -> Seg {
        self.uses_worker_groups = true;
        let t = self.tid.clone();
        let small = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.le.u32 {small}, {}, 32;", t.nx));
        let (lin, lane, base, mask, c, bar) =
            (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        self.e.line(&format!("mad.lo.u32 {lin}, {}, {}, {};", t.y, t.nx, t.x));
        self.e.line(&format!("and.b32 {lane}, {lin}, 31;"));
        // base = lane & ~(w - 1); mask = (w == 32) ? ~0 : ((1 << w) - 1) << base
        let w1 = self.e.reg(PtxTy::B32);
        self.e.line(&format!("add.u32 {w1}, {}, -1;", t.nx));
        self.e.line(&format!("not.b32 {base}, {w1};"));
        self.e.line(&format!("and.b32 {base}, {base}, {lane};"));
        let ones = self.e.reg(PtxTy::B32);
        self.e.line(&format!("shl.b32 {ones}, 1, {};", t.nx));
        self.e.line(&format!("add.u32 {ones}, {ones}, -1;"));
        let full = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.u32 {full}, {}, 32;", t.nx));
        self.e.line(&format!("selp.b32 {ones}, -1, {ones}, {full};"));
        self.e.line(&format!("shl.b32 {mask}, {ones}, {base};"));
        // c = ((32 - w) << 8) | 31
        let sm = self.e.reg(PtxTy::B32);
        self.e.line(&format!("sub.u32 {sm}, 32, {};", t.nx));
        self.e.line(&format!("shl.b32 {sm}, {sm}, 8;"));
        self.e.line(&format!("or.b32 {c}, {sm}, 31;"));
        self.e.line(&format!("add.u32 {bar}, {}, 1;", t.y));
        Seg { small, mask, c, bar }
    }

    /// Barrier of this worker's lanes.
    pub fn worker_sync(&mut self) {
        let s = self.seg();
        self.sync_seg(&s);
    }

    fn sync_seg(&mut self, s: &Seg) {
        let (big, done) = (self.e.label(), self.e.label());
        self.e.line(&format!("@!{} bra {big};", s.small));
        self.e.line(&format!("bar.warp.sync {};", s.mask));
        self.e.line(&format!("bra {done};"));
        self.e.place(&big);
        self.e.line(&format!("bar.sync {}, {};", s.bar, self.tid.nx));
        self.e.place(&done);
    }

    /// One 32-bit piece shuffled (`mode` bfly/idx with operand `b`) in the segment.
    fn shfl32(&mut self, mode: &str, v: &str, b: &str, s: &Seg) -> String {
        let r = self.e.reg(PtxTy::B32);
        self.e.line(&format!("shfl.sync.{mode}.b32 {r}, {v}, {b}, {}, {};", s.c, s.mask));
        r
    }

    /// A register of scalar type `sc` shuffled in the segment.
    fn shfl_val(&mut self, mode: &str, v: &str, b: &str, sc: Scalar, s: &Seg) -> String {
        let out = self.sreg(sc);
        match reg_ty(sc) {
            PtxTy::B64 | PtxTy::F64 => {
                let (lo, hi) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
                self.e.line(&format!("mov.b64 {{{lo}, {hi}}}, {v};"));
                let lo2 = self.shfl32(mode, &lo, b, s);
                let hi2 = self.shfl32(mode, &hi, b, s);
                self.e.line(&format!("mov.b64 {out}, {{{lo2}, {hi2}}};"));
            }
            _ => {
                let x = self.e.reg(PtxTy::B32);
                self.e.line(&format!("mov.b32 {x}, {v};"));
                let y = self.shfl32(mode, &x, b, s);
                self.e.line(&format!("mov.b32 {out}, {y};"));
            }
        }
        out
    }

    /// `v` combined over this worker's lanes, in every one of them.
    pub fn worker_allreduce(&mut self, op: RedOp, ty: &Type, v: Val, span: Span) -> Result<Val, Diagnostic> {
        let s = self.seg();
        let out = self.val_regs(ty);
        let (big, done) = (self.e.label(), self.e.label());
        self.e.line(&format!("@!{} bra {big};", s.small));
        // Butterfly over offsets below the width.
        let acc = self.val_regs(ty);
        self.move_val(&acc, &v, ty);
        for off in [16u32, 8, 4, 2, 1] {
            let skip = self.e.label();
            let p = self.e.reg(PtxTy::Pred);
            self.e.line(&format!("setp.ge.u32 {p}, {off}, {};", self.tid.nx));
            self.e.line(&format!("@{p} bra {skip};"));
            let other = match (&acc, ty) {
                (Val::C(a, b), Type::Complex(sc)) => {
                    let (a, b, sc) = (a.clone(), b.clone(), *sc);
                    Val::C(self.shfl_val("bfly", &a, &off.to_string(), sc, &s), self.shfl_val("bfly", &b, &off.to_string(), sc, &s))
                }
                (Val::S(a), Type::Scalar(sc)) => {
                    let (a, sc) = (a.clone(), *sc);
                    Val::S(self.shfl_val("bfly", &a, &off.to_string(), sc, &s))
                }
                _ => return Err(crate::expr::unsupported(span, format!("a reduction of {ty:?} across lanes"))),
            };
            let c = self.combine(op, &acc, &other, ty, span)?;
            self.move_val(&acc, &c, ty);
            self.e.place(&skip);
        }
        self.move_val(&out, &acc, ty);
        self.e.line(&format!("bra {done};"));
        // Whole warps: the worker's row of shared memory, in order.
        self.e.place(&big);
        let slot = if matches!(ty, Type::Complex(_)) { 16u64 } else { 8 };
        let buf = self.smem(1024 * slot);
        let t = self.tid.clone();
        let lin = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mad.lo.u32 {lin}, {}, {}, {};", t.y, t.nx, t.x));
        self.sync_seg(&s);
        let at = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.wide.u32 {at}, {lin}, {slot};"));
        self.e.line(&format!("add.s64 {at}, {at}, {buf};"));
        self.store_val(ty, &v, &at, span)?;
        self.sync_seg(&s);
        let id = self.identity(op, ty, span)?;
        let acc2 = self.val_regs(ty);
        self.move_val(&acc2, &id, ty);
        let first = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mul.lo.u32 {first}, {}, {};", t.y, t.nx));
        let n = t.nx.clone();
        let tyc = ty.clone();
        let j = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mov.u32 {j}, 0;"));
        let (head, exit) = (self.e.label(), self.e.label());
        self.e.place(&head);
        let p = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.u32 {p}, {j}, {n};"));
        self.e.line(&format!("@{p} bra {exit};"));
        let idx = self.e.reg(PtxTy::B32);
        self.e.line(&format!("add.u32 {idx}, {first}, {j};"));
        let a2 = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.wide.u32 {a2}, {idx}, {slot};"));
        self.e.line(&format!("add.s64 {a2}, {a2}, {buf};"));
        let x = self.load_val(&tyc, &a2);
        let c = self.combine(op, &acc2, &x, &tyc, span)?;
        self.move_val(&acc2, &c, &tyc);
        self.e.line(&format!("add.u32 {j}, {j}, 1;"));
        self.e.line(&format!("bra {head};"));
        self.e.place(&exit);
        self.sync_seg(&s);
        self.move_val(&out, &acc2, ty);
        self.e.place(&done);
        Ok(out)
    }

    /// Register `r` (scalar type `sc`) = lane 0's value, in this worker.
    pub fn worker_bcast0(&mut self, r: &str, sc: Scalar) {
        let s = self.seg();
        let (big, done) = (self.e.label(), self.e.label());
        self.e.line(&format!("@!{} bra {big};", s.small));
        let v = self.shfl_val("idx", r, "0", sc, &s);
        self.e.line(&format!("mov.{} {r}, {v};", bits_ty(sc)));
        self.e.line(&format!("bra {done};"));
        self.e.place(&big);
        let buf = self.smem(1024 * 8);
        let t = self.tid.clone();
        let row = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mul.lo.u32 {row}, {}, {};", t.y, t.nx));
        let at = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.wide.u32 {at}, {row}, 8;"));
        self.e.line(&format!("add.s64 {at}, {at}, {buf};"));
        self.sync_seg(&s);
        let skip = self.e.label();
        self.e.line(&format!("@!{} bra {skip};", t.x0));
        self.store_scalar(sc, r, &at, 0);
        self.e.place(&skip);
        self.sync_seg(&s);
        let v = self.load_scalar(sc, &at, 0);
        self.e.line(&format!("mov.{} {r}, {v};", bits_ty(sc)));
        self.e.place(&done);
    }
}

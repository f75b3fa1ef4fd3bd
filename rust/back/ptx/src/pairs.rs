//! Collapsed loop pairs as 2-D tiles of the block.
//!
//! A widened gang loop (`kernel.rs`) normally runs its collapsed iteration
//! space flat: the block's threads take consecutive flat indices, so a block
//! of 256 threads covers 256 consecutive elements of one row. For a pair
//! whose body holds a loop (a matrix product's `k`, a stencil's taps: long
//! iterations that read along both indices), the threads of a block are
//! better spread as a tile of `H` rows × 32 columns: a warp still covers 32
//! consecutive inner indices (coalesced), and the block's `H` warps read
//! the same inner-index columns of the other operands, which L1 then serves
//! once to all of them (matmul: each `Q[k][j..j+32]` line is used by `H`
//! rows instead of one). Tiles are handed out grid-stride, tile by tile,
//! with the tile's coordinates advanced by carries (no division per tile);
//! a thread whose element of a tile falls outside the iteration space skips
//! it.
//!
//! The tiled form needs a block of a multiple of 32 threads and an inner
//! trip count of at least 32 (else most lanes would idle); the launch shape
//! and trip counts are known only at run time, so the loop checks both and
//! otherwise runs the flat form emitted after this one.
//!
//! Measured on the H100 (naive 2048² matrix product, `bench_nvidia.py`):
//! 4.55 TFLOP/s tiled against 3.43 flat with the counted loop's addresses
//! in registers (`strength.rs`; 4.01 against 3.17 before them).
//! `ACCJIT_PTX_NO_TILES=1` turns the tiled form off.

use accjit_ir::{AccLoop, Block, Diagnostic, StmtKind};

use crate::func::FnCx;
use crate::ty::PtxTy;

/// Whether a block holds a loop of any kind.
fn has_loop(b: &Block) -> bool {
    let mut any = false;
    accjit_ir::exec::visit_stmts(b, &mut |_, s| {
        any |= matches!(s.kind, StmtKind::For { .. } | StmtKind::While(..) | StmtKind::DoWhile(..) | StmtKind::AccLoop(_));
    });
    any
}

impl<'m> FnCx<'m> {
    /// Whether loop `l` gets the tiled form: a collapsed pair of a widened
    /// gang loop (`xp`, `yp`: the block's lanes and workers run it) or of a
    /// gang vector loop (lanes only: `xp` alone), with a loop in its body
    /// (or any body with `Tuning::tile_flat_pairs`).
    pub fn tiles_pair(&self, l: &AccLoop, widen: bool, xp: bool, yp: bool) -> bool {
        let shape = widen || (l.gang && l.vector && !l.worker && xp && !yp);
        shape && l.dims.len() == 2 && (has_loop(&l.body) || self.tuning.tile_flat_pairs) && self.tuning.tiles
    }

    /// The tiled form of widened pair `l` (`trips`, `lbs`, `steps` per
    /// dimension, as i64): when the launch allows it, runs the whole loop
    /// and jumps to `exit`; otherwise falls through (to the flat form).
    /// `workers`: the block's workers share the tiles (a widened loop),
    /// else each worker runs the loop over its lanes.
    pub fn tiled_pair_loop(&mut self, l: &'m AccLoop, workers: bool, trips: &[String], lbs: &[String], steps: &[String], exit: &str) -> Result<(), Diagnostic> {
        let span = l.span;
        self.tiled_loop_pairs |= has_loop(&l.body);
        let tid = self.tid.clone();
        let flat = self.e.label();
        let (t, nt) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        if workers {
            self.e.line(&format!("mad.lo.u32 {t}, {}, {}, {};", tid.y, tid.nx, tid.x));
            self.e.line(&format!("mul.lo.u32 {nt}, {}, {};", tid.nx, tid.ny));
        } else {
            self.e.line(&format!("mov.u32 {t}, {};", tid.x));
            self.e.line(&format!("mov.u32 {nt}, {};", tid.nx));
        }
        // Tiles of W columns (a power of two): only where the block is
        // whole warps and whole rows of W, and a row of the inner
        // dimension fills min(W, 32) lanes.
        let w = self.tuning.tile_cols.clamp(8, 1024).next_power_of_two();
        let shift = w.trailing_zeros();
        let (low, p, q) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::Pred), self.e.reg(PtxTy::Pred));
        self.e.line(&format!("and.b32 {low}, {nt}, {};", w.max(32) - 1));
        self.e.line(&format!("setp.eq.u32 {p}, {low}, 0;"));
        self.e.line(&format!("setp.ge.and.s64 {q}, {}, {}, {p};", trips[1], w.min(32)));
        self.e.line(&format!("@!{q} bra {flat};"));
        // This thread's place in a tile: row ty of H, column tx of W.
        let (ty, tx, h) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        let (ty32, tx32, h32) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        self.e.line(&format!("shr.u32 {ty32}, {t}, {shift};"));
        self.e.line(&format!("and.b32 {tx32}, {t}, {};", w - 1));
        self.e.line(&format!("shr.u32 {h32}, {nt}, {shift};"));
        self.e.line(&format!("cvt.u64.u32 {ty}, {ty32};"));
        self.e.line(&format!("cvt.u64.u32 {tx}, {tx32};"));
        self.e.line(&format!("cvt.u64.u32 {h}, {h32};"));
        // Tiles along each dimension, and in all.
        let (nti, ntj, ntiles) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.e.line(&format!("add.s64 {nti}, {}, {h};", trips[0]));
        self.e.line(&format!("sub.s64 {nti}, {nti}, 1;"));
        self.e.line(&format!("div.u64 {nti}, {nti}, {h};"));
        self.e.line(&format!("add.s64 {ntj}, {}, {};", trips[1], w - 1));
        self.e.line(&format!("shr.u64 {ntj}, {ntj}, {shift};"));
        self.e.line(&format!("mul.lo.s64 {ntiles}, {nti}, {ntj};"));
        // Tiles go to the gangs grid-stride.
        let (g, gn) = self.gang_coord(l.gang_dim);
        let tile = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {tile}, {g};"));
        let p0 = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.s64 {p0}, {tile}, {ntiles};"));
        self.e.line(&format!("@{p0} bra {exit};"));
        let (ti, tj, sti, stj) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.e.line(&format!("div.u64 {ti}, {tile}, {ntj};"));
        self.e.line(&format!("rem.u64 {tj}, {tile}, {ntj};"));
        self.e.line(&format!("div.u64 {sti}, {gn}, {ntj};"));
        self.e.line(&format!("rem.u64 {stj}, {gn}, {ntj};"));
        let (head, cont) = (self.e.label(), self.e.label());
        self.e.place(&head);
        let (i, j) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.e.line(&format!("mad.lo.s64 {i}, {ti}, {h}, {ty};"));
        self.e.line(&format!("shl.b64 {j}, {tj}, {shift};"));
        self.e.line(&format!("add.s64 {j}, {j}, {tx};"));
        let (pi, pj) = (self.e.reg(PtxTy::Pred), self.e.reg(PtxTy::Pred));
        self.e.line(&format!("setp.lt.s64 {pi}, {i}, {};", trips[0]));
        self.e.line(&format!("setp.lt.and.s64 {pj}, {j}, {}, {pi};", trips[1]));
        self.e.line(&format!("@!{pj} bra {cont};"));
        for (d, x) in [i, j].iter().enumerate() {
            let v = self.e.reg(PtxTy::B64);
            self.e.line(&format!("mad.lo.s64 {v}, {x}, {}, {};", steps[d], lbs[d]));
            self.set_loop_var(l.dims[d].var, &v, span)?;
        }
        self.loops.push((exit.to_string(), Some(cont.clone())));
        let r = self.lower_block(&l.body);
        self.loops.pop();
        r?;
        self.e.place(&cont);
        self.e.line(&format!("add.s64 {tile}, {tile}, {gn};"));
        self.step_digits(&[ti, tj], &[sti, stj], &[nti, ntj]);
        let p1 = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.lt.s64 {p1}, {tile}, {ntiles};"));
        self.e.line(&format!("@{p1} bra {head};"));
        self.e.line(&format!("bra.uni {exit};"));
        self.e.place(&flat);
        Ok(())
    }
}

//! Strength reduction of loops whose iterations run in order in one thread
//! (a C `for`, a `seq` loop, the scalar loop of a partitioned one): their
//! address streams become pointer variables.
//!
//! Cranelift moves nothing out of loops here (its egraph leaves even an
//! `imul` of two parameters in the loop body), and when a body reads many
//! loop-invariant locals the register allocator spills them and reloads
//! them every iteration: the naive matmul's `k` loop recomputed `i*sp` and
//! reloaded both strides from the stack per iteration. So the back end does
//! what an induction-variable pass does: every address `p` the body
//! dereferences that is affine in the loop variable `k` — built with
//! `+ - *`, shifts by a constant and address-preserving casts from
//! constants, `k` and locals the loop never writes, as `P + (i*sp + k)` or
//! `Q + (k*sq + j)` — becomes a pointer variable: `p(k0)` before the loop,
//! advanced by `p(k0 + step) - p(k0)` after every iteration. Both are
//! computed once before the loop by the ordinary lowering of `p` (so every
//! scaling and conversion is the body's own code; Cranelift's GVN shares
//! their invariant parts). An address that does not depend on `k` is
//! computed once before the loop. The body then reads each such address
//! from its variable: one add per stream and iteration instead of the
//! multiplies, and the strides are no longer live across the loop. The
//! vectoriser does the same for the unit-stride streams of its own loop
//! (`vector`); this covers any invariant stride.
//!
//! Computing `p(k0)` and `p(k0 + step)` ahead is safe when the loop runs
//! fewer iterations: the operators accepted cannot trap, and an address is
//! only computed, never dereferenced, before its iteration. Affine means
//! exactly affine where the arithmetic wraps like addresses (64 bits) or
//! cannot wrap (signed overflow is undefined in C, and the Python and
//! Fortran front ends index in 64 bits); an unsigned 32-bit index that may
//! wrap, a truncation or a float conversion keeps the address as it is.

use accjit_ir::walk::{for_each_expr, same_expr};
use accjit_ir::{size_of, BinOp, Block, Diagnostic, ExprId, ExprKind, Function, LocalId, Scalar, Span, Stmt, StmtKind, StructDef, Type, UnOp};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_frontend::Variable;

use crate::function::{FnCx, LocalSlot};
use crate::value::Val;

/// At most this many address streams per loop: each is a register live
/// across the loop.
const MAX_STREAMS: usize = 8;

/// The streams of one loop being emitted.
pub struct Streams {
    /// Per distinct address: its variable and its advance per iteration
    /// (`None`: loop-invariant).
    vars: Vec<(Variable, Option<Bump>)>,
    /// The entries of `FnCx::streams` this loop replaced (restored at its end).
    saved: Vec<(ExprId, Option<Variable>)>,
}

/// How far a stream moves per iteration.
#[derive(Clone, Copy)]
enum Bump {
    /// A constant number of bytes.
    Const(i64),
    /// Known only at run time: held in this variable.
    Var(Variable),
    /// Not computed yet (only while the streams are being set up).
    Unknown,
}

/// How an expression depends on the loop variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dep {
    Invariant,
    /// Affine, changing by the constant (in its own units: bytes for
    /// pointers) per unit of the loop variable when known.
    Affine(Option<i64>),
}

impl Dep {
    /// The change per unit of the loop variable: 0 when invariant.
    fn coef(self) -> Option<i64> {
        match self {
            Dep::Invariant => Some(0),
            Dep::Affine(c) => c,
        }
    }
}

/// What the analysis needs to know about the function's locals.
struct Cx<'a> {
    f: &'a Function,
    structs: &'a [StructDef],
    var: LocalId,
    /// Locals written anywhere in the loop (body and condition).
    written: Vec<bool>,
    /// Locals held in SSA variables (not in memory, so no store through a
    /// pointer can change them behind the loop's back).
    ssa: Vec<bool>,
}

/// An integer type whose arithmetic on affine values stays affine: signed
/// (overflow is undefined) or 64 bits wide (wraps like addresses), or a pointer.
fn affine_arith(t: &Type) -> bool {
    t.is_ptr() || t.scalar().is_some_and(|s| s != Scalar::Bool && s.is_int() && (s.is_signed() || s.size() == 8))
}

fn int_like(t: &Type) -> bool {
    t.is_ptr() || t.scalar().is_some_and(|s| s != Scalar::Bool && s.is_int())
}

fn width(t: &Type) -> u64 {
    t.scalar().map_or(8, |s| s.size())
}

/// An integer constant, possibly converted.
pub(crate) fn const_int(f: &Function, e: ExprId) -> Option<i64> {
    match f.expr(e).kind {
        ExprKind::Int(v) => Some(v),
        ExprKind::Cast(a) if int_like(&f.expr(e).ty) => const_int(f, a),
        _ => None,
    }
}

impl Cx<'_> {
    fn local_ok(&self, l: LocalId) -> bool {
        self.ssa.get(l.index()).copied().unwrap_or(false) && (l == self.var || !self.written.get(l.index()).copied().unwrap_or(true))
    }

    /// Bytes a pointer of type `t` moves per element.
    fn elem(&self, t: &Type) -> Option<i64> {
        match t.pointee()? {
            Type::Void | Type::Func(_) => Some(1),
            p => i64::try_from(size_of(p, self.structs)).ok(),
        }
    }

    /// How `e` depends on the loop variable, if it is affine in it and can
    /// be computed ahead (no memory read but of unwritten locals, no trap).
    fn dep(&self, e: ExprId) -> Option<Dep> {
        let f = self.f;
        let x = f.expr(e);
        let affine = |c: Option<i64>, ty: &Type| affine_arith(ty).then_some(Dep::Affine(c));
        match &x.kind {
            ExprKind::Int(_) if int_like(&x.ty) => Some(Dep::Invariant),
            ExprKind::Load(p) => match f.expr(*p).kind {
                ExprKind::Local(l) if int_like(&x.ty) && self.local_ok(l) => {
                    // A pointer variable's step is in elements: no constant here.
                    Some(if l != self.var { Dep::Invariant } else { Dep::Affine((!x.ty.is_ptr()).then_some(1)) })
                }
                _ => None,
            },
            ExprKind::AddrOf(p) => match f.expr(*p).kind {
                ExprKind::Global(_) => Some(Dep::Invariant),
                // `&*q` is `q` (Fortran's arrays passed to kernels).
                ExprKind::Deref(q) => self.dep(q),
                ExprKind::Local(l) if !self.ssa.get(l.index()).copied().unwrap_or(true) => Some(Dep::Invariant),
                _ => None,
            },
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl), a, b) => {
                let (ta, tb) = (&f.expr(*a).ty, &f.expr(*b).ty);
                if !int_like(&x.ty) || !int_like(ta) || !int_like(tb) || (ta.is_ptr() && tb.is_ptr()) {
                    return None;
                }
                let (da, db) = (self.dep(*a)?, self.dep(*b)?);
                if da == Dep::Invariant && db == Dep::Invariant {
                    return Some(Dep::Invariant);
                }
                let (ca, cb) = (da.coef(), db.coef());
                let c = match op {
                    BinOp::Add | BinOp::Sub => {
                        // Pointer ± integer moves by elements.
                        let (sa, sb) = match (ta.is_ptr(), tb.is_ptr()) {
                            (true, _) => (Some(1), self.elem(ta)),
                            (_, true) => (self.elem(tb), Some(1)),
                            _ => (Some(1), Some(1)),
                        };
                        let (ca, cb) = (ca.zip(sa).and_then(|(c, s)| c.checked_mul(s)), cb.zip(sb).and_then(|(c, s)| c.checked_mul(s)));
                        match op {
                            BinOp::Add => ca.zip(cb).and_then(|(p, q)| p.checked_add(q)),
                            _ => ca.zip(cb).and_then(|(p, q)| p.checked_sub(q)),
                        }
                    }
                    BinOp::Mul => match (da, db) {
                        (Dep::Invariant, _) => const_int(f, *a).zip(cb).and_then(|(k, c)| c.checked_mul(k)),
                        (_, Dep::Invariant) => const_int(f, *b).zip(ca).and_then(|(k, c)| c.checked_mul(k)),
                        _ => return None,
                    },
                    _ => match (db, const_int(f, *b)) {
                        (Dep::Invariant, Some(n @ 0..=62)) => ca.and_then(|c| c.checked_mul(1 << n)),
                        _ => return None,
                    },
                };
                affine(c, &x.ty)
            }
            ExprKind::Unary(UnOp::Neg, a) if int_like(&x.ty) => match self.dep(*a)? {
                Dep::Invariant => Some(Dep::Invariant),
                d => affine(d.coef().and_then(|c| c.checked_neg()), &x.ty),
            },
            ExprKind::Cast(a) => {
                let from = &f.expr(*a).ty;
                if !int_like(from) || !int_like(&x.ty) {
                    return None;
                }
                let d = self.dep(*a)?;
                // An affine value keeps its form when widened from a type
                // that cannot wrap, or moved between 64-bit types.
                let keeps = width(&x.ty) >= width(from) && (width(from) == 8 || from.scalar().is_some_and(|s| s.is_signed()));
                (d == Dep::Invariant || keeps).then_some(d)
            }
            _ => None,
        }
    }
}

/// Marks in `written` every local an expression may write: any use of a
/// local as a place other than the operand of a `Load` (assignments,
/// increments, atomic targets, its address).
fn expr_writes(f: &Function, e: ExprId, written: &mut [bool]) {
    let mut loaded = Vec::new();
    for_each_expr(f, e, &mut |_, x| {
        if let ExprKind::Load(p) = x.kind {
            loaded.push(p);
        }
    });
    for_each_expr(f, e, &mut |id, x| {
        if let ExprKind::Local(l) = x.kind {
            if !loaded.contains(&id) {
                if let Some(w) = written.get_mut(l.index()) {
                    *w = true;
                }
            }
        }
    });
}

fn mark(written: &mut [bool], l: LocalId) {
    if let Some(w) = written.get_mut(l.index()) {
        *w = true;
    }
}

/// Marks the locals a block may write; false when it holds a statement that
/// rules the analysis out (a label: `goto` could enter the loop without
/// passing its set-up; directives the back end never sees in loops).
fn block_writes(f: &Function, b: &Block, written: &mut [bool]) -> bool {
    b.stmts.iter().all(|s| stmt_writes(f, s, written))
}

fn stmt_writes(f: &Function, s: &Stmt, w: &mut [bool]) -> bool {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::ZeroFill(e) => expr_writes(f, *e, w),
        StmtKind::Decl(l, init) => {
            mark(w, *l);
            if let Some(e) = init {
                expr_writes(f, *e, w);
            }
        }
        StmtKind::If(c, a, b) => {
            expr_writes(f, *c, w);
            return block_writes(f, a, w) && block_writes(f, b, w);
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            expr_writes(f, *c, w);
            return block_writes(f, b, w);
        }
        StmtKind::For { init, cond, step, body, .. } => {
            for e in cond.iter().chain(step.iter()) {
                expr_writes(f, *e, w);
            }
            return block_writes(f, init, w) && block_writes(f, body, w);
        }
        StmtKind::Switch(v, cases) => {
            expr_writes(f, *v, w);
            return cases.iter().all(|c| block_writes(f, &c.body, w));
        }
        StmtKind::Break | StmtKind::Continue => {}
        StmtKind::Return(e) => {
            if let Some(e) = e {
                expr_writes(f, *e, w);
            }
        }
        StmtKind::Block(b) => return block_writes(f, b, w),
        StmtKind::Atomic(op) => {
            use accjit_ir::AtomicOp::*;
            let es: Vec<ExprId> = match &**op {
                Read { v, x } => vec![*v, *x],
                Write { x, value } | Update { x, value, .. } => vec![*x, *value],
                Capture { v, x, value, .. } => vec![*v, *x, *value],
            };
            for e in es {
                expr_writes(f, e, w);
            }
        }
        StmtKind::AccLoop(l) => {
            for d in &l.dims {
                mark(w, d.var);
                for e in [d.lb, d.step, d.trip] {
                    expr_writes(f, e, w);
                }
            }
            for &p in &l.privates {
                mark(w, p);
            }
            for r in &l.reductions {
                mark(w, r.private);
                expr_writes(f, r.target, w);
            }
            for c in &l.private_copies {
                mark(w, c.ptr);
            }
            return block_writes(f, &l.body, w);
        }
        StmtKind::Privates(copies, b) => {
            for c in copies {
                mark(w, c.ptr);
            }
            return block_writes(f, b, w);
        }
        // Labels (a `goto` may enter the loop), gotos, launches and
        // anything lowering should have removed.
        _ => return false,
    }
    true
}

/// Every `*p` address evaluated directly by the statements of `b` (not by
/// nested loops, which strength-reduce their own), in order.
fn addresses(f: &Function, b: &Block, out: &mut Vec<ExprId>) {
    let expr = |e: ExprId, out: &mut Vec<ExprId>| {
        for_each_expr(f, e, &mut |_, x| {
            if let ExprKind::Deref(p) = x.kind {
                out.push(p);
            }
        })
    };
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::ZeroFill(e) | StmtKind::Decl(_, Some(e)) | StmtKind::Return(Some(e)) => expr(*e, out),
            StmtKind::If(c, t, e) => {
                expr(*c, out);
                addresses(f, t, out);
                addresses(f, e, out);
            }
            StmtKind::Switch(v, cases) => {
                expr(*v, out);
                for c in cases {
                    addresses(f, &c.body, out);
                }
            }
            StmtKind::Block(b) => addresses(f, b, out),
            _ => {}
        }
    }
}

/// The addresses of `body` to strength-reduce in a loop over `var` (with
/// `cond` evaluated every iteration too), grouped by structural equality:
/// each group's expressions and whether they depend on `var`. Empty when
/// the loop cannot be analysed.
fn plan(
    f: &Function,
    structs: &[StructDef],
    var: LocalId,
    body: &Block,
    cond: Option<ExprId>,
    step: Option<ExprId>,
    ssa: Vec<bool>,
) -> Vec<(Vec<ExprId>, Dep)> {
    let mut written = vec![false; f.locals.len()];
    if !block_writes(f, body, &mut written) {
        return Vec::new();
    }
    if let Some(c) = cond {
        expr_writes(f, c, &mut written);
    }
    if written.get(var.index()).copied().unwrap_or(true) || !ssa.get(var.index()).copied().unwrap_or(false) {
        return Vec::new();
    }
    // The step's amount must be the same every iteration.
    let mut step_reads_written = false;
    if let Some(st) = step {
        for_each_expr(f, st, &mut |_, x| {
            if let ExprKind::Local(l) = x.kind {
                step_reads_written |= l != var && (written.get(l.index()).copied().unwrap_or(true) || !ssa.get(l.index()).copied().unwrap_or(false));
            }
        });
    }
    if step_reads_written {
        return Vec::new();
    }
    let cx = Cx { f, structs, var, written, ssa };
    let mut found = Vec::new();
    addresses(f, body, &mut found);
    let mut groups: Vec<(Vec<ExprId>, Dep)> = Vec::new();
    for p in found {
        // A bare local or constant is already as cheap as a stream.
        if matches!(f.expr(p).kind, ExprKind::Load(_) | ExprKind::Int(_) | ExprKind::AddrOf(_)) {
            continue;
        }
        let Some(d) = cx.dep(p) else { continue };
        match groups.iter().position(|(g, _)| same_expr(f, g[0], p)) {
            Some(k) => groups[k].0.push(p),
            None if groups.len() < MAX_STREAMS => groups.push((vec![p], d)),
            None => {}
        }
    }
    groups
}

/// Whether `step` only advances one integer or pointer local by a
/// loop-invariant amount (`k++`, `k--`, `k += c`, `k -= c`, `k = k + c`):
/// that local, and the amount when it is a constant (integer locals).
pub fn step_var(f: &Function, step: ExprId) -> Option<(LocalId, Option<i64>)> {
    let local = |e: ExprId| match f.expr(e).kind {
        ExprKind::Local(l) => Some(l),
        _ => None,
    };
    let read_of = |e: ExprId, l: LocalId| matches!(f.expr(e).kind, ExprKind::Load(p) if local(p) == Some(l));
    // Integer arithmetic on locals and constants: no memory, calls or traps.
    let invariant_amount = |e: ExprId, l: LocalId| {
        let mut ok = true;
        for_each_expr(f, e, &mut |_, x| {
            ok &= match x.kind {
                ExprKind::Int(_) | ExprKind::Cast(_) | ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, ..) | ExprKind::Unary(UnOp::Neg, _) => true,
                ExprKind::Load(p) => matches!(f.expr(p).kind, ExprKind::Local(_)),
                ExprKind::Local(y) => y != l,
                _ => false,
            } && int_like(&x.ty);
        });
        ok
    };
    let (l, amount) = match &f.expr(step).kind {
        ExprKind::IncDec { place, inc, .. } => (local(*place)?, Some(if *inc { 1 } else { -1 })),
        ExprKind::CompoundAssign { op: op @ (BinOp::Add | BinOp::Sub), place, value, .. } => {
            let l = local(*place)?;
            if !invariant_amount(*value, l) {
                return None;
            }
            let c = const_int(f, *value);
            (l, if *op == BinOp::Add { c } else { c.and_then(|c| c.checked_neg()) })
        }
        ExprKind::Assign(place, v) => {
            let l = local(*place)?;
            match f.expr(*v).kind {
                ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) if read_of(a, l) && invariant_amount(b, l) => {
                    let c = const_int(f, b);
                    (l, if op == BinOp::Add { c } else { c.and_then(|c| c.checked_neg()) })
                }
                ExprKind::Binary(BinOp::Add, a, b) if read_of(b, l) && invariant_amount(a, l) => (l, const_int(f, a)),
                _ => return None,
            }
        }
        _ => return None,
    };
    let ty = &f.locals.get(l.index())?.ty;
    int_like(ty).then_some((l, amount.filter(|_| !ty.is_ptr())))
}

impl<'m> FnCx<'_, 'm, '_> {
    /// Set up the streams of a loop over `var`, which holds its first
    /// iteration's value now, whose iterations run `body` in order (and
    /// `cond`, if the loop tests one), `var` advancing by `step_const` per
    /// iteration when that is a known constant; `advance` moves `var` to
    /// the next iteration's value (the loop's `step` expression, if it has
    /// one). `None`: nothing to reduce.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start_streams(
        &mut self,
        var: LocalId,
        body: &'m Block,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        step_const: Option<i64>,
        span: Span,
        advance: &mut dyn FnMut(&mut Self) -> Result<(), Diagnostic>,
    ) -> Result<Option<Streams>, Diagnostic> {
        if !self.m.strength_reduce {
            return Ok(None);
        }
        let ssa = self.locals.iter().map(|s| matches!(s, LocalSlot::Var(_))).collect();
        let groups = plan(self.f, &self.m.ir.structs, var, body, cond, step, ssa);
        if groups.is_empty() {
            return Ok(None);
        }
        let mut starts = Vec::with_capacity(groups.len());
        for (g, _) in &groups {
            starts.push(self.address_value(g[0])?);
        }
        let mut bumps: Vec<Option<Bump>> = groups
            .iter()
            .map(|(_, d)| match (d, step_const) {
                (Dep::Invariant, _) => None,
                (Dep::Affine(Some(c)), Some(s)) => c.checked_mul(s).map(Bump::Const),
                _ => Some(Bump::Unknown),
            })
            .collect();
        if bumps.iter().any(|b| matches!(b, Some(Bump::Unknown))) {
            // Evaluate the addresses of the next iteration: the advance is
            // the difference.
            let vty = self.f.locals[var.index()].ty.clone();
            let place = self.local_place(var, span)?;
            let first = self.read_place(place, &vty);
            advance(self)?;
            for (k, (g, _)) in groups.iter().enumerate() {
                if matches!(bumps[k], Some(Bump::Unknown)) {
                    let next = self.address_value(g[0])?;
                    let bump = self.b.ins().isub(next, starts[k]);
                    // Carried through the loop header as a variable (see
                    // `bump_streams`): Cranelift would otherwise sink its
                    // computation, strides and all, into the loop.
                    let v = self.b.declare_var(types::I64);
                    self.b.def_var(v, bump);
                    bumps[k] = Some(Bump::Var(v));
                }
            }
            let place = self.local_place(var, span)?;
            self.write_place(place, &vty, first, span)?;
        }
        let mut s = Streams { vars: Vec::with_capacity(groups.len()), saved: Vec::new() };
        for (k, (g, _)) in groups.iter().enumerate() {
            let v = self.b.declare_var(types::I64);
            self.b.def_var(v, starts[k]);
            s.vars.push((v, bumps[k]));
            for &p in g {
                s.saved.push((p, self.streams.insert(p, v)));
            }
        }
        Ok(Some(s))
    }

    /// Advance every stream to the next iteration (at the loop's step).
    /// An advance held in a variable re-enters the loop as `advance + 0`
    /// (folded away after SSA construction, as the vectoriser's pointer
    /// bases are), so the header keeps it as a parameter Cranelift cannot
    /// sink.
    pub(crate) fn bump_streams(&mut self, s: &Streams) {
        for &(v, bump) in &s.vars {
            let a = self.b.use_var(v);
            let a1 = match bump {
                None => continue,
                Some(Bump::Const(c)) => self.b.ins().iadd_imm_s(a, c),
                Some(Bump::Var(d)) => {
                    let dv = self.b.use_var(d);
                    let d1 = self.b.ins().iadd_imm_s(dv, 0);
                    self.b.def_var(d, d1);
                    self.b.ins().iadd(a, dv)
                }
                Some(Bump::Unknown) => unreachable!("every unknown advance is computed in start_streams"),
            };
            self.b.def_var(v, a1);
        }
    }

    /// The loop is emitted: its addresses are computed as before again.
    pub(crate) fn end_streams(&mut self, s: Streams) {
        for (p, old) in s.saved.into_iter().rev() {
            match old {
                Some(v) => self.streams.insert(p, v),
                None => self.streams.remove(&p),
            };
        }
    }

    /// An address expression's value as an i64.
    fn address_value(&mut self, p: ExprId) -> Result<Value, Diagnostic> {
        let span = self.expr(p).span;
        let v = self.lower_expr(p)?;
        self.ptr_value(v, span)
    }

    /// The stream variable standing for address expression `e`, if a loop
    /// being emitted reduced it.
    pub(crate) fn stream_value(&mut self, e: ExprId) -> Option<Val> {
        if self.streams.is_empty() {
            return None;
        }
        let v = *self.streams.get(&e)?;
        Some(Val::Scalar(self.b.use_var(v)))
    }
}

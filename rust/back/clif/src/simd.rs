//! Whether the innermost dimension of an `AccLoop` can run as SIMD lanes, and
//! the facts the vector emitter (`vector`) needs: which locals hold one value
//! per lane, which reduction privates become vector accumulators, and how many
//! lanes one vector iteration covers.
//!
//! Cranelift does not auto-vectorise, so this is a small, conservative
//! vectoriser of its own. A loop qualifies when
//! - it is partitioned (`gang`, `worker` or `vector`): the user asserted that
//!   its iterations are independent, so lanes may run in any order; `seq`
//!   loops (no level), plain C loops and loops with a vector length of one
//!   (`vector_length(1)`, every loop of a `serial` construct) never qualify;
//! - the innermost step is the constant 1 (negative or unknown steps fall back);
//! - every statement of the body is one of: a store of a lane value through a
//!   unit-stride address (`p[i + c]`, any affine index whose coefficient of
//!   the loop variable is exactly one element), an assignment of a lane value
//!   to a local declared in the body (or private), an update of a reduction
//!   private in the operator's own form (`s += e`, `s = s * e`,
//!   `s = fmax(s, e)`, `s = e > s ? e : s`, …), or *uniform* control flow and
//!   scalar work whose values are the same in every lane (`if`/`for`/`while`
//!   on values that do not depend on the loop variable, with their own
//!   `break`/`continue`) — e.g. the `k` loop of a naive matmul vectorised over
//!   `j`;
//! - lane values are `int`/`unsigned`/`long`/`unsigned long`/`float`/`double`,
//!   computed with `+ - *` (integers also `& | ^ << >>`), float `/`, negation,
//!   the conversions the ISA does directly, comparisons feeding `?:` (whose arms
//!   read no memory the condition does not), and `fabs`/`sqrt`/`fmin`/`fmax`.
//!
//! Anything else (calls, atomics, `break` out of the loop, stores to one
//! address from every lane, gathers, integer division, narrow types) keeps the
//! scalar loop. "Uniform" values are computed once per vector iteration by the
//! ordinary scalar lowering and broadcast; "varying" ones become vectors.

use accjit_ir::walk::same_expr;
use accjit_ir::{
    size_of, AccLoop, BinOp, Block, Callee, ExprId, ExprKind, ExternFunc, Function, LocalId, RedOp, Scalar, Stmt, StmtKind, StructDef, Type, UnOp,
};

/// Native vector width in bytes (SSE/NEON registers; Cranelift's x64 back end
/// has no 256-bit vector types).
pub const VEC_BYTES: u64 = 16;
/// Groups of one vector iteration of the main vector loop: a group is one
/// register of the narrowest lane type (wider types take two), so the main
/// loop is unrolled four times (independent accumulators for reductions); a
/// one-group loop follows it for the rest.
pub const GROUPS: u32 = 4;
/// Largest body (in expressions) vectorised: the body is emitted once per
/// group and again for the one-group and scalar loops, so compile time grows
/// with it.
const MAX_BODY_EXPRS: usize = 400;

/// The math functions with a lane-wise vector form (C semantics kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathFn {
    Fabs,
    Sqrt,
    Fmax,
    Fmin,
}

/// How the innermost dimension of one `AccLoop` is vectorised.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Size in bytes of the narrowest lane type (4 or 8): a group has
    /// `VEC_BYTES / min_size` lanes.
    pub min_size: u64,
    /// The innermost loop variable.
    pub var: LocalId,
    /// Per local of the function: holds one value per lane.
    pub varying: Vec<bool>,
    /// Per expression of the function: depends on the lane (memoised
    /// during analysis; `None` for expressions not visited).
    vary: Vec<Option<bool>>,
    /// Reduction privates of the loop, accumulated in vector registers.
    pub reductions: Vec<(LocalId, RedOp, Scalar)>,
    /// Strength-reduced addresses: an expression giving the first lane's
    /// address, and the element size (its advance per iteration; a power of two).
    pub pointers: Vec<(ExprId, i64)>,
    /// Which entry of `pointers` a lane load/store address expression uses.
    pub pointer_of: std::collections::HashMap<ExprId, usize>,
    /// The body as an AVX-512 program, when `native::translate` accepts it
    /// and the CPU runs it (`Tuning::avx512`).
    pub native: Option<crate::native::NativeBody>,
}

impl Plan {
    /// Lanes of one group (one native vector of the narrowest lane type).
    pub fn group_lanes(&self) -> u32 {
        (VEC_BYTES / self.min_size) as u32
    }

    /// Whether expression `e` differs between lanes.
    pub fn varies(&self, e: ExprId) -> bool {
        self.vary.get(e.index()).copied().flatten().unwrap_or(true)
    }
}

/// The lane types: 4- and 8-byte integers and floats.
pub fn lane_scalar(s: Scalar) -> bool {
    matches!(s, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64 | Scalar::F32 | Scalar::F64)
}

/// Whether a lane value of type `from` converts to `to` lane-wise (C semantics).
pub fn cast_ok(from: Scalar, to: Scalar) -> bool {
    use Scalar::*;
    if from == to {
        return true;
    }
    matches!(
        (from, to),
        (I32 | U32, I32 | U32)
            | (I64 | U64, I64 | U64)
            | (I32 | U32, I64 | U64)
            | (I64 | U64, I32 | U32)
            | (I32, F32)
            | (I32, F64)
            | (I64, F64)
            | (F32, F64)
            | (F64, F32)
            | (F32, I32)
    )
}

/// Whether `op` on lanes of type `s` has a vector instruction.
pub fn op_ok(op: BinOp, s: Scalar) -> bool {
    if s.is_float() {
        return matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div);
    }
    matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr)
}

fn is_cmp(op: BinOp) -> bool {
    matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

/// Comparisons of lanes of type `s`: floats, signed integers.
pub fn cmp_ok(s: Scalar) -> bool {
    matches!(s, Scalar::F32 | Scalar::F64 | Scalar::I32 | Scalar::I64)
}

/// The math function an extern stands for, when it has a lane-wise form for
/// type `s` (the extern's own signature must be `s f(s[, s])`).
pub fn math_fn(ext: &ExternFunc) -> Option<(MathFn, Scalar)> {
    let (m, s, arity) = match ext.name.as_str() {
        "fabs" => (MathFn::Fabs, Scalar::F64, 1),
        "fabsf" => (MathFn::Fabs, Scalar::F32, 1),
        "sqrt" => (MathFn::Sqrt, Scalar::F64, 1),
        "sqrtf" => (MathFn::Sqrt, Scalar::F32, 1),
        "fmax" => (MathFn::Fmax, Scalar::F64, 2),
        "fmaxf" => (MathFn::Fmax, Scalar::F32, 2),
        "fmin" => (MathFn::Fmin, Scalar::F64, 2),
        "fminf" => (MathFn::Fmin, Scalar::F32, 2),
        _ => return None,
    };
    let t = Type::Scalar(s);
    (ext.sig.ret == t && !ext.sig.variadic && ext.sig.params.len() == arity && ext.sig.params.iter().all(|p| *p == t)).then_some((m, s))
}

/// Whether an expression has no side effects (calls only to pure math functions).
pub fn pure(f: &Function, externs: &[ExternFunc], e: ExprId) -> bool {
    let k = &f.expr(e).kind;
    let own = match k {
        ExprKind::Assign(..)
        | ExprKind::CompoundAssign { .. }
        | ExprKind::IncDec { .. }
        | ExprKind::CallIndirect(..)
        | ExprKind::Alloca(_)
        | ExprKind::Comma(..) => false,
        ExprKind::Call(Callee::Extern(x), _) => externs.get(x.index()).and_then(math_fn).is_some(),
        ExprKind::Call(..) => false,
        _ => true,
    };
    own && k.children().into_iter().all(|c| pure(f, externs, c))
}

/// The local a place expression names, if it is a plain local.
fn local_of(f: &Function, place: ExprId) -> Option<LocalId> {
    match f.expr(place).kind {
        ExprKind::Local(l) => Some(l),
        _ => None,
    }
}

/// Whether `e` reads local `l` (as a value or through a place).
fn reads_local(f: &Function, e: ExprId, l: LocalId) -> bool {
    match f.expr(e).kind {
        ExprKind::Local(x) => x == l,
        ref k => k.children().into_iter().any(|c| reads_local(f, c, l)),
    }
}

/// `e` is a read of local `l` (`Load(Local(l))` or the place itself).
fn is_read_of(f: &Function, e: ExprId, l: LocalId) -> bool {
    match f.expr(e).kind {
        ExprKind::Local(x) => x == l,
        ExprKind::Load(p) => local_of(f, p) == Some(l),
        _ => false,
    }
}

struct An<'a> {
    f: &'a Function,
    externs: &'a [ExternFunc],
    structs: &'a [StructDef],
    var: LocalId,
    /// Loop variables of every dimension: never written in the body.
    fixed: Vec<bool>,
    /// Declared in the body (or private to the loop): fresh per iteration.
    scoped: Vec<bool>,
    varying: Vec<bool>,
    red: Vec<Option<(RedOp, Scalar)>>,
    addr_taken: Vec<bool>,
    vary: Vec<Option<bool>>,
    /// Locals written in the body, with the value that determines them.
    writes: Vec<(LocalId, Option<ExprId>)>,
    /// Unit-stride addresses of lane loads/stores, with the element size.
    addrs: Vec<(ExprId, u64)>,
    min_size: u64,
    /// Expressions in the body (its size).
    visited: usize,
}

/// Decide whether the innermost dimension of `l` (a loop of function `f`)
/// can be vectorised, and how.
pub fn plan(f: &Function, l: &AccLoop, externs: &[ExternFunc], structs: &[StructDef]) -> Option<Plan> {
    // `vector(1)`/`vector_length(1)` (and every loop of a `serial`
    // construct, which lower marks so) asks for one lane: iterations in order.
    if !(l.gang || l.worker || l.vector) || l.vector_len == Some(1) {
        return None;
    }
    // Run-time-sized private storage is one copy per gang thread here: its
    // lanes would share it, so such a loop keeps its iterations in order.
    if !l.private_copies.is_empty() {
        return None;
    }
    let inner = l.dims.last()?;
    let unit = match f.exprs.get(inner.step.index()).map(|e| &e.kind) {
        Some(ExprKind::Int(1)) => true,
        Some(ExprKind::Cast(c)) => matches!(f.exprs.get(c.index()).map(|e| &e.kind), Some(ExprKind::Int(1))),
        _ => false,
    };
    if !unit {
        return None;
    }
    let nl = f.locals.len();
    let var = inner.var;
    let vs = f.locals.get(var.index())?.ty.scalar()?;
    if !matches!(vs, Scalar::I32 | Scalar::U32 | Scalar::I64 | Scalar::U64) {
        return None;
    }
    let mut a = An {
        f,
        externs,
        structs,
        var,
        fixed: vec![false; nl],
        scoped: vec![false; nl],
        varying: vec![false; nl],
        red: vec![None; nl],
        addr_taken: vec![false; nl],
        vary: vec![None; f.exprs.len()],
        writes: Vec::new(),
        addrs: Vec::new(),
        min_size: u64::MAX,
        visited: 0,
    };
    for d in &l.dims {
        *a.fixed.get_mut(d.var.index())? = true;
    }
    for p in &l.privates {
        *a.scoped.get_mut(p.index())? = true;
    }
    for e in &f.exprs {
        if let ExprKind::AddrOf(p) = e.kind {
            if let Some(x) = f.exprs.get(p.index()).and_then(|p| match p.kind {
                ExprKind::Local(x) => Some(x),
                _ => None,
            }) {
                if let Some(t) = a.addr_taken.get_mut(x.index()) {
                    *t = true;
                }
            }
        }
    }
    let mut reductions = Vec::new();
    for r in &l.reductions {
        if !matches!(r.form, accjit_ir::RedForm::Scalar) {
            return None;
        }
        let s = r.ty.scalar()?;
        let pty = &f.locals.get(r.private.index())?.ty;
        let op_fits = match r.op {
            RedOp::Add | RedOp::Mul => true,
            RedOp::Max | RedOp::Min => cmp_ok(s),
            RedOp::BitAnd | RedOp::BitOr | RedOp::BitXor => s.is_int(),
            RedOp::LogAnd | RedOp::LogOr => false,
        };
        if *pty != r.ty || !lane_scalar(s) || !op_fits || a.red[r.private.index()].is_some() || a.addr_taken[r.private.index()] {
            return None;
        }
        a.red[r.private.index()] = Some((r.op, s));
        a.varying[r.private.index()] = true;
        a.note(s);
        reductions.push((r.private, r.op, s));
    }
    a.collect_block(&l.body);
    if a.visited > MAX_BODY_EXPRS {
        return None;
    }
    // Which written locals vary: a fixpoint over the writes.
    loop {
        let mut changed = false;
        for i in 0..a.writes.len() {
            let (x, v) = a.writes[i];
            if !a.varying[x.index()] && v.is_some_and(|v| a.mentions(v)) {
                a.varying[x.index()] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (x, _) in a.writes.clone() {
        let i = x.index();
        if a.fixed[i] || a.addr_taken[i] || !(a.scoped[i] || a.red[i].is_some()) {
            return None;
        }
        if a.varying[i] {
            let s = f.locals[i].ty.scalar().filter(|s| lane_scalar(*s))?;
            a.note(s);
        }
    }
    if !a.block(&l.body, 0) || a.min_size == u64::MAX {
        return None;
    }
    // Addresses that only depend on the loop variable and on values the body
    // never changes advance by `lanes` elements per vector iteration:
    // computed once before the loop, then bumped (strength reduction).
    let mut written = vec![false; nl];
    for &(x, _) in &a.writes {
        written[x.index()] = true;
    }
    let mut pointers: Vec<(ExprId, i64)> = Vec::new();
    let mut pointer_of = std::collections::HashMap::new();
    for &(p, size) in &a.addrs {
        if pointer_of.contains_key(&p) || !invariant(f, p, var, &written) {
            continue;
        }
        let k = match pointers.iter().position(|&(q, _)| same_expr(f, p, q)) {
            Some(k) => k,
            None => {
                pointers.push((p, size as i64));
                pointers.len() - 1
            }
        };
        pointer_of.insert(p, k);
    }
    Some(Plan { min_size: a.min_size, var, varying: a.varying, vary: a.vary, reductions, pointers, pointer_of, native: None })
}

/// Whether `e` is computed from constants, the loop variable and locals the
/// loop body never writes, with operators that cannot trap.
fn invariant(f: &Function, e: ExprId, var: LocalId, written: &[bool]) -> bool {
    match f.expr(e).kind {
        ExprKind::Int(_) => true,
        ExprKind::Local(l) => l == var || !written.get(l.index()).copied().unwrap_or(true),
        ExprKind::Load(p) => matches!(f.expr(p).kind, ExprKind::Local(_)) && invariant(f, p, var, written),
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, a, b) => invariant(f, a, var, written) && invariant(f, b, var, written),
        ExprKind::Unary(UnOp::Neg, a) | ExprKind::Cast(a) => invariant(f, a, var, written),
        _ => false,
    }
}

impl An<'_> {
    fn note(&mut self, s: Scalar) {
        self.min_size = self.min_size.min(s.size());
    }

    fn collect_block(&mut self, b: &Block) {
        for s in &b.stmts {
            self.collect_stmt(s);
        }
    }

    fn collect_stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl(l, init) => {
                if let Some(x) = self.scoped.get_mut(l.index()) {
                    *x = true;
                }
                self.writes.push((*l, *init));
                if let Some(e) = init {
                    self.collect_expr(*e);
                }
            }
            StmtKind::Expr(e) => self.collect_expr(*e),
            StmtKind::If(c, t, e) => {
                self.collect_expr(*c);
                self.collect_block(t);
                self.collect_block(e);
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.collect_expr(*c);
                self.collect_block(b);
            }
            StmtKind::For { init, cond, step, body, .. } => {
                self.collect_block(init);
                for e in cond.iter().chain(step.iter()) {
                    self.collect_expr(*e);
                }
                self.collect_block(body);
            }
            StmtKind::Block(b) => self.collect_block(b),
            _ => {}
        }
    }

    fn collect_expr(&mut self, e: ExprId) {
        let f = self.f;
        self.visited += 1;
        match f.expr(e).kind {
            ExprKind::Assign(p, v) | ExprKind::CompoundAssign { place: p, value: v, .. } => {
                if let Some(l) = local_of(f, p) {
                    self.writes.push((l, Some(v)));
                }
            }
            ExprKind::IncDec { place, .. } => {
                if let Some(l) = local_of(f, place) {
                    self.writes.push((l, None));
                }
            }
            _ => {}
        }
        for c in f.expr(e).kind.children() {
            self.collect_expr(c);
        }
    }

    /// Whether `e` depends on the lane (reads the loop variable or a varying
    /// local, directly or through an address). Memoised.
    fn mentions(&mut self, e: ExprId) -> bool {
        if let Some(Some(v)) = self.vary.get(e.index()) {
            return *v;
        }
        let r = match self.f.expr(e).kind {
            ExprKind::Local(l) => l == self.var || self.varying.get(l.index()).copied().unwrap_or(true),
            ref k => k.children().into_iter().fold(false, |acc, c| self.mentions(c) | acc),
        };
        // Varying locals only grow during the fixpoint, so a `true` is final;
        // a `false` is re-checked once the set is complete (see `block`).
        if r {
            if let Some(v) = self.vary.get_mut(e.index()) {
                *v = Some(true);
            }
        }
        r
    }

    fn uniform(&mut self, e: ExprId) -> bool {
        let m = self.mentions(e);
        if let Some(v) = self.vary.get_mut(e.index()) {
            *v = Some(m);
        }
        !m
    }

    fn block(&mut self, b: &Block, depth: u32) -> bool {
        b.stmts.iter().all(|s| self.stmt(s, depth))
    }

    fn stmt(&mut self, s: &Stmt, depth: u32) -> bool {
        match &s.kind {
            StmtKind::Decl(l, init) => {
                let i = l.index();
                match init {
                    None => true,
                    Some(e) if self.varying[i] => self.red[i].is_none() && self.lane_value_as(*e, &self.f.locals[i].ty.clone()),
                    Some(e) => self.uniform(*e) && pure(self.f, self.externs, *e),
                }
            }
            StmtKind::Expr(e) => self.expr_stmt(*e),
            StmtKind::If(c, t, e) => self.uniform_cond(*c) && self.block(t, depth) && self.block(e, depth),
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => self.uniform_cond(*c) && self.block(b, depth + 1),
            StmtKind::For { init, cond, step, body, .. } => {
                self.block(init, depth)
                    && cond.is_none_or(|c| self.uniform_cond(c))
                    && step.is_none_or(|e| self.uniform_effect(e))
                    && self.block(body, depth + 1)
            }
            StmtKind::Break | StmtKind::Continue => depth > 0,
            StmtKind::Block(b) => self.block(b, depth),
            _ => false,
        }
    }

    fn uniform_cond(&mut self, c: ExprId) -> bool {
        self.uniform(c) && pure(self.f, self.externs, c)
    }

    /// A statement expression that only writes uniform body locals.
    fn uniform_effect(&mut self, e: ExprId) -> bool {
        let f = self.f;
        match f.expr(e).kind {
            ExprKind::Assign(p, v) | ExprKind::CompoundAssign { place: p, value: v, .. } => {
                local_of(f, p).is_some_and(|l| !self.varying[l.index()] && self.scoped[l.index()]) && self.uniform(v) && pure(f, self.externs, v)
            }
            ExprKind::IncDec { place, .. } => local_of(f, place).is_some_and(|l| !self.varying[l.index()] && self.scoped[l.index()]),
            _ => self.uniform(e) && pure(f, self.externs, e),
        }
    }

    fn expr_stmt(&mut self, e: ExprId) -> bool {
        let f = self.f;
        let ty = f.expr(e).ty.clone();
        match f.expr(e).kind.clone() {
            ExprKind::Assign(p, v) => match local_of(f, p) {
                Some(l) if self.red[l.index()].is_some() => self.reduction_update(l, v),
                Some(l) if self.varying[l.index()] => self.lane_value_as(v, &ty),
                Some(_) => self.uniform_effect(e),
                None => self.lane_store(p) && self.lane_value_as(v, &ty),
            },
            ExprKind::CompoundAssign { op, place, value, op_ty } => {
                let Some(os) = op_ty.scalar().filter(|s| lane_scalar(*s)) else {
                    return local_of(f, place).is_some_and(|l| !self.varying[l.index()]) && self.uniform_effect(e);
                };
                let target = match local_of(f, place) {
                    Some(l) if self.red[l.index()].is_some() => {
                        let (rop, _) = self.red[l.index()].unwrap_or((RedOp::Add, os));
                        let fits = updates_reduction(rop, op);
                        return fits && op_ty == ty && !reads_local(f, value, l) && self.lane_value_as(value, &op_ty);
                    }
                    Some(l) if self.varying[l.index()] => true,
                    Some(_) => return self.uniform_effect(e),
                    None => self.lane_store(place),
                };
                let ps = ty.scalar().filter(|s| lane_scalar(*s));
                target && ps.is_some_and(|ps| cast_ok(ps, os) && cast_ok(os, ps)) && self.op_fits(op, os, value) && self.lane_value_as(value, &op_ty) && {
                    self.note(os);
                    true
                }
            }
            ExprKind::IncDec { .. } => self.uniform_effect(e),
            _ => pure(f, self.externs, e) && (self.uniform(e) || self.lane_value(e).is_some()),
        }
    }

    /// `op` on lane type `s`; shifts need a uniform amount.
    fn op_fits(&mut self, op: BinOp, s: Scalar, rhs: ExprId) -> bool {
        op_ok(op, s) && (!matches!(op, BinOp::Shl | BinOp::Shr) || self.uniform(rhs))
    }

    /// `place` is `*p` with `p` advancing by exactly one element per lane.
    fn lane_store(&mut self, place: ExprId) -> bool {
        let f = self.f;
        let ExprKind::Deref(p) = f.expr(place).kind else { return false };
        let Some(s) = f.expr(place).ty.scalar().filter(|s| lane_scalar(*s)) else { return false };
        if self.coef(p) != Some(s.size() as i64) {
            return false;
        }
        self.addrs.push((p, s.size()));
        self.note(s);
        true
    }

    /// The change of `e` (in its own units: bytes for pointers) per lane, if
    /// `e` is affine in the loop variable with no other lane dependence.
    fn coef(&mut self, e: ExprId) -> Option<i64> {
        if self.uniform(e) {
            return pure(self.f, self.externs, e).then_some(0);
        }
        let f = self.f;
        let x = f.expr(e);
        let elem = |t: &Type, structs: &[StructDef]| match t {
            Type::Ptr(p) | Type::Array(p, _) => match &**p {
                Type::Void | Type::Func(_) => Some(1),
                t => Some(size_of(t, structs) as i64),
            },
            _ => None,
        };
        if let Some(l) = l_of(f, e) {
            return (l == self.var).then_some(1);
        }
        match x.kind {
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (ta, tb) = (f.expr(a).ty.clone(), f.expr(b).ty.clone());
                let (ca, cb) = (self.coef(a)?, self.coef(b)?);
                let sa = if ta.is_ptr() { 1 } else { elem(&tb, self.structs).unwrap_or(1) };
                let sb = if tb.is_ptr() { 1 } else { elem(&ta, self.structs).unwrap_or(1) };
                if ta.is_ptr() && tb.is_ptr() {
                    return None;
                }
                let (ca, cb) = (ca.checked_mul(sa)?, cb.checked_mul(sb)?);
                if op == BinOp::Add {
                    ca.checked_add(cb)
                } else {
                    ca.checked_sub(cb)
                }
            }
            ExprKind::Binary(BinOp::Mul, a, b) => {
                let k = |e: ExprId| match f.expr(e).kind {
                    ExprKind::Int(v) => Some(v),
                    ExprKind::Cast(c) => match f.expr(c).kind {
                        ExprKind::Int(v) => Some(v),
                        _ => None,
                    },
                    _ => None,
                };
                match (k(a), k(b)) {
                    (Some(c), _) => self.coef(b)?.checked_mul(c),
                    (_, Some(c)) => self.coef(a)?.checked_mul(c),
                    _ => None,
                }
            }
            ExprKind::Unary(UnOp::Neg, a) if x.ty.scalar().is_some_and(|s| s.is_int()) => self.coef(a)?.checked_neg(),
            ExprKind::Cast(a) => {
                let from = &f.expr(a).ty;
                let int_like = |t: &Type| t.is_ptr() || t.scalar().is_some_and(|s| s.is_int() && s != Scalar::Bool);
                if int_like(from) && int_like(&x.ty) {
                    self.coef(a)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// Check a lane value and that it converts to `to`.
    fn lane_value_as(&mut self, e: ExprId, to: &Type) -> bool {
        let Some(ts) = to.scalar().filter(|s| lane_scalar(*s)) else { return false };
        match self.lane_value(e) {
            Some((s, true)) => {
                self.note(ts);
                cast_ok(s, ts)
            }
            Some((_, false)) => {
                self.note(ts);
                true
            }
            None => false,
        }
    }

    /// Check that `e` can be computed for all lanes; its scalar type and
    /// whether it varies.
    fn lane_value(&mut self, e: ExprId) -> Option<(Scalar, bool)> {
        let f = self.f;
        let x = f.expr(e);
        if self.uniform(e) {
            let s = crate::abi::scalar_of(&x.ty)?;
            return pure(f, self.externs, e).then_some((s, false));
        }
        let s = x.ty.scalar().filter(|s| lane_scalar(*s))?;
        let ok = match x.kind.clone() {
            ExprKind::Local(_) | ExprKind::Load(_) | ExprKind::Deref(_) => self.lane_load(e),
            ExprKind::Binary(op, a, b) if is_cmp(op) => s.is_int() && self.lane_compare(a, b).is_some(),
            ExprKind::Binary(op, a, b) => {
                let amt_ok = !matches!(op, BinOp::Shl | BinOp::Shr) || (self.uniform(b) && f.expr(b).ty.scalar().is_some_and(|t| t.is_int()));
                amt_ok && op_ok(op, s) && self.lane_value_as(a, &x.ty) && (matches!(op, BinOp::Shl | BinOp::Shr) || self.lane_value_as(b, &x.ty))
            }
            ExprKind::Unary(UnOp::Neg, a) => self.lane_value_as(a, &x.ty),
            ExprKind::Unary(UnOp::BitNot, a) => s.is_int() && self.lane_value_as(a, &x.ty),
            ExprKind::Cast(a) => match self.lane_value(a) {
                Some((from, true)) => cast_ok(from, s),
                Some((_, false)) => true,
                None => false,
            },
            ExprKind::Cond(c, a, b) => self.lane_cond(c, a, b, &x.ty),
            ExprKind::Call(Callee::Extern(id), args) => match self.externs.get(id.index()).and_then(math_fn) {
                Some((_, ms)) if ms == s => args.iter().all(|&a| self.lane_value_as(a, &x.ty)),
                _ => false,
            },
            _ => false,
        };
        if ok {
            self.note(s);
        }
        ok.then_some((s, true))
    }

    /// A varying read: the loop variable, a varying local, or `*p` at a
    /// unit-stride address.
    fn lane_load(&mut self, e: ExprId) -> bool {
        let f = self.f;
        let place = match f.expr(e).kind {
            ExprKind::Load(p) => p,
            _ => e,
        };
        match f.expr(place).kind {
            ExprKind::Local(l) => l == self.var || (self.varying[l.index()] && self.red[l.index()].is_none()),
            ExprKind::Deref(p) => {
                let Some(s) = f.expr(place).ty.scalar().filter(|s| lane_scalar(*s)) else { return false };
                let ok = self.coef(p) == Some(s.size() as i64);
                if ok {
                    self.addrs.push((p, s.size()));
                }
                ok
            }
            _ => false,
        }
    }

    /// Operands of a comparison: their common lane type.
    fn lane_compare(&mut self, a: ExprId, b: ExprId) -> Option<Scalar> {
        let f = self.f;
        let ct = crate::arith::common_type(&f.expr(a).ty, &f.expr(b).ty);
        let cs = ct.scalar().filter(|s| lane_scalar(*s) && cmp_ok(*s))?;
        (self.lane_value_as(a, &ct) && self.lane_value_as(b, &ct)).then_some(cs)
    }

    /// `c ? a : b` per lane: both arms are computed for every lane, so they
    /// may read only memory the condition reads too.
    fn lane_cond(&mut self, c: ExprId, a: ExprId, b: ExprId, ty: &Type) -> bool {
        let f = self.f;
        let cond_ok = match f.expr(c).kind {
            ExprKind::Binary(op, x, y) if is_cmp(op) && !self.uniform(c) => self.lane_compare(x, y).is_some(),
            _ => !self.uniform(c) && matches!(self.lane_value(c), Some((s, true)) if cmp_ok(s)),
        };
        if !cond_ok {
            return false;
        }
        let mut cond_loads = Vec::new();
        derefs(f, c, &mut cond_loads);
        for arm in [a, b] {
            let mut loads = Vec::new();
            derefs(f, arm, &mut loads);
            if !loads.iter().all(|&l| cond_loads.iter().any(|&m| same_expr(f, l, m))) || !pure(f, self.externs, arm) {
                return false;
            }
            if !self.lane_value_as(arm, ty) {
                return false;
            }
        }
        true
    }

    /// `s = s op e` (or `e op s`, `fmax(s, e)`, `e > s ? e : s`, …) for
    /// reduction private `s` with its operator.
    fn reduction_update(&mut self, p: LocalId, v: ExprId) -> bool {
        let f = self.f;
        let Some((rop, s)) = self.red[p.index()] else { return false };
        let pty = f.locals[p.index()].ty.clone();
        if f.expr(v).ty != pty {
            return false;
        }
        let other = match f.expr(v).kind.clone() {
            ExprKind::Binary(op, a, b) => {
                let fits = updates_reduction(rop, op);
                if !fits || f.expr(a).ty != pty {
                    return false;
                }
                if is_read_of(f, a, p) {
                    b
                } else if is_read_of(f, b, p) && op != BinOp::Sub && f.expr(b).ty == pty {
                    a
                } else {
                    return false;
                }
            }
            ExprKind::Call(Callee::Extern(id), args) if args.len() == 2 => {
                let fits = match self.externs.get(id.index()).and_then(math_fn) {
                    Some((MathFn::Fmax, ms)) => rop == RedOp::Max && ms == s,
                    Some((MathFn::Fmin, ms)) => rop == RedOp::Min && ms == s,
                    _ => false,
                };
                if !fits {
                    return false;
                }
                if is_read_of(f, args[0], p) {
                    args[1]
                } else if is_read_of(f, args[1], p) {
                    args[0]
                } else {
                    return false;
                }
            }
            ExprKind::Cond(c, a, b) if matches!(rop, RedOp::Max | RedOp::Min) => {
                let (x, y, op) = match f.expr(c).kind {
                    ExprKind::Binary(op, x, y) if matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) => (x, y, op),
                    _ => return false,
                };
                // Normalise to "cond true picks `e`": e > s ? e : s (max).
                let e = if is_read_of(f, b, p) {
                    a
                } else if is_read_of(f, a, p) {
                    b
                } else {
                    return false;
                };
                let picks_e_when = |greater: bool| if greater { rop == RedOp::Max } else { rop == RedOp::Min };
                let ok = if is_read_of(f, y, p) && same_expr(f, x, e) {
                    // e OP s
                    let greater = matches!(op, BinOp::Gt | BinOp::Ge);
                    picks_e_when(greater) == is_read_of(f, b, p)
                } else if is_read_of(f, x, p) && same_expr(f, y, e) {
                    // s OP e
                    let greater = matches!(op, BinOp::Lt | BinOp::Le);
                    picks_e_when(greater) == is_read_of(f, b, p)
                } else {
                    false
                };
                if !ok || reads_local(f, e, p) {
                    return false;
                }
                // The comparison is made in the private's own type.
                let ct = crate::arith::common_type(&f.expr(x).ty, &f.expr(y).ty);
                return ct == pty && cmp_ok(s) && self.lane_value_as(e, &pty);
            }
            _ => return false,
        };
        !reads_local(f, other, p) && self.lane_value_as(other, &pty)
    }
}

fn l_of(f: &Function, e: ExprId) -> Option<LocalId> {
    match f.expr(e).kind {
        ExprKind::Local(l) => Some(l),
        ExprKind::Load(p) => local_of(f, p),
        _ => None,
    }
}

/// Every `*p` place read inside `e`.
fn derefs(f: &Function, e: ExprId, out: &mut Vec<ExprId>) {
    if let ExprKind::Deref(_) = f.expr(e).kind {
        out.push(e);
    }
    for c in f.expr(e).kind.children() {
        derefs(f, c, out);
    }
}

/// Whether `x = x op v` accumulates into a lane-wise reduction of `rop`
/// (lanes combine with `rop` at the end, so `-` counts as `+` of `-v`).
fn updates_reduction(rop: RedOp, op: BinOp) -> bool {
    matches!(
        (rop, op),
        (RedOp::Add, BinOp::Add | BinOp::Sub)
            | (RedOp::Mul, BinOp::Mul)
            | (RedOp::BitAnd, BinOp::BitAnd)
            | (RedOp::BitOr, BinOp::BitOr)
            | (RedOp::BitXor, BinOp::BitXor)
    )
}

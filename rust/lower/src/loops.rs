//! Acc loops inside kernel bodies → canonical [`AccLoop`]s.
//!
//! Phases, for one `for` carrying a loop directive:
//! 1. resolve the `device_type` groups for the target; `seq` stays a plain
//!    `for` whose loop variable and `private` variables are fresh locals;
//! 2. collect the `collapse(n)`/`tile(...)` nest (`collapse.rs`: n perfectly
//!    nested loops, or with `collapse(force:n)` one loop per body with code
//!    around it) and recognise each loop's canonical form
//!    `for (i = lb; i OP ub; STEP)` with OP one of `< <= > >= !=` and STEP one
//!    of `i++ ++i i-- --i i+=c i-=c i=i+c i=c+i i=i-c`; inner bounds may not
//!    use outer loop variables nor what the intervening code declares or
//!    assigns;
//! 3. compute `lb`, `step` and the trip count in i64 (constants folded,
//!    other values evaluated once into temporaries before the loop);
//! 4. decide `auto` (and a `kernels` loop without `independent`) with the
//!    dependence test (`depend.rs`): a dependent loop becomes a sequential
//!    `AccLoop` (no level: every executor of the enclosing level runs all of
//!    it), and `AccLoop::auto` records the decision and its reason;
//! 5. choose the levels: explicit gang/worker/vector as written (a gang loop
//!    may hold gang loops of lower `dim:` only, OpenACC 3.3); with no level
//!    clause the outermost partitioned loop becomes `gang` (plus `vector` when
//!    no partitioned loop is nested in it) and a loop inside a gang loop
//!    `vector`; below a vector loop, sequential;
//! 6. privatise: loop variables, `private` variables, the loop variables of
//!    plain `for` loops nested in the loop, and `reduction` variables (see
//!    `reduce.rs`).
//!
//! `tile(...)` is strip-mined into tile loops and element loops (see
//! [`tiled_loop`]); `tile(*)` uses tile size [`TILE_STAR`]. The body of an `AccLoop` sees
//! `var = (type of var)(lb + k * step)` for `k in 0..trip`; a `continue` at its
//! top level moves to the next iteration.

use crate::build::{self, const_int};
use crate::capture::{assoc_depth, collect_decls, init_var, inner_loop_vars, VarKey};
use crate::copy::{KernelBuilder, Levels, Mapped};
use accjit_ir::*;
use std::collections::HashSet;

/// The tile size chosen for `tile(*)`: 32, a warp's width on NVIDIA GPUs and
/// a few cache lines of `float`/`double` rows on a CPU.
pub const TILE_STAR: u64 = 32;

#[derive(Clone, Copy, Debug)]
enum Step {
    Const(i64),
    /// A host expression; `true`: negate it (`i -= c`, `i = i - c`).
    Expr(ExprId, bool),
}

#[derive(Clone, Debug)]
struct Canon {
    var: LocalId,
    lb: ExprId,
    ub: ExprId,
    op: BinOp,
    step: Step,
    span: Span,
}

/// An i64 value known at compile time or held in a kernel temporary.
#[derive(Clone, Copy, Debug)]
enum Val {
    Const(i64),
    Temp(LocalId),
}

fn strip_casts(f: &Function, mut e: ExprId) -> ExprId {
    while let ExprKind::Cast(inner) = &f.expr(e).kind {
        if !f.expr(e).ty.scalar().map(|s| s.is_int()).unwrap_or(false) {
            break;
        }
        e = *inner;
    }
    e
}

/// Is `e` a read of local `v` (through integer casts)?
fn is_var(f: &Function, e: ExprId, v: LocalId) -> bool {
    let e = strip_casts(f, e);
    match &f.expr(e).kind {
        ExprKind::Load(p) => matches!(f.expr(*p).kind, ExprKind::Local(l) if l == v),
        _ => false,
    }
}

fn is_place_of(f: &Function, e: ExprId, v: LocalId) -> bool {
    matches!(f.expr(e).kind, ExprKind::Local(l) if l == v)
}

/// Does `e` mention any local in `vars`?
pub fn uses_any(f: &Function, e: ExprId, vars: &[LocalId]) -> bool {
    let mut found = false;
    crate::walk::for_each_expr(f, e, &mut |_, x| {
        if let ExprKind::Local(l) = x.kind {
            if vars.contains(&l) {
                found = true;
            }
        }
    });
    found
}

fn flip(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        o => o,
    }
}

fn canon_error(span: Span, directive: Span, what: &str) -> Diagnostic {
    Diagnostic::error(span, format!("acc loop is not in canonical form: {}", what))
        .with_note(directive, "the loop directive")
        .with_hint("write `for (i = lb; i < ub; i += step)` with an integer loop variable (also <=, >, >=, !=, ++, --, -=)")
}

/// Recognise the canonical form of one `for`.
fn canon(f: &Function, init: &Block, cond: Option<ExprId>, step: Option<ExprId>, span: Span, directive: Span) -> Result<Canon, Diagnostic> {
    let (var, lb, _) = init_var(f, init).ok_or_else(|| canon_error(span, directive, "the init must be `i = lb` or `int i = lb`"))?;
    match f.local(var).ty.scalar() {
        Some(s) if s.is_int() => {}
        _ => return Err(canon_error(span, directive, "the loop variable must have integer type")),
    }
    let cond = cond.ok_or_else(|| canon_error(span, directive, "the loop has no condition"))?;
    let (op, ub) = match &f.expr(cond).kind {
        ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne), a, b) => {
            if is_var(f, *a, var) && !uses_any(f, *b, &[var]) {
                (*op, *b)
            } else if is_var(f, *b, var) && !uses_any(f, *a, &[var]) {
                (flip(*op), *a)
            } else {
                return Err(canon_error(f.expr(cond).span, directive, "the condition must compare the loop variable with a bound that does not use it"));
            }
        }
        _ => return Err(canon_error(f.expr(cond).span, directive, "the condition must be `i < ub`, `i <= ub`, `i > ub`, `i >= ub` or `i != ub`")),
    };
    let step_e = step.ok_or_else(|| canon_error(span, directive, "the loop has no increment"))?;
    let bad_step = || canon_error(f.expr(step_e).span, directive, "the increment must be `i++`, `i--`, `i += c`, `i -= c`, `i = i + c` or `i = i - c`");
    let mk = |c: ExprId, neg: bool| -> Result<Step, Diagnostic> {
        if uses_any(f, c, &[var]) {
            return Err(canon_error(f.expr(c).span, directive, "the increment may not depend on the loop variable"));
        }
        Ok(match const_int(f, strip_casts(f, c)) {
            Some(v) => Step::Const(if neg { -v } else { v }),
            None => Step::Expr(c, neg),
        })
    };
    let step = match &f.expr(step_e).kind {
        ExprKind::IncDec { place, inc, .. } if is_place_of(f, *place, var) => Step::Const(if *inc { 1 } else { -1 }),
        ExprKind::CompoundAssign { op: op @ (BinOp::Add | BinOp::Sub), place, value, .. } if is_place_of(f, *place, var) => mk(*value, *op == BinOp::Sub)?,
        ExprKind::Assign(place, value) if is_place_of(f, *place, var) => {
            let v = strip_casts(f, *value);
            match &f.expr(v).kind {
                ExprKind::Binary(BinOp::Add, a, b) if is_var(f, *a, var) => mk(*b, false)?,
                ExprKind::Binary(BinOp::Add, a, b) if is_var(f, *b, var) => mk(*a, false)?,
                ExprKind::Binary(BinOp::Sub, a, b) if is_var(f, *a, var) => mk(*b, true)?,
                _ => return Err(bad_step()),
            }
        }
        _ => return Err(bad_step()),
    };
    Ok(Canon { var, lb, ub, op, step, span })
}

/// `b` contains a `break` that would leave the loop whose body it is.
fn direct_break(b: &Block) -> Option<Span> {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Break => return Some(s.span),
            StmtKind::If(_, t, e) => {
                if let Some(sp) = direct_break(t).or_else(|| direct_break(e)) {
                    return Some(sp);
                }
            }
            StmtKind::Block(b) => {
                if let Some(sp) = direct_break(b) {
                    return Some(sp);
                }
            }
            _ => {}
        }
    }
    None
}

/// Is an acc loop that would be partitioned nested anywhere in `b`?
fn has_partitioned_loop(b: &Block, device: &str) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::For { body, acc, .. } => acc.as_ref().map(|d| !d.tuning.resolve(device).seq).unwrap_or(false) || has_partitioned_loop(body, device),
        StmtKind::If(_, t, e) => has_partitioned_loop(t, device) || has_partitioned_loop(e, device),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) => has_partitioned_loop(b, device),
        StmtKind::Switch(_, cases) => cases.iter().any(|c| has_partitioned_loop(&c.body, device)),
        _ => false,
    })
}

fn val_expr(b: &mut KernelBuilder, v: Val, span: Span) -> ExprId {
    match v {
        Val::Const(c) => build::i64c(&mut b.k, c, span),
        Val::Temp(l) => build::load_local(&mut b.k, l, span),
    }
}

/// Evaluate kernel expression `e` (converted to i64) once, before the loop.
fn materialize(b: &mut KernelBuilder, e: ExprId, name: &str, pre: &mut Vec<Stmt>, span: Span) -> Val {
    if let Some(c) = const_int(&b.k, e) {
        return Val::Const(c);
    }
    // Already one of our i64 temporaries.
    if let ExprKind::Load(p) = &b.k.expr(e).kind {
        if let ExprKind::Local(l) = b.k.expr(*p).kind {
            if b.k.local(l).name.starts_with("__acc_") && b.k.local(l).ty == Type::I64 {
                return Val::Temp(l);
            }
        }
    }
    let e = build::cast(&mut b.k, e, Type::I64, span);
    let (l, d) = build::temp(&mut b.k, name, e, span);
    pre.push(d);
    Val::Temp(l)
}

fn bin(b: &mut KernelBuilder, op: BinOp, x: ExprId, y: ExprId, span: Span) -> ExprId {
    build::binary(&mut b.k, op, x, y, Type::I64, span)
}

/// The trip count of `for (i = lb; i OP ub; i += st)`, as an i64 value.
fn trip_count(b: &mut KernelBuilder, op: BinOp, lb: Val, ub: Val, st: Val, pre: &mut Vec<Stmt>, span: Span) -> Val {
    // Normalise != to < or > when the step's sign is known.
    let op = match (op, st) {
        (BinOp::Ne, Val::Const(s)) if s > 0 => BinOp::Lt,
        (BinOp::Ne, Val::Const(s)) if s < 0 => BinOp::Gt,
        (o, _) => o,
    };
    if let (Val::Const(l), Val::Const(u), Val::Const(s)) = (lb, ub, st) {
        let (l, u, s) = (l as i128, u as i128, s as i128);
        let t = match op {
            BinOp::Lt => (u - l + s - 1).div_euclid(s),
            BinOp::Le => (u - l + s).div_euclid(s),
            BinOp::Gt => (l - u - s - 1).div_euclid(-s),
            BinOp::Ge => (l - u - s).div_euclid(-s),
            _ => (u - l) / s,
        };
        return Val::Const(t.clamp(0, i64::MAX as i128) as i64);
    }
    let e = match op {
        BinOp::Ne => {
            let (u, l, s) = (val_expr(b, ub, span), val_expr(b, lb, span), val_expr(b, st, span));
            let d = bin(b, BinOp::Sub, u, l, span);
            let q = bin(b, BinOp::Div, d, s, span);
            let q = materialize(b, q, "__acc_q", pre, span);
            let (q1, q2, z, z2) = (val_expr(b, q, span), val_expr(b, q, span), build::i64c(&mut b.k, 0, span), build::i64c(&mut b.k, 0, span));
            let c = build::cmp(&mut b.k, BinOp::Gt, q1, z, span);
            b.k.add_expr(ExprKind::Cond(c, q2, z2), Type::I64, span)
        }
        _ => {
            let up = matches!(op, BinOp::Lt | BinOp::Le);
            let inclusive = matches!(op, BinOp::Le | BinOp::Ge);
            // diff = ub - lb (+1) upward, lb - ub (+1) downward; ast = |step|
            let (hi, lo) = if up { (ub, lb) } else { (lb, ub) };
            let h = val_expr(b, hi, span);
            let diff = match lo {
                Val::Const(c) => {
                    // hi - (c - 1) for inclusive bounds, hi - c otherwise.
                    let k = c - inclusive as i64;
                    if k == 0 {
                        h
                    } else {
                        let kv = build::i64c(&mut b.k, k.abs(), span);
                        bin(b, if k > 0 { BinOp::Sub } else { BinOp::Add }, h, kv, span)
                    }
                }
                Val::Temp(_) => {
                    let l = val_expr(b, lo, span);
                    let d = bin(b, BinOp::Sub, h, l, span);
                    if inclusive {
                        let one = build::i64c(&mut b.k, 1, span);
                        bin(b, BinOp::Add, d, one, span)
                    } else {
                        d
                    }
                }
            };
            let diff = materialize(b, diff, "__acc_n", pre, span);
            let ast = match st {
                Val::Const(s) => Val::Const(s.abs()),
                Val::Temp(_) if up => st,
                Val::Temp(_) => {
                    let s = val_expr(b, st, span);
                    let n = b.k.add_expr(ExprKind::Unary(UnOp::Neg, s), Type::I64, span);
                    materialize(b, n, "__acc_astep", pre, span)
                }
            };
            let quotient = match ast {
                Val::Const(1) => val_expr(b, diff, span),
                _ => {
                    let d = val_expr(b, diff, span);
                    let a1m = match ast {
                        Val::Const(c) => build::i64c(&mut b.k, c - 1, span),
                        Val::Temp(_) => {
                            let a1 = val_expr(b, ast, span);
                            let one = build::i64c(&mut b.k, 1, span);
                            bin(b, BinOp::Sub, a1, one, span)
                        }
                    };
                    let num = bin(b, BinOp::Add, d, a1m, span);
                    let a2 = val_expr(b, ast, span);
                    bin(b, BinOp::Div, num, a2, span)
                }
            };
            let d = val_expr(b, diff, span);
            let z = build::i64c(&mut b.k, 0, span);
            let c = build::cmp(&mut b.k, BinOp::Gt, d, z, span);
            let z2 = build::i64c(&mut b.k, 0, span);
            b.k.add_expr(ExprKind::Cond(c, quotient, z2), Type::I64, span)
        }
    };
    materialize(b, e, "__acc_trip", pre, span)
}

/// Lower one `for` with a loop directive inside a kernel body.
pub fn lower_loop(b: &mut KernelBuilder, s: &Stmt, d: &LoopDirective) -> Vec<Stmt> {
    let t = d.tuning.resolve(&b.cx.opts.device_type);
    let StmtKind::For { .. } = &s.kind else { return vec![] };
    if t.seq {
        return seq_loop(b, s, d);
    }
    // The nest.
    let depth = assoc_depth(&t);
    let force = crate::capture::forced(&t);
    let nest_levels = match crate::collapse::nest(s, depth, force) {
        Ok(levels) => levels,
        Err(at) => {
            let what = if t.tile.len() >= depth {
                format!("tile({} sizes)", t.tile.len())
            } else if force {
                format!("collapse(force:{})", depth)
            } else {
                format!("collapse({})", depth)
            };
            let need = if force { "nested loops, one `for` in each loop's body" } else { "perfectly nested loops" };
            b.cx.error(Diagnostic::error(at, format!("{} needs {} {}", what, depth, need)).with_note(d.span, "the loop directive"));
            return vec![];
        }
    };
    if !t.tile.is_empty() && crate::collapse::has_intervening(&nest_levels) {
        b.cx.error(Diagnostic::error(s.span, "tile needs tightly nested loops (no statements between the loops)").with_note(d.span, "the loop directive"));
        return vec![];
    }
    let nest: Vec<&Stmt> = nest_levels.iter().map(|l| l.stmt).collect();
    let src = b.src;
    let mut canons = vec![];
    for l in &nest {
        let StmtKind::For { init, cond, step, .. } = &l.kind else { return vec![] };
        match canon(src, init, *cond, *step, l.span, d.span) {
            Ok(c) => canons.push(c),
            Err(e) => {
                b.cx.error(e);
                return vec![];
            }
        }
    }
    let vars: Vec<LocalId> = canons.iter().map(|c| c.var).collect();
    let between = crate::collapse::intervening_locals(src, &nest_levels);
    for c in canons.iter().skip(1) {
        let step_uses = matches!(c.step, Step::Expr(e, _) if uses_any(src, e, &between));
        if uses_any(src, c.lb, &between) || uses_any(src, c.ub, &between) || step_uses {
            b.cx.error(
                Diagnostic::error(c.span, "the bounds of a collapsed loop may not use a variable that the code between the loops declares or assigns")
                    .with_note(d.span, "the loop directive")
                    .with_hint("the trip counts of collapsed loops are computed once, before the loops"),
            );
            return vec![];
        }
    }
    for (i, c) in canons.iter().enumerate().skip(1) {
        let step_uses = match c.step {
            Step::Expr(e, _) => uses_any(src, e, &vars[..i]),
            Step::Const(_) => false,
        };
        if uses_any(src, c.lb, &vars[..i]) || uses_any(src, c.ub, &vars[..i]) || step_uses {
            b.cx.error(
                Diagnostic::error(c.span, "the bounds of a collapsed loop may not depend on an outer loop variable").with_note(d.span, "the loop directive"),
            );
            return vec![];
        }
    }
    let StmtKind::For { body: inner_body, .. } = &nest[nest.len() - 1].kind else { return vec![] };
    let intervening: Vec<Stmt> = nest_levels.iter().flat_map(|l| l.pre.iter().chain(&l.post)).map(|s| (*s).clone()).collect();
    if let Some(sp) = direct_break(inner_body).or_else(|| direct_break(&Block::new(intervening))) {
        b.cx.error(Diagnostic::error(sp, "`break` may not leave an acc loop").with_note(d.span, "the loop directive"));
        return vec![];
    }
    // Levels.
    let explicit = t.gang.is_some() || t.worker.is_some() || t.vector.is_some();
    let gang_dim = t.gang.as_ref().and_then(|g| g.dim).unwrap_or(1) as u8;
    if t.gang.as_ref().is_some_and(|g| g.dim.is_some()) && b.construct == ComputeKind::Kernels {
        b.error(d.span, "gang(dim:) is not allowed on a loop in a kernels construct");
        return vec![];
    }
    // `auto`, and a `kernels` loop not declared independent: the dependence
    // test decides (§2.9.7); a dependent loop runs sequentially in each executor.
    let auto = if (t.auto || b.construct == ComputeKind::Kernels) && !t.independent {
        let mut privs: HashSet<VarKey> = HashSet::new();
        for v in d.private.iter().chain(d.reductions.iter().flat_map(|r| r.vars.iter())) {
            if let Some(k) = VarKey::of_place(src, v.root) {
                privs.insert(k);
            }
        }
        let StmtKind::For { body: outer_body, .. } = &s.kind else { return vec![] };
        Some(match crate::depend::dependence(src, b.cx.module, outer_body, &vars, &privs) {
            None => AutoChoice::Parallel,
            Some(why) => AutoChoice::Sequential(why),
        })
    } else {
        None
    };
    if let (Some((rl, rdim)), true) = (b.routine, explicit) {
        if let Some(msg) = above_routine(&t, rl, rdim, gang_dim) {
            let at = match &t.gang {
                Some(g) if g.span != Span::DUMMY && msg.starts_with("a gang") => g.span,
                _ => d.span,
            };
            b.cx.error(Diagnostic::error(at, msg).with_hint("a routine's loops take its own level and the levels below it (gang > worker > vector)"));
            return vec![];
        }
    }
    if b.routine.is_some() && t.gang.is_some() && !d.reductions.is_empty() {
        b.error(
            d.reductions[0].span,
            "a reduction on a gang loop inside a `routine gang` procedure is not supported (each calling gang has its own copy of the routine's locals)",
        );
        return vec![];
    }
    let outer = Levels::enclosing(&b.loops);
    let levels = if matches!(auto, Some(AutoChoice::Sequential(_))) {
        Levels::default()
    } else if explicit {
        let lv =
            Levels { gang: t.gang.is_some(), worker: t.worker.is_some(), vector: t.vector.is_some(), gang_dim: if t.gang.is_some() { gang_dim } else { 0 } };
        // A gang loop may hold gang loops of lower dimensions (3.3 §2.9.2).
        let gang_inside_gang = lv.gang && outer.gang && gang_dim >= outer.gang_dim;
        let bad =
            (lv.gang && (outer.worker || outer.vector)) || gang_inside_gang || (lv.worker && (outer.worker || outer.vector)) || (lv.vector && outer.vector);
        if bad {
            let msg = if gang_inside_gang {
                format!(
                    "a gang(dim:{}) loop may not be nested in a gang(dim:{}) loop: nested gang loops must have decreasing dimensions",
                    gang_dim, outer.gang_dim
                )
            } else {
                "this loop's level (gang/worker/vector) must be below the levels of the loops that contain it".to_string()
            };
            // At the gang clause when the nesting of gang dimensions is at fault.
            let at = match &t.gang {
                Some(g) if gang_inside_gang && g.span != Span::DUMMY => g.span,
                _ => d.span,
            };
            b.cx.error(Diagnostic::error(at, msg).with_hint("gang loops (of decreasing dim) contain worker loops, which contain vector loops"));
            return vec![];
        }
        lv
    } else if !outer.gang && !outer.worker && !outer.vector {
        Levels { gang: true, worker: false, vector: !has_partitioned_loop(inner_body, &b.cx.opts.device_type), gang_dim: 1 }
    } else if !outer.vector {
        Levels { gang: false, worker: false, vector: true, gang_dim: 0 }
    } else {
        Levels::default()
    };
    if levels.gang && (levels.gang_dim > 1 || b.num_gangs_values > 1) && !d.reductions.is_empty() {
        let why = if levels.gang_dim > 1 {
            "a gang loop of dimension greater than 1"
        } else {
            "a gang loop in a compute construct whose num_gangs has more than one value"
        };
        b.error(d.reductions[0].span, format!("a reduction may not appear on {} (OpenACC 3.3 §2.9.11)", why));
        return vec![];
    }
    let vector_len = if levels.vector {
        match t.vector {
            Some(Some(e)) => const_int(src, e).and_then(|v| u32::try_from(v).ok()).or(b.vector_length),
            _ => b.vector_length,
        }
    } else {
        None
    };
    // Tile sizes, innermost first in the clause.
    let mut tiles: Vec<Option<u64>> = vec![None; canons.len()];
    if !t.tile.is_empty() {
        let n = t.tile.len();
        for (i, ts) in t.tile.iter().enumerate() {
            let size = match ts {
                None => TILE_STAR,
                Some(e) => match const_int(src, *e) {
                    Some(v) if v > 0 => v as u64,
                    _ => {
                        b.cx.error(Diagnostic::error(src.expr(*e).span, "a tile size must be a positive integer constant or `*`"));
                        return vec![];
                    }
                },
            };
            if let Some(slot) = tiles.get_mut(n - 1 - i) {
                *slot = Some(size);
            }
        }
    }
    // Bounds and trip counts, evaluated before the loop.
    let mut pre = vec![];
    let mut dims = vec![];
    let span = s.span;
    for (c, tile) in canons.iter().zip(&tiles) {
        let lb = b.expr(c.lb);
        let lb = build::cast(&mut b.k, lb, Type::I64, span);
        let lbv = materialize(b, lb, "__acc_lb", &mut pre, span);
        let ub = b.expr(c.ub);
        let ub = build::cast(&mut b.k, ub, Type::I64, span);
        let ubv = materialize(b, ub, "__acc_ub", &mut pre, span);
        let stv = match c.step {
            Step::Const(v) => Val::Const(v),
            Step::Expr(e, neg) => {
                let mut st = b.expr(e);
                st = build::cast(&mut b.k, st, Type::I64, span);
                if neg {
                    st = b.k.add_expr(ExprKind::Unary(UnOp::Neg, st), Type::I64, span);
                }
                materialize(b, st, "__acc_step", &mut pre, span)
            }
        };
        if let Val::Const(sv) = stv {
            let wrong = match c.op {
                BinOp::Lt | BinOp::Le => sv <= 0,
                BinOp::Gt | BinOp::Ge => sv >= 0,
                _ => sv == 0,
            };
            if wrong {
                b.cx.error(canon_error(c.span, d.span, "the increment moves the loop variable away from its bound (or is zero)"));
                return vec![];
            }
        }
        let trip = trip_count(b, c.op, lbv, ubv, stv, &mut pre, span);
        dims.push((c.var, lbv, stv, trip, *tile));
    }
    if tiles.iter().any(Option::is_some) {
        let shape = TiledShape { levels, vector_len, span, directive: d.span, auto };
        return tiled_loop(b, d, &nest_levels, inner_body, dims, shape, pre);
    }
    // Scope: loop variables, privates, reductions.
    let mark = b.env.mark();
    let mut out_dims = vec![];
    let mut bound: Vec<VarKey> = vec![];
    for (var, lbv, stv, trip, _) in dims {
        let nv = b.fresh_like(var);
        b.env.bind(VarKey::Local(var), Mapped::Local(nv));
        bound.push(VarKey::Local(var));
        let lb = val_expr(b, lbv, span);
        let step = val_expr(b, stv, span);
        let trip = val_expr(b, trip, span);
        out_dims.push(LoopDim { var: nv, lb, step, trip });
    }
    let (mut privates, private_copies) = crate::private::loop_privates(b, d, &mut bound);
    let mut body_head = vec![];
    let reductions = crate::reduce::loop_reductions(b, d, &mut bound, &mut pre, &mut body_head, &mut privates);
    privatise_inner_loop_vars(b, &nest_levels, inner_body, &mut bound, &mut privates);
    b.loops.push(levels);
    let mut body = nest_body(b, &nest_levels, inner_body, span);
    if !body_head.is_empty() {
        body_head.append(&mut body.stmts);
        body = Block::new(body_head);
    }
    b.loops.pop();
    b.env.undo(mark);
    pre.push(acc_loop_stmt(out_dims, levels, vector_len, reductions, privates, private_copies, body, d.span, auto, span));
    pre
}

/// Why an explicit loop level is above the level of the `routine` it is in
/// (OpenACC 3.3 §2.15.1: a `routine gang(dim:d)` may hold gang loops of
/// dimension d or lower, a `routine worker` worker and vector loops, a
/// `routine vector` vector loops, a `routine seq` none partitioned).
fn above_routine(t: &LoopTuning, rl: Level, rdim: u8, gang_dim: u8) -> Option<String> {
    let name = match rl {
        Level::Gang if rdim > 1 => format!("routine gang(dim:{})", rdim),
        Level::Gang => "routine gang".to_string(),
        Level::Worker => "routine worker".to_string(),
        Level::Vector => "routine vector".to_string(),
        Level::Seq => "routine seq".to_string(),
    };
    if t.gang.is_some() && rl != Level::Gang {
        return Some(format!("a gang loop may not appear in a `{}` procedure", name));
    }
    if t.gang.is_some() && gang_dim > rdim.max(1) {
        return Some(format!("a gang(dim:{}) loop may not appear in a `{}` procedure", gang_dim, name));
    }
    if t.worker.is_some() && rl > Level::Worker {
        return Some(format!("a worker loop may not appear in a `{}` procedure", name));
    }
    if t.vector.is_some() && rl == Level::Seq {
        return Some(format!("a vector loop may not appear in a `{}` procedure", name));
    }
    None
}

/// Where a tiled nest's loops go and what they carry.
struct TiledShape {
    /// The levels the nest takes as a whole.
    levels: Levels,
    vector_len: Option<u32>,
    span: Span,
    directive: Span,
    /// The `auto` decision, recorded on both loops.
    auto: Option<AutoChoice>,
}

/// The levels of the tile loops and of the element loops of a nest that
/// takes `l` as a whole (OpenACC 3.3 §2.9.8): `gang` goes to the tile loops,
/// `vector` to the element loops, `worker` to the element loops when there is
/// no `vector` and to the tile loops otherwise. A sequential nest stays
/// sequential in both.
fn split_tiled_levels(l: Levels) -> (Levels, Levels) {
    let tile = Levels { gang: l.gang, worker: l.worker && l.vector, vector: false, gang_dim: if l.gang { l.gang_dim } else { 0 } };
    let element = Levels { gang: false, worker: l.worker && !l.vector, vector: l.vector, gang_dim: 0 };
    (tile, element)
}

fn partitioned(l: Levels) -> bool {
    l.gang || l.worker || l.vector
}

/// `tile(...)` strip-mined: for each dimension `for (i = lb; ...; i += st)`
/// of `trip` iterations and tile size `T`, a tile loop
/// `t in 0..ceil(trip/T)` (all tile loops collapsed into one outer
/// `AccLoop`) and an element loop `i = lb + t*T*st step st` of
/// `min(T, trip - t*T)` iterations (all element loops collapsed into one
/// inner `AccLoop`), so partial tiles at the edges run only their
/// iterations and back ends see plain loops. A dimension without a size
/// (a `collapse` deeper than the `tile` list) is an element loop over its
/// whole range. Reductions are taken by each loop of the two that is
/// partitioned (the element loop's reduction combines into the tile loop's
/// private copy, as for nested loops that both name the reduction); private
/// variables, and the loop variables of plain loops in the body, belong to
/// the element loop, whose executors run the body.
fn tiled_loop(
    b: &mut KernelBuilder,
    d: &LoopDirective,
    nest_levels: &[crate::collapse::NestLevel],
    inner_body: &Block,
    dims: Vec<(LocalId, Val, Val, Val, Option<u64>)>,
    shape: TiledShape,
    mut pre: Vec<Stmt>,
) -> Vec<Stmt> {
    let span = shape.span;
    let (tile_levels, element_levels) = split_tiled_levels(shape.levels);
    let auto = shape.auto.clone();
    let mark = b.env.mark();
    let mut bound: Vec<VarKey> = vec![];
    // The tile loops.
    let mut tile_dims = vec![];
    let mut tile_vars: Vec<Option<LocalId>> = vec![];
    for (_, _, _, trip, size) in &dims {
        let Some(size) = *size else {
            tile_vars.push(None);
            continue;
        };
        let tv = b.k.add_local("__acc_tile".to_string(), Type::I64, span);
        let t = val_expr(b, *trip, span);
        let sm1 = build::i64c(&mut b.k, size as i64 - 1, span);
        let num = bin(b, BinOp::Add, t, sm1, span);
        let sz = build::i64c(&mut b.k, size as i64, span);
        let count = bin(b, BinOp::Div, num, sz, span);
        let lb = build::i64c(&mut b.k, 0, span);
        let step = build::i64c(&mut b.k, 1, span);
        tile_dims.push(LoopDim { var: tv, lb, step, trip: count });
        tile_vars.push(Some(tv));
    }
    let on_tiles = partitioned(tile_levels) || !partitioned(element_levels);
    let mut tile_privates = vec![];
    let mut tile_head = vec![];
    let tile_reductions = if on_tiles { crate::reduce::loop_reductions(b, d, &mut bound, &mut pre, &mut tile_head, &mut tile_privates) } else { vec![] };
    b.loops.push(tile_levels);
    // The element loops, inside the tile loops' body.
    let mut element_pre = vec![];
    let mut element_dims = vec![];
    for ((var, lbv, stv, trip, size), tv) in dims.into_iter().zip(tile_vars) {
        let nv = b.fresh_like(var);
        b.env.bind(VarKey::Local(var), Mapped::Local(nv));
        bound.push(VarKey::Local(var));
        let step = val_expr(b, stv, span);
        let (Some(size), Some(tv)) = (size, tv) else {
            let lb = val_expr(b, lbv, span);
            let trip = val_expr(b, trip, span);
            element_dims.push(LoopDim { var: nv, lb, step, trip });
            continue;
        };
        // The first iteration of the tile: t*T, and what is left from it.
        let first = |b: &mut KernelBuilder| {
            let t = build::load_local(&mut b.k, tv, span);
            let sz = build::i64c(&mut b.k, size as i64, span);
            bin(b, BinOp::Mul, t, sz, span)
        };
        let f = first(b);
        let st = val_expr(b, stv, span);
        let off = bin(b, BinOp::Mul, f, st, span);
        let lb0 = val_expr(b, lbv, span);
        let lb = bin(b, BinOp::Add, lb0, off, span);
        let left = |b: &mut KernelBuilder| {
            let t = val_expr(b, trip, span);
            let f = first(b);
            bin(b, BinOp::Sub, t, f, span)
        };
        let l1 = left(b);
        let sz = build::i64c(&mut b.k, size as i64, span);
        let short = build::cmp(&mut b.k, BinOp::Lt, l1, sz, span);
        let l2 = left(b);
        let sz = build::i64c(&mut b.k, size as i64, span);
        let count = b.k.add_expr(ExprKind::Cond(short, l2, sz), Type::I64, span);
        element_dims.push(LoopDim { var: nv, lb, step, trip: count });
    }
    let (mut privates, private_copies) = crate::private::loop_privates(b, d, &mut bound);
    let mut element_head = vec![];
    let element_reductions =
        if partitioned(element_levels) { crate::reduce::loop_reductions(b, d, &mut bound, &mut element_pre, &mut element_head, &mut privates) } else { vec![] };
    privatise_inner_loop_vars(b, nest_levels, inner_body, &mut bound, &mut privates);
    b.loops.push(element_levels);
    let mut body = nest_body(b, nest_levels, inner_body, span);
    b.loops.pop();
    b.loops.pop();
    b.env.undo(mark);
    if !element_head.is_empty() {
        element_head.append(&mut body.stmts);
        body = Block::new(element_head);
    }
    let (tile_vector_len, element_vector_len) = if tile_levels.vector { (shape.vector_len, None) } else { (None, shape.vector_len) };
    let element = acc_loop_stmt(
        element_dims,
        element_levels,
        element_vector_len,
        element_reductions,
        privates,
        private_copies,
        body,
        shape.directive,
        auto.clone(),
        span,
    );
    if tile_dims.is_empty() {
        // Every size applies to no loop (cannot happen: at least one size).
        pre.extend(element_pre);
        pre.push(element);
        return pre;
    }
    tile_head.extend(element_pre);
    tile_head.push(element);
    let tiles =
        acc_loop_stmt(tile_dims, tile_levels, tile_vector_len, tile_reductions, tile_privates, vec![], Block::new(tile_head), shape.directive, auto, span);
    pre.push(tiles);
    pre
}

/// The loop variables of plain loops in the nest's body: private to each
/// executor (also in a sequential loop, which every executor of the
/// enclosing level runs).
fn privatise_inner_loop_vars(
    b: &mut KernelBuilder,
    nest_levels: &[crate::collapse::NestLevel],
    inner_body: &Block,
    bound: &mut Vec<VarKey>,
    privates: &mut Vec<LocalId>,
) {
    let collapsed_body = collapsed_body(nest_levels, inner_body);
    let mut inner = vec![];
    inner_loop_vars(b.src, &collapsed_body, &mut inner);
    let mut declared = HashSet::new();
    collect_decls(&collapsed_body, &mut declared);
    for l in inner {
        if declared.contains(&l) || bound.contains(&VarKey::Local(l)) {
            continue;
        }
        let nl = b.fresh_like(l);
        b.env.bind(VarKey::Local(l), Mapped::Local(nl));
        bound.push(VarKey::Local(l));
        privates.push(nl);
    }
}

/// The kernel body of one iteration of the nest.
fn nest_body(b: &mut KernelBuilder, nest_levels: &[crate::collapse::NestLevel], inner_body: &Block, span: Span) -> Block {
    if crate::collapse::has_intervening(nest_levels) {
        forced_body(b, nest_levels, inner_body, span)
    } else {
        b.loop_block(inner_body)
    }
}

#[allow(clippy::too_many_arguments)]
fn acc_loop_stmt(
    dims: Vec<LoopDim>,
    levels: Levels,
    vector_len: Option<u32>,
    reductions: Vec<LoopReduction>,
    privates: Vec<LocalId>,
    private_copies: Vec<PrivateCopy>,
    body: Block,
    directive: Span,
    auto: Option<AutoChoice>,
    span: Span,
) -> Stmt {
    Stmt {
        kind: StmtKind::AccLoop(Box::new(AccLoop {
            dims,
            gang: levels.gang,
            worker: levels.worker,
            vector: levels.vector,
            vector_len: if levels.vector { vector_len } else { None },
            reductions,
            privates,
            gang_dim: if levels.gang { levels.gang_dim.max(1) } else { 1 },
            auto,
            private_copies,
            body,
            span: directive,
        })),
        span,
    }
}

/// The statements a collapsed nest's body holds, as one host block (for
/// the analyses that look at the body: privatisation of inner loop
/// variables, declarations).
fn collapsed_body(levels: &[crate::collapse::NestLevel], inner_body: &Block) -> Block {
    let mut stmts: Vec<Stmt> = levels.iter().flat_map(|l| l.pre.iter().map(|s| (*s).clone())).collect();
    stmts.extend(inner_body.stmts.iter().cloned());
    stmts.extend(levels.iter().rev().flat_map(|l| l.post.iter().map(|s| (*s).clone())));
    Block::new(stmts)
}

/// The kernel body of a forced collapse with intervening code (collapse.rs):
/// `pre…; do { inner body } while (0); …post` for every collapsed iteration.
fn forced_body(b: &mut KernelBuilder, levels: &[crate::collapse::NestLevel], inner_body: &Block, span: Span) -> Block {
    let mut out = vec![];
    for l in levels {
        let pre = Block::new(l.pre.iter().map(|s| (*s).clone()).collect());
        out.extend(b.loop_block(&pre).stmts);
    }
    let inner = b.loop_block(inner_body);
    let has_post = levels.iter().any(|l| !l.post.is_empty());
    if has_post {
        let zero = build::i32c(&mut b.k, 0, span);
        out.push(Stmt { kind: StmtKind::DoWhile(inner, zero), span });
    } else {
        out.extend(inner.stmts);
    }
    for l in levels.iter().rev() {
        let post = Block::new(l.post.iter().map(|s| (*s).clone()).collect());
        out.extend(b.loop_block(&post).stmts);
    }
    Block::new(out)
}

/// A sequential acc loop: a plain `for` whose loop variable and `private`
/// variables are fresh locals (reductions need nothing: one executor).
fn seq_loop(b: &mut KernelBuilder, s: &Stmt, d: &LoopDirective) -> Vec<Stmt> {
    let StmtKind::For { init, cond, step, body, .. } = &s.kind else { return vec![] };
    let src = b.src;
    let mark = b.env.mark();
    let mut out = vec![];
    let t = d.tuning.resolve(&b.cx.opts.device_type);
    for v in crate::collapse::nest_vars(src, s, assoc_depth(&t), crate::capture::forced(&t)) {
        let nl = b.fresh_like(v);
        b.env.bind(VarKey::Local(v), Mapped::Local(nl));
    }
    let mut bound = vec![];
    let (whole, copies) = crate::private::loop_privates(b, d, &mut bound);
    for nl in whole {
        let span = b.k.local(nl).span;
        out.push(Stmt { kind: StmtKind::Decl(nl, None), span });
    }
    out.push(b.plain_for(init, *cond, *step, body, s.span));
    b.env.undo(mark);
    crate::private::scoped(copies, out, s.span)
}

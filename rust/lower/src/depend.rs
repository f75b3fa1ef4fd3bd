//! The conservative dependence test that decides whether an `auto` loop, or a
//! `kernels` loop with no `independent` clause, may run in parallel; what it
//! found is kept in `AccLoop::auto` (printed with the IR, a compile report).
//!
//! A loop nest (loop variables `vars`, body `body`) is independent when:
//! - every scalar it writes is private: declared inside the body, a loop
//!   variable of a nested `for`, or in `privates` (its `private`/`reduction`
//!   variables, and those of nested acc loops);
//! - every array it writes is accessed (read or written) only through
//!   subscripts that, for each loop variable `v`, have one position holding
//!   the same expression `±v + c` in every access (`c` built from constants
//!   and scalars the nest never writes, so invariant), a distinct position
//!   per variable, so two iterations never touch the same element of a
//!   written array (`a[i] = a[i-1] + …` and `a[i+j]` fail);
//! - it calls no function defined in the module, no function pointer, and no
//!   library function that takes a pointer or no argument at all (libm-style
//!   functions of scalar arguments are taken as pure), and writes through no
//!   other kind of place (struct members, plain `*p`).
//!
//! Distinct base variables are assumed not to alias (as `-Msafeptr` does);
//! stores by `atomic` constructs never create a dependence.

use crate::capture::{collect_decls, inner_loop_vars, VarKey};
use accjit_ir::walk::same_expr;
use accjit_ir::*;
use std::collections::HashSet;

/// A memory access: the base variable and the subscripts, outermost first.
#[derive(Debug)]
struct Access {
    base: VarKey,
    subs: Vec<ExprId>,
}

fn strip(f: &Function, mut e: ExprId) -> ExprId {
    while let ExprKind::Cast(i) = &f.expr(e).kind {
        e = *i;
    }
    e
}

/// The access a pointer value `p` starts (`a`, `&a`, `a + i`, `&a[i]`...).
fn ptr_access(f: &Function, p: ExprId) -> Option<Access> {
    let p = strip(f, p);
    match &f.expr(p).kind {
        ExprKind::Load(pl) => VarKey::of_place(f, *pl).map(|k| Access { base: k, subs: vec![] }),
        ExprKind::AddrOf(pl) => match &f.expr(*pl).kind {
            ExprKind::Local(_) | ExprKind::Global(_) => VarKey::of_place(f, *pl).map(|k| Access { base: k, subs: vec![] }),
            ExprKind::Deref(q) => ptr_access(f, *q),
            _ => None,
        },
        ExprKind::Binary(BinOp::Add, a, b) => {
            let (ptr, idx) = if f.expr(*a).ty.is_ptr() { (*a, *b) } else { (*b, *a) };
            let mut acc = ptr_access(f, ptr)?;
            acc.subs.push(idx);
            Some(acc)
        }
        _ => None,
    }
}

enum Place {
    Scalar(VarKey),
    Array(Access),
    Unknown,
}

fn place(f: &Function, p: ExprId) -> Place {
    match &f.expr(p).kind {
        ExprKind::Local(_) | ExprKind::Global(_) => VarKey::of_place(f, p).map(Place::Scalar).unwrap_or(Place::Unknown),
        ExprKind::Deref(q) => ptr_access(f, *q).map(Place::Array).unwrap_or(Place::Unknown),
        ExprKind::DescElem(d, idx) => match VarKey::of_place(f, *d) {
            Some(k) => Place::Array(Access { base: k, subs: idx.clone() }),
            None => Place::Unknown,
        },
        _ => Place::Unknown,
    }
}

struct Scan<'m> {
    m: &'m Module,
    writes: Vec<(ExprId, bool)>, // (place, atomic)
    reads: Vec<ExprId>,          // places read or whose address is taken
    /// A call the test cannot see through, named for the report.
    calls_unknown: Option<String>,
}

fn scan_expr(f: &Function, e: ExprId, s: &mut Scan<'_>) {
    crate::walk::for_each_expr(f, e, &mut |_, x| match &x.kind {
        ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => s.writes.push((*p, false)),
        ExprKind::Load(p) => s.reads.push(*p),
        ExprKind::AddrOf(p) if !matches!(f.expr(*p).kind, ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_)) => s.reads.push(*p),
        ExprKind::Call(Callee::Func(id), _) => {
            let name = s.m.functions.get(id.index()).map(|g| g.name.clone()).unwrap_or_default();
            s.calls_unknown.get_or_insert(format!("it calls `{}`", name));
        }
        ExprKind::CallIndirect(..) => {
            s.calls_unknown.get_or_insert("it calls through a function pointer".into());
        }
        // A library function is taken as a pure function of its arguments
        // (libm) only when it has some and none is a pointer: `memcpy`,
        // `sprintf`, `frexp` write through theirs, `rand` keeps hidden state.
        ExprKind::Call(Callee::Extern(id), args) if args.is_empty() || args.iter().any(|a| f.expr(*a).ty.is_ptr()) => {
            let name = s.m.externs.get(id.index()).map(|x| x.name.clone()).unwrap_or_default();
            s.calls_unknown.get_or_insert(format!("it calls `{}`, which may have side effects", name));
        }
        _ => {}
    });
}

fn scan_block(f: &Function, b: &Block, s: &mut Scan<'_>) {
    let mut b2 = b.clone();
    for st in &mut b2.stmts {
        if let StmtKind::Atomic(a) = &st.kind {
            let (x, others): (ExprId, Vec<ExprId>) = match &**a {
                AtomicOp::Read { v, x } => {
                    s.writes.push((*v, false));
                    (*x, vec![])
                }
                AtomicOp::Write { x, value } | AtomicOp::Update { x, value, .. } => (*x, vec![*value]),
                AtomicOp::Capture { v, x, value, .. } => {
                    s.writes.push((*v, false));
                    (*x, vec![*value])
                }
            };
            s.writes.push((x, true));
            for o in others {
                scan_expr(f, o, s);
            }
            // The place itself (subscripts are reads).
            for c in f.expr(x).kind.children() {
                scan_expr(f, c, s);
            }
            continue;
        }
        crate::walk::stmt_exprs_mut(&mut Stmt { kind: shallow(&st.kind), span: st.span }, &mut |e| scan_expr(f, *e, s));
        for inner in nested_blocks(&st.kind) {
            scan_block(f, inner, s);
        }
    }
}

/// The statement without its nested blocks (their expressions are scanned separately).
fn shallow(k: &StmtKind) -> StmtKind {
    match k {
        StmtKind::If(c, _, _) => StmtKind::If(*c, Block::default(), Block::default()),
        StmtKind::While(c, _) => StmtKind::While(*c, Block::default()),
        StmtKind::DoWhile(_, c) => StmtKind::DoWhile(Block::default(), *c),
        StmtKind::For { cond, step, acc, .. } => StmtKind::For { init: Block::default(), cond: *cond, step: *step, body: Block::default(), acc: acc.clone() },
        StmtKind::Switch(e, _) => StmtKind::Switch(*e, vec![]),
        StmtKind::Block(_) => StmtKind::Block(Block::default()),
        other => other.clone(),
    }
}

fn nested_blocks(k: &StmtKind) -> Vec<&Block> {
    match k {
        StmtKind::If(_, t, e) => vec![t, e],
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) => vec![b],
        StmtKind::For { init, body, .. } => vec![init, body],
        StmtKind::Switch(_, cases) => cases.iter().map(|c| &c.body).collect(),
        _ => vec![],
    }
}

/// Private/reduction variables of acc loops nested in `b`.
fn nested_acc_privates(f: &Function, b: &Block, out: &mut HashSet<VarKey>) {
    for s in &b.stmts {
        if let StmtKind::For { acc: Some(d), .. } = &s.kind {
            for v in d.private.iter().chain(d.reductions.iter().flat_map(|r| r.vars.iter())) {
                if let Some(k) = VarKey::of_place(f, v.root) {
                    out.insert(k);
                }
            }
        }
        for inner in nested_blocks(&s.kind) {
            nested_acc_privates(f, inner, out);
        }
    }
}

/// A name for a place's variable, for reports.
fn key_name(f: &Function, m: &Module, k: VarKey) -> String {
    match k {
        VarKey::Local(l) => f.local(l).name.clone(),
        VarKey::Global(g) => m.globals.get(g.index()).map(|x| x.name.clone()).unwrap_or_default(),
    }
}

/// Is `e` invariant in the loop nest: built from constants and reads of
/// scalar variables that the body never writes (nor declares)?
fn invariant(f: &Function, e: ExprId, varying: &HashSet<VarKey>) -> bool {
    let x = f.expr(e);
    match &x.kind {
        ExprKind::Int(_) | ExprKind::Float(_) => true,
        ExprKind::Load(p) => match VarKey::of_place(f, *p) {
            Some(k) => !varying.contains(&k),
            None => false,
        },
        ExprKind::Cast(a) | ExprKind::Unary(_, a) => invariant(f, *a, varying),
        ExprKind::Binary(_, a, b) => invariant(f, *a, varying) && invariant(f, *b, varying),
        _ => false,
    }
}

/// `±v + c` with `c` invariant in the nest (so two iterations with different
/// values of `v` address different elements)?
fn pins(f: &Function, e: ExprId, v: LocalId, varying: &HashSet<VarKey>) -> bool {
    let e = strip(f, e);
    match &f.expr(e).kind {
        ExprKind::Load(p) => matches!(f.expr(*p).kind, ExprKind::Local(l) if l == v),
        ExprKind::Unary(UnOp::Neg, a) => pins(f, *a, v, varying),
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            (pins(f, *a, v, varying) && invariant(f, *b, varying)) || (pins(f, *b, v, varying) && invariant(f, *a, varying))
        }
        _ => false,
    }
}

/// Why the iterations of the loop nest with variables `vars` and body
/// `body` may not run in parallel, or `None` when the test proves them
/// independent. `privates` are the nest's `private`/`reduction` variables.
/// Conservative: whatever the test cannot analyse counts as a dependence.
pub fn dependence(f: &Function, m: &Module, body: &Block, vars: &[LocalId], privates: &HashSet<VarKey>) -> Option<String> {
    let mut private: HashSet<VarKey> = privates.clone();
    let mut decls = HashSet::new();
    collect_decls(body, &mut decls);
    private.extend(decls.into_iter().map(VarKey::Local));
    let mut inner = vec![];
    inner_loop_vars(f, body, &mut inner);
    private.extend(inner.into_iter().map(VarKey::Local));
    private.extend(vars.iter().map(|v| VarKey::Local(*v)));
    nested_acc_privates(f, body, &mut private);

    let mut s = Scan { m, writes: vec![], reads: vec![], calls_unknown: None };
    scan_block(f, body, &mut s);
    if let Some(why) = s.calls_unknown.take() {
        return Some(why);
    }
    // Scalars that change during the nest: private ones and written ones.
    let mut varying: HashSet<VarKey> = private.clone();
    let mut written_bases: Vec<VarKey> = vec![];
    for (p, atomic) in &s.writes {
        match place(f, *p) {
            Place::Scalar(k) => {
                varying.insert(k);
                if !private.contains(&k) && !*atomic {
                    return Some(format!("every iteration writes `{}`", key_name(f, m, k)));
                }
            }
            Place::Array(a) => {
                if !*atomic && !private.contains(&a.base) && !written_bases.contains(&a.base) {
                    written_bases.push(a.base);
                }
            }
            Place::Unknown => {
                if !*atomic {
                    return Some("it writes memory the dependence test cannot analyse".into());
                }
            }
        }
    }
    for base in written_bases {
        let accesses: Vec<Access> = s
            .writes
            .iter()
            .filter(|(_, atomic)| !atomic)
            .map(|(p, _)| *p)
            .chain(s.reads.iter().copied())
            .filter_map(|p| match place(f, p) {
                Place::Array(a) if a.base == base => Some(a),
                _ => None,
            })
            .collect();
        // Each loop variable must pin one subscript position, the same
        // expression `±v + c` in every access, with a distinct position per
        // variable: then two iterations never touch the same element.
        let mut used_positions: Vec<usize> = vec![];
        for &v in vars {
            let Some(first) = accesses.first() else { break };
            let pinned = (0..first.subs.len()).find(|k| {
                let e0 = first.subs[*k];
                !used_positions.contains(k)
                    && pins(f, e0, v, &varying)
                    && accesses.iter().all(|a| a.subs.len() == first.subs.len() && same_expr(f, a.subs[*k], e0))
            });
            match pinned {
                Some(k) => used_positions.push(k),
                None => {
                    return Some(format!(
                        "`{}` is written at an element that other iterations of `{}` may read or write",
                        key_name(f, m, base),
                        f.local(v).name
                    ))
                }
            }
        }
    }
    None
}

//! The walk over host functions: every OpenACC construct met in a block is
//! handed to the pass that lowers it (`outline`, `data`); `declare` makes the
//! rest of its block a data region; orphaned loop directives in host code are
//! dropped (the loop runs sequentially on the host). `routine` functions keep
//! their code and may not contain constructs; their acc loops become
//! `AccLoop`s in place (built by `loops` as in a kernel, with the routine's
//! level as the levels around them, so a loop above the routine's level is
//! an error), which back ends partition across the calling executors.

use crate::capture::VarKey;
use crate::copy::{KernelBuilder, Levels};
use crate::cx::Cx;
use crate::{data, outline};
use accjit_ir::*;

/// What lexically enclosing data regions say to a compute construct.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// `default(none|present)` of the nearest enclosing data construct.
    pub default: Option<DefaultKind>,
    /// Variables in data clauses of enclosing data constructs and `declare`s:
    /// a scalar among them is not firstprivate in a compute construct (§2.6.2)
    /// but accessed by address (present-or-copy).
    pub data_vars: Vec<VarKey>,
}

impl Scope {
    fn with(&self, default: Option<DefaultKind>, f: &Function, data: &[DataClause]) -> Scope {
        let mut s = self.clone();
        if default.is_some() {
            s.default = default;
        }
        for c in data {
            for v in &c.vars {
                if let Some(k) = VarKey::of_place(f, v.root) {
                    if (v.base == v.root || VarKey::of_place(f, v.base) == Some(k)) && !s.data_vars.contains(&k) {
                        s.data_vars.push(k);
                    }
                }
            }
        }
        s
    }
}

/// Lower one function of the module (taken out of it while being lowered).
pub fn lower_function(cx: &mut Cx, f: &mut Function) {
    let body = std::mem::take(&mut f.body);
    f.body = match f.routine.as_ref().map(|r| (r.level, r.gang_dim)) {
        Some(level) => routine_block(cx, f, body, level),
        None => lower_block(cx, f, body, &Scope::default()),
    };
}

fn lower_block(cx: &mut Cx, f: &mut Function, b: Block, sc: &Scope) -> Block {
    let mut out = vec![];
    let mut iter = b.stmts.into_iter();
    while let Some(s) = iter.next() {
        if let StmtKind::Exec(x) = &s.kind {
            if matches!(x.kind, ExecKind::Declare) {
                let x = x.clone();
                let rest = Block::new(iter.by_ref().collect());
                let inner = sc.with(None, f, &x.data);
                let rest = lower_block(cx, f, rest, &inner);
                let stmts = data::lower_declare(cx, f, &x, rest);
                out.push(Stmt { kind: StmtKind::Block(Block::new(stmts)), span: s.span });
                break;
            }
        }
        out.extend(lower_stmt(cx, f, s, sc));
    }
    Block::new(out)
}

fn block_stmt(stmts: Vec<Stmt>, span: Span) -> Vec<Stmt> {
    vec![Stmt { kind: StmtKind::Block(Block::new(stmts)), span }]
}

fn lower_stmt(cx: &mut Cx, f: &mut Function, s: Stmt, sc: &Scope) -> Vec<Stmt> {
    let span = s.span;
    let kind = match s.kind {
        StmtKind::Compute(c) => return block_stmt(outline::lower_compute(cx, f, *c, sc), span),
        StmtKind::Data(mut d) => {
            let body = std::mem::take(&mut d.body);
            let inner = sc.with(d.default, f, &d.data);
            let body = lower_block(cx, f, body, &inner);
            return block_stmt(data::lower_data(cx, f, &d, body), span);
        }
        StmtKind::HostData(mut h) => {
            let body = std::mem::take(&mut h.body);
            let body = lower_block(cx, f, body, sc);
            return block_stmt(data::lower_host_data(cx, f, &h, body), span);
        }
        StmtKind::Exec(x) => {
            let stmts = data::lower_exec(cx, f, &x);
            if stmts.is_empty() {
                return vec![];
            }
            return block_stmt(stmts, span);
        }
        StmtKind::If(c, t, e) => StmtKind::If(c, lower_block(cx, f, t, sc), lower_block(cx, f, e, sc)),
        StmtKind::While(c, b) => StmtKind::While(c, lower_block(cx, f, b, sc)),
        StmtKind::DoWhile(b, c) => StmtKind::DoWhile(lower_block(cx, f, b, sc), c),
        StmtKind::For { init, cond, step, body, acc: _ } => {
            StmtKind::For { init: lower_block(cx, f, init, sc), cond, step, body: lower_block(cx, f, body, sc), acc: None }
        }
        StmtKind::Switch(e, cases) => {
            StmtKind::Switch(e, cases.into_iter().map(|c| SwitchCase { value: c.value, body: lower_block(cx, f, c.body, sc) }).collect())
        }
        StmtKind::Block(b) => StmtKind::Block(lower_block(cx, f, b, sc)),
        k => k,
    };
    vec![Stmt { kind, span }]
}

/// A routine body: acc loops lowered to `AccLoop`s, constructs rejected.
fn routine_block(cx: &mut Cx, f: &mut Function, b: Block, level: (Level, u8)) -> Block {
    let mut out = vec![];
    for s in b.stmts {
        let span = s.span;
        if let StmtKind::For { acc: Some(d), .. } = &s.kind {
            let d = (**d).clone();
            out.extend(routine_loop(cx, f, &s, &d, level));
            continue;
        }
        let kind = match s.kind {
            StmtKind::Compute(c) => {
                cx.error(Diagnostic::error(c.span, format!("a {} construct may not appear in a routine", c.kind.name())));
                continue;
            }
            StmtKind::Data(d) => {
                cx.error(Diagnostic::error(d.span, "a data construct may not appear in a routine"));
                continue;
            }
            StmtKind::HostData(h) => {
                cx.error(Diagnostic::error(h.span, "a host_data construct may not appear in a routine"));
                continue;
            }
            StmtKind::Exec(x) => {
                if !matches!(x.kind, ExecKind::Cache) {
                    cx.error(Diagnostic::error(x.span, "this directive may not appear in a routine"));
                }
                continue;
            }
            StmtKind::If(c, t, e) => StmtKind::If(c, routine_block(cx, f, t, level), routine_block(cx, f, e, level)),
            StmtKind::While(c, b) => StmtKind::While(c, routine_block(cx, f, b, level)),
            StmtKind::DoWhile(b, c) => StmtKind::DoWhile(routine_block(cx, f, b, level), c),
            StmtKind::For { init, cond, step, body, acc: _ } => {
                StmtKind::For { init: routine_block(cx, f, init, level), cond, step, body: routine_block(cx, f, body, level), acc: None }
            }
            StmtKind::Switch(e, cases) => {
                StmtKind::Switch(e, cases.into_iter().map(|c| SwitchCase { value: c.value, body: routine_block(cx, f, c.body, level) }).collect())
            }
            StmtKind::Block(b) => StmtKind::Block(routine_block(cx, f, b, level)),
            k => k,
        };
        out.push(Stmt { kind, span });
    }
    Block::new(out)
}

/// One acc loop of a routine body, built in place: the builder copies the
/// loop from a snapshot of the routine into the routine itself (its locals
/// and globals map to themselves), with the levels that the routine's level
/// implies around it (`routine worker`: inside a gang, `vector`: inside a
/// gang and a worker, `seq`: inside all three).
fn routine_loop(cx: &mut Cx, f: &mut Function, s: &Stmt, d: &LoopDirective, (level, gang_dim): (Level, u8)) -> Vec<Stmt> {
    let src = f.clone();
    let mut kb = KernelBuilder::new(cx, &src, f.clone(), ComputeKind::Parallel, d.span);
    kb.routine = Some((level, gang_dim));
    let outer = Levels { gang: level > Level::Gang, worker: level > Level::Worker, vector: level > Level::Vector, gang_dim: gang_dim.max(1) };
    if outer.gang {
        kb.loops.push(outer);
    }
    let stmts = crate::loops::lower_loop(&mut kb, s, d);
    *f = kb.k;
    stmts
}

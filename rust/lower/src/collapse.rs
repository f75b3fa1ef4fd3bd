//! The loop nest a `collapse(n)`/`tile(...)` clause associates with a loop
//! directive (§2.9.1), including OpenACC 3.3's `collapse(force:n)`.
//!
//! Without `force` the n loops must be tightly nested: each body is exactly
//! the next `for`. With `force`, a body may hold other statements around the
//! next `for` (the *intervening code*); the spec lets forced collapse execute
//! intervening code "multiple times as needed", so the collapsed body runs,
//! for every point of the collapsed iteration space,
//!
//! ```text
//! pre_1; pre_2; ...; pre_{n-1}; do { innermost body } while (0); post_{n-1}; ...; post_1
//! ```
//!
//! where `pre_k`/`post_k` are the statements before/after loop k+1 in loop
//! k's body. Code before a loop thus sees the outer loop variables (and
//! declares what the inner body uses); code after it runs after every inner
//! iteration, and a `continue` of the innermost body still reaches it (the
//! `do … while (0)`, built by `loops`). A program whose intervening code is not
//! idempotent per outer iteration is not portable under forced collapse.

use crate::capture::{collect_decls, init_var, single_stmt};
use accjit_ir::*;
use std::collections::HashSet;

/// One loop of an associated nest: the `for` and, for all but the innermost,
/// the intervening code around the next loop of the nest in its body.
pub struct NestLevel<'s> {
    pub stmt: &'s Stmt,
    pub pre: Vec<&'s Stmt>,
    pub post: Vec<&'s Stmt>,
}

/// The next loop of a nest in `body`: the single statement when it is a
/// `for` without a directive; with `force`, the only such `for` among the
/// body's top-level statements, with the statements before and after it.
fn next_loop(body: &Block, force: bool) -> Option<(Vec<&Stmt>, &Stmt, Vec<&Stmt>)> {
    if let Some(s @ Stmt { kind: StmtKind::For { acc: None, .. }, .. }) = single_stmt(body) {
        return Some((vec![], s, vec![]));
    }
    if !force {
        return None;
    }
    let mut stmts: &[Stmt] = &body.stmts;
    while let [Stmt { kind: StmtKind::Block(b), .. }] = stmts {
        stmts = &b.stmts;
    }
    let is_loop = |s: &Stmt| matches!(s.kind, StmtKind::For { acc: None, .. });
    let mut loops = stmts.iter().enumerate().filter(|(_, s)| is_loop(s));
    let (at, inner) = loops.next()?;
    if loops.next().is_some() {
        return None;
    }
    Some((stmts[..at].iter().collect(), inner, stmts[at + 1..].iter().collect()))
}

/// The `depth` loops associated with the loop statement `s`, outermost first.
/// `Err(span)`: fewer loops were found; `span` is the last loop found.
pub fn nest(s: &Stmt, depth: usize, force: bool) -> Result<Vec<NestLevel<'_>>, Span> {
    let mut out = vec![NestLevel { stmt: s, pre: vec![], post: vec![] }];
    while out.len() < depth {
        let last = out.len() - 1;
        let StmtKind::For { body, .. } = &out[last].stmt.kind else { return Err(out[last].stmt.span) };
        let Some((pre, inner, post)) = next_loop(body, force) else { return Err(out[last].stmt.span) };
        out[last].pre = pre;
        out[last].post = post;
        out.push(NestLevel { stmt: inner, pre: vec![], post: vec![] });
    }
    Ok(out)
}

/// Loop variables of the (up to) `depth` associated loops starting at `s`.
pub fn nest_vars(f: &Function, s: &Stmt, depth: usize, force: bool) -> Vec<LocalId> {
    let mut out = vec![];
    let mut cur = Some(s);
    for _ in 0..depth {
        let Some(Stmt { kind: StmtKind::For { init, body, .. }, .. }) = cur else { break };
        if let Some((l, _, _)) = init_var(f, init) {
            out.push(l);
        }
        cur = next_loop(body, force).map(|(_, s, _)| s);
    }
    out
}

/// Does the nest have intervening code (forced collapse)?
pub fn has_intervening(levels: &[NestLevel]) -> bool {
    levels.iter().any(|l| !l.pre.is_empty() || !l.post.is_empty())
}

/// Locals the intervening code declares or assigns: the trip counts of the
/// collapsed loops are computed once, before the nest, so their bounds may
/// not depend on them.
pub fn intervening_locals(f: &Function, levels: &[NestLevel]) -> Vec<LocalId> {
    let mut code = Block::new(levels.iter().flat_map(|l| l.pre.iter().chain(&l.post)).map(|s| (*s).clone()).collect());
    let mut out: HashSet<LocalId> = HashSet::new();
    collect_decls(&code, &mut out);
    crate::walk::block_exprs_mut(&mut code, &mut |e| {
        crate::walk::for_each_expr(f, *e, &mut |_, x| {
            if let ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } = &x.kind {
                if let ExprKind::Local(l) = f.expr(*p).kind {
                    out.insert(l);
                }
            }
        })
    });
    out.into_iter().collect()
}

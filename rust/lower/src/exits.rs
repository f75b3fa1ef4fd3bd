//! Structured exits on every path out of a region: `return`, and `break`,
//! `continue` or `goto` that leave the region's body, are rewritten to run the
//! region's exit statements first (`return e` evaluates `e` before them).

use crate::copy::collect_labels;
use accjit_ir::*;
use std::collections::HashSet;

struct Rewriter<'a> {
    make_exits: &'a mut dyn FnMut(&mut Function) -> Vec<Stmt>,
    labels: HashSet<LabelId>,
}

/// Rewrite the jumps in `body` that leave it so that they first run the
/// statements `make_exits` produces (called once per exit path).
pub fn rewrite_exits(f: &mut Function, body: &mut Block, make_exits: &mut dyn FnMut(&mut Function) -> Vec<Stmt>) {
    let mut labels = HashSet::new();
    collect_labels(body, &mut labels);
    let mut r = Rewriter { make_exits, labels };
    r.block(f, body, 0, 0);
}

impl<'a> Rewriter<'a> {
    fn block(&mut self, f: &mut Function, b: &mut Block, brk: u32, cont: u32) {
        for s in &mut b.stmts {
            self.stmt(f, s, brk, cont);
        }
    }

    fn wrap(&mut self, f: &mut Function, s: &mut Stmt) {
        let span = s.span;
        let mut stmts = vec![];
        let jump = match std::mem::replace(&mut s.kind, StmtKind::Break) {
            StmtKind::Return(Some(e)) => {
                let ty = f.expr(e).ty.clone();
                let t = f.add_local("__acc_ret", ty.clone(), span);
                stmts.push(Stmt { kind: StmtKind::Decl(t, Some(e)), span });
                let p = f.add_expr(ExprKind::Local(t), ty.clone(), span);
                let v = f.add_expr(ExprKind::Load(p), ty, span);
                StmtKind::Return(Some(v))
            }
            k => k,
        };
        stmts.extend((self.make_exits)(f));
        stmts.push(Stmt { kind: jump, span });
        s.kind = StmtKind::Block(Block::new(stmts));
    }

    fn stmt(&mut self, f: &mut Function, s: &mut Stmt, brk: u32, cont: u32) {
        match &mut s.kind {
            StmtKind::Return(_) => self.wrap(f, s),
            StmtKind::Break if brk == 0 => self.wrap(f, s),
            StmtKind::Continue if cont == 0 => self.wrap(f, s),
            StmtKind::Goto(l) if !self.labels.contains(l) => self.wrap(f, s),
            StmtKind::If(_, t, e) => {
                self.block(f, t, brk, cont);
                self.block(f, e, brk, cont);
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => self.block(f, b, brk + 1, cont + 1),
            StmtKind::For { init, body, .. } => {
                self.block(f, init, brk, cont);
                self.block(f, body, brk + 1, cont + 1);
            }
            StmtKind::Switch(_, cases) => {
                for c in cases {
                    self.block(f, &mut c.body, brk + 1, cont);
                }
            }
            StmtKind::Block(b) => self.block(f, b, brk, cont),
            _ => {}
        }
    }
}

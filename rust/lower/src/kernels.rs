//! Splitting a `kernels` construct (§2.5.3) into the parts that become its
//! kernels, launched in order inside one data region:
//! - each top-level loop nest is one part; a top-level `for` without a loop
//!   directive is treated as `loop auto` (parallel only if the dependence test
//!   proves it independent);
//! - each run of other top-level statements is one part (a 1-gang kernel);
//! - locals declared at the top level of the region may be used by several
//!   parts: their declarations move to host code before the region, their
//!   initialisers stay as assignments, and they are captured with an implicit
//!   `create` (device storage shared by the kernels).

use crate::capture::VarKey;
use accjit_ir::*;
use std::collections::HashSet;

fn flatten(b: Block) -> Vec<Stmt> {
    let mut stmts = b.stmts;
    while stmts.len() == 1 && matches!(stmts[0].kind, StmtKind::Block(_)) {
        let Some(Stmt { kind: StmtKind::Block(inner), .. }) = stmts.pop() else { break };
        stmts = inner.stmts;
    }
    stmts
}

/// The parts of `c`'s body; hoisted declarations go to `host_pre`.
pub fn split(f: &mut Function, c: &mut ComputeConstruct, host_pre: &mut Vec<Stmt>, hoisted: &mut HashSet<VarKey>) -> Vec<Block> {
    let stmts = flatten(std::mem::take(&mut c.body));
    let mut parts = vec![];
    let mut serial: Vec<Stmt> = vec![];
    for s in stmts {
        let span = s.span;
        match s.kind {
            StmtKind::Decl(l, init) => {
                host_pre.push(Stmt { kind: StmtKind::Decl(l, None), span });
                hoisted.insert(VarKey::Local(l));
                if let Some(e) = init {
                    let ty = f.local(l).ty.clone();
                    let p = f.add_expr(ExprKind::Local(l), ty.clone(), span);
                    let a = f.add_expr(ExprKind::Assign(p, e), ty, span);
                    serial.push(Stmt { kind: StmtKind::Expr(a), span });
                }
            }
            StmtKind::For { init, cond, step, body, acc } => {
                if !serial.is_empty() {
                    parts.push(Block::new(std::mem::take(&mut serial)));
                }
                let acc = acc.or_else(|| {
                    Some(Box::new(LoopDirective {
                        tuning: DeviceTyped { default: LoopTuning { auto: true, ..Default::default() }, per_type: vec![] },
                        private: vec![],
                        reductions: vec![],
                        construct: Some(ComputeKind::Kernels),
                        span,
                    }))
                });
                parts.push(Block::new(vec![Stmt { kind: StmtKind::For { init, cond, step, body, acc }, span }]));
            }
            kind => serial.push(Stmt { kind, span }),
        }
    }
    if !serial.is_empty() {
        parts.push(Block::new(serial));
    }
    if parts.is_empty() {
        parts.push(Block::default());
    }
    parts
}

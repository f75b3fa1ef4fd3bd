//! Traversals of statement trees: every expression root a statement tree
//! refers to (including those inside OpenACC clauses). The expression walker
//! itself (visits, substitution, equality) is `accjit_ir::walk`, re-exported
//! here for lowering's passes.

use accjit_ir::*;

pub use accjit_ir::walk::{for_each_expr, subst_expr};

fn varref_exprs(v: &mut VarRef, f: &mut dyn FnMut(&mut ExprId)) {
    f(&mut v.root);
    f(&mut v.base);
    f(&mut v.addr);
    f(&mut v.bytes);
    for s in &mut v.sections {
        if let Some(e) = &mut s.lower {
            f(e);
        }
        if let Some(e) = &mut s.length {
            f(e);
        }
    }
}

fn data_exprs(cs: &mut [DataClause], f: &mut dyn FnMut(&mut ExprId)) {
    for c in cs {
        for v in &mut c.vars {
            varref_exprs(v, f);
        }
    }
}

fn wait_exprs(w: &mut WaitArgs, f: &mut dyn FnMut(&mut ExprId)) {
    if let Some(e) = &mut w.devnum {
        f(e);
    }
    for q in &mut w.queues {
        f(q);
    }
}

fn async_exprs(a: &mut AsyncClause, f: &mut dyn FnMut(&mut ExprId)) {
    if let Some(Some(e)) = a {
        f(e);
    }
}

fn tuning_exprs(t: &mut ComputeTuning, f: &mut dyn FnMut(&mut ExprId)) {
    for e in &mut t.num_gangs {
        f(e);
    }
    if let Some(e) = &mut t.num_workers {
        f(e);
    }
    if let Some(e) = &mut t.vector_length {
        f(e);
    }
    async_exprs(&mut t.async_, f);
    if let Some(w) = &mut t.wait {
        wait_exprs(w, f);
    }
}

fn loop_tuning_exprs(t: &mut LoopTuning, f: &mut dyn FnMut(&mut ExprId)) {
    if let Some(g) = &mut t.gang {
        if let Some(e) = &mut g.num {
            f(e);
        }
        if let Some(Some(e)) = &mut g.static_ {
            f(e);
        }
    }
    if let Some(Some(e)) = &mut t.worker {
        f(e);
    }
    if let Some(Some(e)) = &mut t.vector {
        f(e);
    }
    for e in t.tile.iter_mut().flatten() {
        f(e);
    }
}

/// Calls `f` on every expression root referenced by the statements of `b`
/// (recursively, including clause expressions and lowered forms).
pub fn block_exprs_mut(b: &mut Block, f: &mut dyn FnMut(&mut ExprId)) {
    for s in &mut b.stmts {
        stmt_exprs_mut(s, f);
    }
}

fn private_copy_exprs_mut(c: &mut PrivateCopy, f: &mut dyn FnMut(&mut ExprId)) {
    f(&mut c.bytes);
    f(&mut c.offset);
    if let CopyInit::From(i) = &mut c.init {
        f(i);
    }
}

pub fn stmt_exprs_mut(s: &mut Stmt, f: &mut dyn FnMut(&mut ExprId)) {
    match &mut s.kind {
        StmtKind::Expr(e) | StmtKind::ZeroFill(e) => f(e),
        StmtKind::Decl(_, init) => {
            if let Some(e) = init {
                f(e);
            }
        }
        StmtKind::If(c, t, e) => {
            f(c);
            block_exprs_mut(t, f);
            block_exprs_mut(e, f);
        }
        StmtKind::While(c, b) => {
            f(c);
            block_exprs_mut(b, f);
        }
        StmtKind::DoWhile(b, c) => {
            block_exprs_mut(b, f);
            f(c);
        }
        StmtKind::For { init, cond, step, body, acc } => {
            block_exprs_mut(init, f);
            if let Some(c) = cond {
                f(c);
            }
            if let Some(c) = step {
                f(c);
            }
            block_exprs_mut(body, f);
            if let Some(d) = acc {
                loop_tuning_exprs(&mut d.tuning.default, f);
                for (_, t) in &mut d.tuning.per_type {
                    loop_tuning_exprs(t, f);
                }
                for v in &mut d.private {
                    varref_exprs(v, f);
                }
                for r in &mut d.reductions {
                    for v in &mut r.vars {
                        varref_exprs(v, f);
                    }
                }
            }
        }
        StmtKind::Switch(e, cases) => {
            f(e);
            for c in cases {
                block_exprs_mut(&mut c.body, f);
            }
        }
        StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) | StmtKind::Label(_) => {}
        StmtKind::Return(e) => {
            if let Some(e) = e {
                f(e);
            }
        }
        StmtKind::Block(b) => block_exprs_mut(b, f),
        StmtKind::Compute(c) => {
            tuning_exprs(&mut c.tuning.default, f);
            for (_, t) in &mut c.tuning.per_type {
                tuning_exprs(t, f);
            }
            if let Some(e) = &mut c.if_cond {
                f(e);
            }
            if let Some(Some(e)) = &mut c.self_cond {
                f(e);
            }
            data_exprs(&mut c.data, f);
            for v in c.private.iter_mut().chain(c.firstprivate.iter_mut()) {
                varref_exprs(v, f);
            }
            for r in &mut c.reductions {
                for v in &mut r.vars {
                    varref_exprs(v, f);
                }
            }
            block_exprs_mut(&mut c.body, f);
        }
        StmtKind::Data(d) => {
            if let Some(e) = &mut d.if_cond {
                f(e);
            }
            tuning_exprs(&mut d.tuning.default, f);
            for (_, t) in &mut d.tuning.per_type {
                tuning_exprs(t, f);
            }
            data_exprs(&mut d.data, f);
            block_exprs_mut(&mut d.body, f);
        }
        StmtKind::HostData(h) => {
            if let Some(e) = &mut h.if_cond {
                f(e);
            }
            for v in &mut h.use_device {
                varref_exprs(v, f);
            }
            block_exprs_mut(&mut h.body, f);
        }
        StmtKind::Exec(x) => {
            match &mut x.kind {
                ExecKind::Wait(w) => wait_exprs(w, f),
                ExecKind::Init { device_num, .. } | ExecKind::Shutdown { device_num, .. } => {
                    if let Some(e) = device_num {
                        f(e);
                    }
                }
                ExecKind::Set { default_async, device_num, .. } => {
                    if let Some(e) = default_async {
                        f(e);
                    }
                    if let Some(e) = device_num {
                        f(e);
                    }
                }
                _ => {}
            }
            data_exprs(&mut x.data, f);
            if let Some(e) = &mut x.if_cond {
                f(e);
            }
            async_exprs(&mut x.async_, f);
            if let Some(w) = &mut x.wait {
                wait_exprs(w, f);
            }
        }
        StmtKind::Atomic(a) => match &mut **a {
            AtomicOp::Read { v, x } => {
                f(v);
                f(x);
            }
            AtomicOp::Write { x, value } | AtomicOp::Update { x, value, .. } => {
                f(x);
                f(value);
            }
            AtomicOp::Capture { v, x, value, .. } => {
                f(v);
                f(x);
                f(value);
            }
        },
        StmtKind::AccLoop(l) => {
            for d in &mut l.dims {
                f(&mut d.lb);
                f(&mut d.step);
                f(&mut d.trip);
            }
            for r in &mut l.reductions {
                f(&mut r.target);
            }
            for c in &mut l.private_copies {
                private_copy_exprs_mut(c, f);
            }
            block_exprs_mut(&mut l.body, f);
        }
        StmtKind::Privates(copies, b) => {
            for c in copies {
                private_copy_exprs_mut(c, f);
            }
            block_exprs_mut(b, f);
        }
        StmtKind::Launch(l) => {
            for a in &mut l.args {
                f(a);
            }
            for e in [&mut l.num_gangs, &mut l.num_workers, &mut l.vector_length, &mut l.async_queue, &mut l.local_cond].into_iter().flatten() {
                f(e);
            }
            if let Some(w) = &mut l.wait {
                for e in w {
                    f(e);
                }
            }
        }
    }
}

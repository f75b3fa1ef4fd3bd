//! Walks over the AST: sub-expressions of an expression, every expression
//! and name of a statement list (for the host variables an internal
//! procedure uses), and structural equality of expressions.

use crate::ast::{self, AcItem, ArgValue, ExprKind as E, IoItem, StmtKind as S};

/// Visit `e` and its sub-expressions, depth first; `f` returns whether to
/// descend into the node's children.
pub(crate) fn each_subexpr(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr) -> bool) {
    if !f(e) {
        return;
    }
    match &e.kind {
        E::Complex { re, im } => {
            each_subexpr(re, f);
            each_subexpr(im, f);
        }
        E::Apply { base, args } => {
            each_subexpr(base, f);
            for a in args {
                each_arg(a, f);
            }
        }
        E::Component { base, .. } => each_subexpr(base, f),
        E::Unary { operand, .. } => each_subexpr(operand, f),
        E::Binary { lhs, rhs, .. } => {
            each_subexpr(lhs, f);
            each_subexpr(rhs, f);
        }
        E::Defined { lhs, rhs, .. } => {
            if let Some(l) = lhs {
                each_subexpr(l, f);
            }
            each_subexpr(rhs, f);
        }
        E::Paren(x) => each_subexpr(x, f),
        E::ArrayCtor { items, .. } => {
            for it in items {
                each_ac(it, f);
            }
        }
        _ => {}
    }
}

fn each_arg(a: &ast::Arg, f: &mut dyn FnMut(&ast::Expr) -> bool) {
    match &a.value {
        ArgValue::Expr(x) => each_subexpr(x, f),
        ArgValue::Range { lo, hi, stride } => {
            for x in [lo, hi, stride].into_iter().flatten() {
                each_subexpr(x, f);
            }
        }
        ArgValue::Label(_) => {}
    }
}

fn each_ac(it: &AcItem, f: &mut dyn FnMut(&ast::Expr) -> bool) {
    match it {
        AcItem::Expr(x) => each_subexpr(x, f),
        AcItem::ImpliedDo(d) => {
            for x in &d.items {
                each_ac(x, f);
            }
            control(&d.control, f);
        }
    }
}

fn control(c: &ast::LoopControl, f: &mut dyn FnMut(&ast::Expr) -> bool) {
    f(&ast::Expr { kind: E::Name(c.var.clone()), span: c.var.span });
    each_subexpr(&c.start, f);
    each_subexpr(&c.end, f);
    if let Some(s) = &c.step {
        each_subexpr(s, f);
    }
}

fn each_io(it: &IoItem, f: &mut dyn FnMut(&ast::Expr) -> bool) {
    match it {
        IoItem::Expr(x) => each_subexpr(x, f),
        IoItem::ImpliedDo(d) => {
            for x in &d.items {
                each_io(x, f);
            }
            control(&d.control, f);
        }
    }
}

/// Every expression in `stmts` (recursively, directives' clauses included).
pub(crate) fn each_stmt_expr(stmts: &[ast::Stmt], f: &mut dyn FnMut(&ast::Expr) -> bool) {
    for s in stmts {
        match &s.kind {
            S::Assign { lhs, rhs } | S::PointerAssign { lhs, rhs } => {
                each_subexpr(lhs, f);
                each_subexpr(rhs, f);
            }
            S::If { arms, else_body, .. } => {
                for (c, b) in arms {
                    each_subexpr(c, f);
                    each_stmt_expr(b, f);
                }
                if let Some(b) = else_body {
                    each_stmt_expr(b, f);
                }
            }
            S::LogicalIf { cond, stmt } => {
                each_subexpr(cond, f);
                each_stmt_expr(std::slice::from_ref(stmt), f);
            }
            S::Do { control: c, body, .. } => {
                match c {
                    ast::DoControl::Counted(lc) => control(lc, f),
                    ast::DoControl::While(x) => each_subexpr(x, f),
                    ast::DoControl::Concurrent { indices, mask, .. } => {
                        for (n, a, b, st) in indices {
                            f(&ast::Expr { kind: E::Name(n.clone()), span: n.span });
                            each_subexpr(a, f);
                            each_subexpr(b, f);
                            if let Some(st) = st {
                                each_subexpr(st, f);
                            }
                        }
                        if let Some(m) = mask {
                            each_subexpr(m, f);
                        }
                    }
                    ast::DoControl::Forever => {}
                }
                each_stmt_expr(body, f);
            }
            S::SelectCase { selector, cases, .. } => {
                each_subexpr(selector, f);
                for c in cases {
                    for v in c.values.iter().flatten() {
                        match v {
                            ast::CaseValue::Single(x) => each_subexpr(x, f),
                            ast::CaseValue::Range(a, b) => {
                                for x in [a, b].into_iter().flatten() {
                                    each_subexpr(x, f);
                                }
                            }
                        }
                    }
                    each_stmt_expr(&c.body, f);
                }
            }
            S::Block { body, .. } => each_stmt_expr(body, f),
            S::Where { arms } => {
                for (m, b) in arms {
                    if let Some(m) = m {
                        each_subexpr(m, f);
                    }
                    each_stmt_expr(b, f);
                }
            }
            S::Forall { indices, mask, body } => {
                for (_, a, b, st) in indices {
                    each_subexpr(a, f);
                    each_subexpr(b, f);
                    if let Some(st) = st {
                        each_subexpr(st, f);
                    }
                }
                if let Some(m) = mask {
                    each_subexpr(m, f);
                }
                each_stmt_expr(body, f);
            }
            S::ComputedGoto { index, .. } => each_subexpr(index, f),
            S::Call { callee, args } => {
                each_subexpr(callee, f);
                for a in args {
                    each_arg(a, f);
                }
            }
            S::Return(Some(x)) => each_subexpr(x, f),
            S::Stop { code, quiet, .. } => {
                for x in [code, quiet].into_iter().flatten() {
                    each_subexpr(x, f);
                }
            }
            S::Allocate { objects, specs, .. } | S::Deallocate { objects, specs } => {
                for o in objects {
                    each_subexpr(o, f);
                }
                for (_, x) in specs {
                    each_subexpr(x, f);
                }
            }
            S::Nullify(xs) => {
                for x in xs {
                    each_subexpr(x, f);
                }
            }
            S::Print { format, items } => {
                if let ast::FormatSpec::Expr(x) = format {
                    each_subexpr(x, f);
                }
                for it in items {
                    each_io(it, f);
                }
            }
            S::Write { control: c, items } | S::Read { control: c, items } => {
                io_control(c, f);
                for it in items {
                    each_io(it, f);
                }
            }
            S::FileOp { control: c, .. } => io_control(c, f),
            S::Acc { dir, body, .. } => {
                for c in &dir.clauses {
                    clause_exprs(&c.kind, f);
                }
                if let ast::AccKind::Cache { vars, .. } = &dir.kind {
                    for v in vars {
                        each_subexpr(v, f);
                    }
                }
                each_stmt_expr(body, f);
            }
            _ => {}
        }
    }
}

fn io_control(c: &ast::IoControl, f: &mut dyn FnMut(&ast::Expr) -> bool) {
    if let Some(ast::IoUnit::Expr(x)) = &c.unit {
        each_subexpr(x, f);
    }
    if let Some(ast::FormatSpec::Expr(x)) = &c.format {
        each_subexpr(x, f);
    }
    for (_, x) in &c.specs {
        each_subexpr(x, f);
    }
}

pub(crate) fn clause_exprs(k: &ast::AccClauseKind, f: &mut dyn FnMut(&ast::Expr) -> bool) {
    use ast::AccClauseKind as C;
    match k {
        C::Data { vars, .. } | C::Private(vars) | C::FirstPrivate(vars) | C::Reduction { vars, .. } | C::NumGangs(vars) => {
            for v in vars {
                each_subexpr(v, f);
            }
        }
        C::If(x) | C::NumWorkers(x) | C::VectorLength(x) | C::DeviceNum(x) | C::DefaultAsync(x) => each_subexpr(x, f),
        C::SelfCond(Some(x)) | C::Async(Some(x)) | C::Worker(Some(x)) | C::Vector(Some(x)) => each_subexpr(x, f),
        C::Gang { num, static_, dim } => {
            for x in [num, dim].into_iter().flatten() {
                each_subexpr(x, f);
            }
            if let Some(Some(x)) = static_ {
                each_subexpr(x, f);
            }
        }
        C::Collapse { count, .. } => each_subexpr(count, f),
        C::Tile(xs) => {
            for x in xs.iter().flatten() {
                each_subexpr(x, f);
            }
        }
        C::Wait(Some(w)) => {
            for x in w.devnum.iter().chain(&w.queues) {
                each_subexpr(x, f);
            }
        }
        _ => {}
    }
}

/// Every name used in a statement list.
pub(crate) fn names_used(stmts: &[ast::Stmt], out: &mut Vec<String>) {
    each_stmt_expr(stmts, &mut |e| {
        if let E::Name(n) = &e.kind {
            if !out.contains(&n.text) {
                out.push(n.text.clone());
            }
        }
        true
    });
}

/// Structural equality of two expressions (spans ignored).
pub(crate) fn same_expr(a: &ast::Expr, b: &ast::Expr) -> bool {
    format!("{:?}", strip(a)) == format!("{:?}", strip(b))
}

fn strip(e: &ast::Expr) -> String {
    // The Debug text without spans: spans print as `Span { .. }` values;
    // remove them by re-rendering names and literals only.
    let mut s = String::new();
    each_subexpr(e, &mut |x| {
        match &x.kind {
            E::Name(n) => s.push_str(&format!("N{} ", n.text)),
            E::Int { value, .. } => s.push_str(&format!("I{value} ")),
            E::Real { text, .. } => s.push_str(&format!("R{text} ")),
            E::Apply { args, .. } => s.push_str(&format!("A{} ", args.len())),
            E::Binary { op, .. } => s.push_str(&format!("B{op:?} ")),
            E::Unary { op, .. } => s.push_str(&format!("U{op:?} ")),
            other => s.push_str(&format!("{} ", std::mem::discriminant(other) == std::mem::discriminant(other))),
        }
        true
    });
    s
}

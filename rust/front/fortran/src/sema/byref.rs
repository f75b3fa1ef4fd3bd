//! Variables a compute construct reaches by reference: COMMON-block
//! variables (places inside the block's global), host-associated
//! variables of an internal procedure (`*p` through a pointer parameter)
//! and pointer scalars. A kernel captures variables (`lower`'s captures),
//! and a common block or a pointer parameter is one variable to it: on a
//! discrete device the block would be translated through whichever of its
//! members a clause made present, and a host pointer through nothing. So,
//! before the construct, each such variable the construct names becomes a
//! variable of its own, as C code would write it:
//! - an array: its base address and bounds in fresh locals (an array held
//!   through a pointer, which clauses map and `implicit_clauses` copies);
//! - a scalar the construct shares with the host (named in a data clause
//!   here or by an enclosing data construct or `declare`, reduced, or
//!   written in a `kernels` construct): `*q` for a fresh pointer local `q`,
//!   with an implicit `copy` when no clause names it (present-or-copy: a
//!   device copy made earlier is the one used, as for C's scalars);
//! - any other scalar (read, private, firstprivate, or written in a
//!   `parallel` construct, where it is firstprivate): its value in a fresh
//!   local.

use super::cx::{ArrVar, Cx, Loc, ScalarVar, Sym, R};
use crate::ast::{self, AccClauseKind as C};
use accjit_ir::{build, ComputeKind, DataClauseKind, Span};

/// The root names of a directive's data-clause items.
pub(crate) fn data_clause_names(d: &ast::AccDirective) -> Vec<String> {
    let mut out = vec![];
    for cl in &d.clauses {
        if let C::Data { kind, vars, .. } = &cl.kind {
            if !matches!(kind, DataClauseKind::UseDevice | DataClauseKind::DevicePtr) {
                out.extend(vars.iter().filter_map(super::decl::root_name));
            }
        }
    }
    out
}

/// Root names of the variables of `reduction`, `private` and `firstprivate`
/// clauses: on the directive and on the directives inside `body`.
fn clause_names(d: &ast::AccDirective, body: &[ast::Stmt], pick: &dyn Fn(&C) -> Option<&Vec<ast::Expr>>) -> Vec<String> {
    fn go(stmts: &[ast::Stmt], pick: &dyn Fn(&C) -> Option<&Vec<ast::Expr>>, out: &mut Vec<String>) {
        for s in stmts {
            if let ast::StmtKind::Acc { dir, body, .. } = &s.kind {
                for cl in &dir.clauses {
                    out.extend(pick(&cl.kind).into_iter().flatten().filter_map(super::decl::root_name));
                }
                go(body, pick, out);
            }
            match &s.kind {
                ast::StmtKind::Do { body, .. } | ast::StmtKind::Block { body, .. } | ast::StmtKind::Forall { body, .. } => go(body, pick, out),
                ast::StmtKind::If { arms, else_body, .. } => {
                    for (_, b) in arms {
                        go(b, pick, out);
                    }
                    if let Some(b) = else_body {
                        go(b, pick, out);
                    }
                }
                ast::StmtKind::SelectCase { cases, .. } => {
                    for c in cases {
                        go(&c.body, pick, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = vec![];
    for cl in &d.clauses {
        out.extend(pick(&cl.kind).into_iter().flatten().filter_map(super::decl::root_name));
    }
    go(body, pick, &mut out);
    out
}

/// The variables of DO loops in `stmts` (private to the construct's loops).
fn do_vars(stmts: &[ast::Stmt], out: &mut Vec<String>) {
    for s in stmts {
        match &s.kind {
            ast::StmtKind::Do { control, body, .. } => {
                match control {
                    ast::DoControl::Counted(lc) => out.push(lc.var.text.clone()),
                    ast::DoControl::Concurrent { indices, .. } => out.extend(indices.iter().map(|i| i.0.text.clone())),
                    _ => {}
                }
                do_vars(body, out);
            }
            ast::StmtKind::Block { body, .. } | ast::StmtKind::Acc { body, .. } | ast::StmtKind::Forall { body, .. } => do_vars(body, out),
            ast::StmtKind::If { arms, else_body, .. } => {
                for (_, b) in arms {
                    do_vars(b, out);
                }
                if let Some(b) = else_body {
                    do_vars(b, out);
                }
            }
            ast::StmtKind::SelectCase { cases, .. } => {
                for c in cases {
                    do_vars(&c.body, out);
                }
            }
            _ => {}
        }
    }
}

/// Whether a location is reached through a pointer or a global's storage
/// (what a kernel cannot capture on its own).
fn by_ref(loc: &Loc) -> bool {
    matches!(loc, Loc::Deref(_) | Loc::Common(_) | Loc::CommonArr(_))
}

impl Cx<'_> {
    /// Give each by-reference variable construct `d` names a variable of its
    /// own (module doc), in a new scope the caller pops after the construct.
    /// Returns the shared scalars no data clause of `d` names (they get an
    /// implicit `copy`).
    pub(crate) fn localize_by_ref(&mut self, d: &ast::AccDirective, body: &[ast::Stmt], kind: ComputeKind) -> R<Vec<String>> {
        let mut names = vec![];
        super::walk::names_used(body, &mut names);
        for cl in &d.clauses {
            super::walk::clause_exprs(&cl.kind, &mut |e| {
                if let ast::ExprKind::Name(n) = &e.kind {
                    if !names.contains(&n.text) {
                        names.push(n.text.clone());
                    }
                }
                true
            });
        }
        let here = data_clause_names(d);
        let reduced = clause_names(d, body, &|c| match c {
            C::Reduction { vars, .. } => Some(vars),
            _ => None,
        });
        let private = clause_names(d, &[], &|c| match c {
            C::Private(v) | C::FirstPrivate(v) => Some(v),
            _ => None,
        });
        let mut loop_vars = vec![];
        do_vars(body, &mut loop_vars);
        let written: Vec<String> = super::acc::written_names(body).into_iter().filter(|n| !loop_vars.contains(n)).collect();
        let sp = d.span;
        self.scopes.push(Default::default());
        let mut implicit_copy = vec![];
        for n in names {
            match self.lookup(&n).cloned() {
                Some(Sym::Scalar(v)) if by_ref(&v.loc) && v.char_len.is_none() && !v.ty.is_char() => {
                    let shared = !private.contains(&n)
                        && (here.contains(&n)
                            || self.data_names.contains(&n)
                            || reduced.contains(&n)
                            || (kind == ComputeKind::Kernels && written.contains(&n)));
                    let loc = if shared {
                        if !here.contains(&n) {
                            implicit_copy.push(n.clone());
                        }
                        match v.loc {
                            Loc::Deref(p) => Loc::Deref(p),
                            _ => {
                                let place = self.place(v.loc, sp);
                                let addr = build::addr_of(&mut self.f, place, sp);
                                Loc::Deref(self.temp(&format!("{n}.ref"), addr, sp))
                            }
                        }
                    } else {
                        let val = self.get(v.loc, sp);
                        Loc::Local(self.temp(&n, val, sp))
                    };
                    self.define(&n, Sym::Scalar(ScalarVar { loc, ..v }));
                }
                Some(Sym::Array(a)) if [&a.base].into_iter().chain(&a.lb).chain(&a.ext).chain(&a.stride).any(by_ref) => {
                    let a = self.localize_array(&n, a, sp);
                    self.define(&n, Sym::Array(a));
                }
                _ => {}
            }
        }
        Ok(implicit_copy)
    }

    /// An array whose base and bounds are read into fresh locals.
    fn localize_array(&mut self, n: &str, a: ArrVar, sp: Span) -> ArrVar {
        let fresh = |cx: &mut Self, l: Loc, what: &str| -> Loc {
            if !by_ref(&l) {
                return l;
            }
            let v = cx.get(l, sp);
            Loc::Local(cx.temp(&format!("{n}.{what}"), v, sp))
        };
        let base = fresh(self, a.base, "base");
        let lb = a.lb.iter().map(|l| fresh(self, *l, "lb")).collect();
        let ext = a.ext.iter().map(|l| fresh(self, *l, "ext")).collect();
        let stride = a.stride.iter().map(|l| fresh(self, *l, "stride")).collect();
        ArrVar { base, lb, ext, stride, ..a }
    }
}

//! `#pragma acc atomic`: the statement (or, for `capture`, the two-statement
//! block) is parsed as ordinary C, then recognised as one of the structured
//! forms of §2.12 by looking at the IR it produced.

use super::directive::{DirKind, Directive};
use super::{PResult, Parser};
use accjit_ir::{AtomicBinOp, AtomicOp, BinOp, Callee, ExprId, ExprKind, Stmt, StmtKind, Type};

/// An update form: `x op= v`, `x = x op v`, `x = v op x`, `x++`, …
struct Upd {
    x: ExprId,
    op: AtomicBinOp,
    value: ExprId,
    reversed: bool,
}

fn atomic_op(op: BinOp) -> Option<AtomicBinOp> {
    Some(match op {
        BinOp::Add => AtomicBinOp::Add,
        BinOp::Sub => AtomicBinOp::Sub,
        BinOp::Mul => AtomicBinOp::Mul,
        BinOp::Div => AtomicBinOp::Div,
        BinOp::BitAnd => AtomicBinOp::BitAnd,
        BinOp::BitOr => AtomicBinOp::BitOr,
        BinOp::BitXor => AtomicBinOp::BitXor,
        BinOp::Shl => AtomicBinOp::Shl,
        BinOp::Shr => AtomicBinOp::Shr,
        BinOp::LogAnd => AtomicBinOp::LogAnd,
        BinOp::LogOr => AtomicBinOp::LogOr,
        _ => return None,
    })
}

/// The statement forms each atomic clause accepts (OpenACC 3.3 §2.12).
fn forms(which: &str) -> &'static str {
    match which {
        "read" => "v = x;",
        "write" => "x = expr;",
        "capture" => {
            "v = x++; v = x--; v = ++x; v = --x; v = x binop= expr; v = x = x binop expr; \
{v = x; x binop= expr;} {x binop= expr; v = x;} {v = x; x = expr;}"
        }
        _ => "x++; x--; ++x; --x; x binop= expr; x = x binop expr; x = expr binop x;",
    }
}

impl<'a> Parser<'a> {
    fn strip_casts(&self, mut id: ExprId) -> ExprId {
        while let ExprKind::Cast(a) = self.ex(id).kind {
            id = a;
        }
        id
    }

    /// Structural equality of two expressions (same place or same value).
    pub fn same_expr(&self, a: ExprId, b: ExprId) -> bool {
        accjit_ir::walk::same_expr(self.func(), a, b)
    }

    /// Is `id` (casts stripped) a read of place `x`?
    fn reads(&self, id: ExprId, x: ExprId) -> bool {
        let id = self.strip_casts(id);
        matches!(self.ex(id).kind, ExprKind::Load(p) if self.same_expr(p, x))
    }

    /// `value` converted to the type of place `x`.
    fn converted_to_type_of(&mut self, value: ExprId, x: ExprId) -> ExprId {
        let t = self.ex(x).ty.clone();
        if self.ex(value).ty == t {
            value
        } else {
            let sp = self.ex(value).span;
            self.mk(ExprKind::Cast(value), t, sp)
        }
    }

    fn one(&mut self, x: ExprId) -> ExprId {
        let t = self.ex(x).ty.clone();
        let sp = self.ex(x).span;
        match &t {
            Type::Scalar(s) if s.is_float() => self.mk(ExprKind::Float(1.0), t, sp),
            _ => self.mk(ExprKind::Int(1), t, sp),
        }
    }

    /// Recognise an update expression.
    fn update_form(&mut self, e: ExprId) -> Option<Upd> {
        match self.ex(e).kind.clone() {
            ExprKind::IncDec { place, inc, .. } => {
                if self.ex(place).ty.is_ptr() {
                    return None;
                }
                let value = self.one(place);
                Some(Upd { x: place, op: if inc { AtomicBinOp::Add } else { AtomicBinOp::Sub }, value, reversed: false })
            }
            ExprKind::CompoundAssign { op, place, value, .. } => {
                let op = atomic_op(op)?;
                if self.ex(place).ty.is_ptr() {
                    return None;
                }
                let value = self.converted_to_type_of(value, place);
                Some(Upd { x: place, op, value, reversed: false })
            }
            ExprKind::Assign(x, rhs) => {
                let r = self.strip_casts(rhs);
                match self.ex(r).kind.clone() {
                    ExprKind::Binary(op, a, b) => {
                        let op = atomic_op(op)?;
                        if self.reads(a, x) && !self.mentions(b, x) {
                            let v = self.strip_casts(b);
                            let v = self.converted_to_type_of(v, x);
                            Some(Upd { x, op, value: v, reversed: false })
                        } else if self.reads(b, x) && !self.mentions(a, x) {
                            let v = self.strip_casts(a);
                            let v = self.converted_to_type_of(v, x);
                            Some(Upd { x, op, value: v, reversed: true })
                        } else {
                            None
                        }
                    }
                    ExprKind::Call(Callee::Extern(f), args) if args.len() == 2 => {
                        let name = self.fns.get(f.index()).map(|e| e.name.as_str()).unwrap_or("");
                        let op = match name {
                            "fmax" | "fmaxf" | "fmaxl" => AtomicBinOp::Max,
                            "fmin" | "fminf" | "fminl" => AtomicBinOp::Min,
                            _ => return None,
                        };
                        let (a, b) = (args[0], args[1]);
                        if self.reads(a, x) {
                            let v = self.strip_casts(b);
                            let v = self.converted_to_type_of(v, x);
                            Some(Upd { x, op, value: v, reversed: false })
                        } else if self.reads(b, x) {
                            let v = self.strip_casts(a);
                            let v = self.converted_to_type_of(v, x);
                            Some(Upd { x, op, value: v, reversed: true })
                        } else {
                            None
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Does `e` read place `x` anywhere?
    fn mentions(&self, e: ExprId, x: ExprId) -> bool {
        if self.same_expr(e, x) {
            return true;
        }
        match &self.ex(e).kind {
            ExprKind::Load(a) | ExprKind::Cast(a) | ExprKind::Unary(_, a) | ExprKind::Deref(a) | ExprKind::AddrOf(a) | ExprKind::Member(a, _) => {
                self.mentions(*a, x)
            }
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) => self.mentions(*a, x) || self.mentions(*b, x),
            ExprKind::Cond(a, b, c) => self.mentions(*a, x) || self.mentions(*b, x) || self.mentions(*c, x),
            ExprKind::Call(_, args) => args.iter().any(|a| self.mentions(*a, x)),
            _ => false,
        }
    }

    /// `v = x` (a read): returns (v, x).
    fn read_form(&self, e: ExprId) -> Option<(ExprId, ExprId)> {
        if let ExprKind::Assign(v, rhs) = self.ex(e).kind {
            let r = self.strip_casts(rhs);
            if let ExprKind::Load(x) = self.ex(r).kind {
                if self.ex(x).kind.is_place() {
                    return Some((v, x));
                }
            }
        }
        None
    }

    fn stmt_expr(s: &Stmt) -> Option<ExprId> {
        match &s.kind {
            StmtKind::Expr(e) => Some(*e),
            _ => None,
        }
    }

    pub fn atomic_construct(&mut self, d: Directive, out: &mut Vec<Stmt>) -> PResult<()> {
        debug_assert_eq!(d.kind, DirKind::Atomic);
        let which = d.clauses.first().map(|c| c.name).unwrap_or("update");
        let start_span = self.span();
        let mut stmts = vec![];
        if which == "capture" && self.is_p("{") {
            self.bump();
            while !self.is_p("}") && !self.at_eof() {
                self.stmt(&mut stmts)?;
            }
            self.expect_p("}")?;
        } else {
            if self.is_p("{") || self.at_eof() {
                return self.err_hint(start_span, "invalid atomic statement", format!("atomic {} takes one expression statement", which));
            }
            self.stmt(&mut stmts)?;
        }
        let span = start_span.to(self.prev_span());
        match self.atomic_form(which, &stmts) {
            Some(op) => {
                out.push(Stmt { kind: StmtKind::Atomic(Box::new(op)), span: d.span });
                Ok(())
            }
            None => {
                // Say which other atomic clause the statement fits, if any.
                let fits: Vec<String> = ["read", "write", "update", "capture"]
                    .iter()
                    .filter(|o| **o != which && self.atomic_form(o, &stmts).is_some())
                    .map(|o| format!("'atomic {}'", o))
                    .collect();
                let mut hint = format!("'atomic {}' takes one of: {}", which, forms(which));
                if !fits.is_empty() {
                    hint = format!("this statement is the form of {}; {}", fits.join(" or "), hint);
                }
                self.err_hint(span, format!("invalid atomic statement for 'atomic {}'", which), hint)
            }
        }
    }

    fn atomic_form(&mut self, which: &str, stmts: &[Stmt]) -> Option<AtomicOp> {
        let exprs: Vec<ExprId> = stmts.iter().map(Self::stmt_expr).collect::<Option<Vec<_>>>()?;
        match (which, exprs.as_slice()) {
            ("read", [e]) => {
                let (v, x) = self.read_form(*e)?;
                Some(AtomicOp::Read { v, x })
            }
            ("write", [e]) => match self.ex(*e).kind {
                ExprKind::Assign(x, value) if !self.mentions(value, x) => Some(AtomicOp::Write { x, value }),
                _ => None,
            },
            ("update", [e]) => {
                let u = self.update_form(*e)?;
                Some(AtomicOp::Update { x: u.x, op: u.op, value: u.value, reversed: u.reversed })
            }
            ("capture", [e]) => {
                // v = x++ / v = ++x / v = x op= e / v = x = x op e
                let ExprKind::Assign(v, rhs) = self.ex(*e).kind else { return None };
                let r = self.strip_casts(rhs);
                let old = matches!(self.ex(r).kind, ExprKind::IncDec { prefix: false, .. });
                let u = self.update_form(r)?;
                Some(AtomicOp::Capture { v, x: u.x, op: Some(u.op), value: u.value, reversed: u.reversed, capture_old: old })
            }
            ("capture", [a, b]) => {
                if let Some((v, x)) = self.read_form(*a) {
                    // {v = x; update}  or  {v = x; x = expr;}
                    if let Some(u) = self.update_form(*b) {
                        if self.same_expr(u.x, x) {
                            return Some(AtomicOp::Capture { v, x: u.x, op: Some(u.op), value: u.value, reversed: u.reversed, capture_old: true });
                        }
                    }
                    if let ExprKind::Assign(x2, value) = self.ex(*b).kind {
                        if self.same_expr(x2, x) && !self.mentions(value, x) {
                            return Some(AtomicOp::Capture { v, x: x2, op: None, value, reversed: false, capture_old: true });
                        }
                    }
                    return None;
                }
                // {update; v = x;}
                let u = self.update_form(*a)?;
                let (v, x) = self.read_form(*b)?;
                if !self.same_expr(x, u.x) {
                    return None;
                }
                Some(AtomicOp::Capture { v, x: u.x, op: Some(u.op), value: u.value, reversed: u.reversed, capture_old: false })
            }
            _ => None,
        }
    }
}

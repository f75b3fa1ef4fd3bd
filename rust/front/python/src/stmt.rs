//! Python statements → IR statements: assignments (locals typed at their
//! first assignment, tuple unpacking, `n, m = a.shape`), augmented
//! assignment, `if`/`elif`/`else`, `while`, `for` over `range` (any step
//! sign; a step of unknown sign becomes a counted loop) or `acc.loop`,
//! `break`/`continue`, `return` (results buffer or routine value), `with`
//! (acc constructs, in `acc/`), expression statements (acc directives,
//! routine calls).

use crate::cx::{Callee, Cx, Ret, RetShape, Val, Var};
use crate::expr::sub;
use crate::tree::{Node, Value};
use crate::types::{dtype_name, is_int, Weak};
use accjit_ir::{build, BinOp, Block, ComputeKind, DeviceTyped, Diagnostic, ExprKind, LocalId, LoopDirective, LoopTuning, Span, Stmt, StmtKind, Type};
use std::collections::HashSet;

type R<T> = Result<T, Diagnostic>;

impl Cx<'_> {
    /// Compile one statement, appending to `out` (temporaries first).
    pub(crate) fn stmt(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let sp = self.span(n);
        let mut here = vec![];
        match n.kind.as_str() {
            "Pass" => {}
            "Expr" => {
                let e = sub(n, "value")?;
                if e.is("Constant") {
                    // A docstring or a bare constant: nothing to do.
                } else if e.is("Call") {
                    self.call_stmt(e, &mut here)?;
                } else {
                    let x = self.expr(e)?;
                    here.push(build::expr_stmt(x, sp));
                }
            }
            "Assign" => {
                let value = sub(n, "value")?;
                let targets = n.nodes("targets");
                if targets.len() == 1 {
                    self.assign(targets[0], value, &mut here)?;
                } else {
                    // `a = b = v`: evaluate once, assign to each.
                    let v = self.value(value)?;
                    let x = self.finish(&v);
                    let (xs, xt) = self.spill(x, sp);
                    here.push(build::expr_stmt(xs, sp));
                    for t in targets {
                        let e = build::load_local(&mut self.f, xt, sp);
                        self.assign_val(t, Val { e, ty: v.ty.clone(), weak: v.weak }, &mut here)?;
                    }
                }
            }
            "AnnAssign" => match n.node("value") {
                Some(v) => self.assign(sub(n, "target")?, v, &mut here)?,
                None => return Err(self.err(n, "a declaration without a value is not supported in compiled code; assign a value")),
            },
            "AugAssign" => self.aug_assign(n, &mut here)?,
            "If" => {
                let c = self.cond(sub(n, "test")?)?;
                let then = self.block(&n.nodes("body"))?;
                let els = self.block(&n.nodes("orelse"))?;
                here.push(Stmt { kind: StmtKind::If(c, then, els), span: sp });
            }
            "While" => {
                if !n.nodes("orelse").is_empty() {
                    return Err(self.err(n, "`while ... else` is not supported in compiled code"));
                }
                let c = self.cond(sub(n, "test")?)?;
                // The condition's temporaries are declared before the loop.
                self.loops += 1;
                let body = self.block(&n.nodes("body"));
                self.loops -= 1;
                here.push(Stmt { kind: StmtKind::While(c, body?), span: sp });
            }
            "For" => {
                if !n.nodes("orelse").is_empty() {
                    return Err(self.err(n, "`for ... else` is not supported in compiled code"));
                }
                let it = sub(n, "iter")?;
                let callee = if it.is("Call") { self.resolve_call(sub(it, "func")?) } else { Callee::Unknown };
                match callee {
                    Callee::Builtin(b) if b == "range" => {
                        let args = it.nodes("args");
                        let acc = self.plain_loop_directive(sp);
                        let s = self.for_range(n, &args, acc)?;
                        here.push(s);
                    }
                    Callee::Acc(a) if a == "loop" => {
                        let s = crate::acc::for_loop(self, n, it)?;
                        here.push(s);
                    }
                    _ => return Err(self.err(it, "compiled code can only iterate over `range(...)` and `acc.loop(...)`")),
                }
            }
            "Break" | "Continue" => {
                if self.loops == 0 {
                    return Err(self.err(n, format!("`{}` outside a loop", n.kind.to_lowercase())));
                }
                here.push(Stmt { kind: if n.is("Break") { StmtKind::Break } else { StmtKind::Continue }, span: sp });
            }
            "Return" => self.return_stmt(n, &mut here)?,
            "With" => {
                let s = crate::acc::with_stmt(self, n)?;
                here.push(s);
            }
            "Assert" => return Err(self.err(n, "`assert` is not supported in compiled code")),
            "Raise" => return Err(self.err(n, "`raise` is not supported in compiled code")),
            "Try" | "TryStar" => return Err(self.err(n, "`try` is not supported in compiled code")),
            "Global" | "Nonlocal" => return Err(self.err(n, format!("`{}` is not supported in compiled code", n.kind.to_lowercase()))),
            "FunctionDef" | "AsyncFunctionDef" => return Err(self.err(n, "nested functions are not supported in compiled code; use an @acc.routine function")),
            "ClassDef" => return Err(self.err(n, "classes are not supported in compiled code")),
            "Import" | "ImportFrom" => return Err(self.err(n, "`import` is not supported in compiled code; import at module level")),
            "Delete" => return Err(self.err(n, "`del` is not supported in compiled code")),
            "AsyncFor" | "AsyncWith" => return Err(self.err(n, "async code is not supported")),
            "Match" => return Err(self.err(n, "`match` is not supported in compiled code")),
            other => return Err(self.err(n, format!("the statement `{other}` is not supported in compiled code"))),
        }
        out.append(&mut self.pending);
        out.append(&mut here);
        Ok(())
    }

    /// A call used as a statement: an acc directive, `print`, or a routine call.
    fn call_stmt(&mut self, e: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let sp = self.span(e);
        if let Some(r) = crate::acc::call_stmt(self, e) {
            out.push(r?);
            return Ok(());
        }
        if let Callee::Builtin(b) = self.resolve_call(sub(e, "func")?) {
            if b == "print" {
                let c = self.print_call(e)?;
                out.push(build::expr_stmt(c, sp));
                return Ok(());
            }
        }
        let v = self.value(e)?;
        out.push(build::expr_stmt(v.e, sp));
        Ok(())
    }

    /// `target = value`.
    fn assign(&mut self, target: &Node, value: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let sp = self.span(target);
        if target.is("Tuple") || target.is("List") {
            let names = target.nodes("elts");
            let Some(vals) = self.tuple_values(value, out)? else {
                return Err(self
                    .err(value, "only a tuple (`a, b = x, y`), a tuple variable, `a.shape` or a routine returning a tuple can be unpacked in compiled code"));
            };
            if vals.len() != names.len() {
                return Err(self.err(value, format!("{} values cannot be unpacked into {} names", vals.len(), names.len())));
            }
            // Every value is computed before any is assigned (`a, b = b, a`).
            let targets: Vec<LocalId> = names
                .iter()
                .filter_map(|t| match self.vars.get(t.str("id").unwrap_or("")) {
                    Some(Var::Scalar { local, .. }) => Some(*local),
                    _ => None,
                })
                .collect();
            let vals = self.hold_all(vals, &targets, sp, out);
            for (t, v) in names.iter().zip(vals) {
                self.assign_val(t, v, out)?;
            }
            return Ok(());
        }
        // `b = a` for an array `a`: another name for it.
        if target.is("Name") {
            if let Some(a) = self.array_named(value) {
                let name = target.str("id").unwrap_or("").to_string();
                if self.vars.contains_key(&name) {
                    return Err(self.err(target, format!("`{name}` already holds a value; an array cannot be assigned to it")));
                }
                self.vars.insert(name, Var::Array(a));
                return Ok(());
            }
            // `t = (a, b)`: a tuple variable.
            if let Some(vals) = self.tuple_values(value, out)? {
                let name = target.str("id").unwrap_or("").to_string();
                let targets: Vec<LocalId> = match self.vars.get(&name) {
                    Some(Var::Tuple(items)) => items.iter().map(|(l, _)| *l).collect(),
                    _ => vec![],
                };
                let vals = self.hold_all(vals, &targets, sp, out);
                return self.assign_tuple(target, &name, vals, out);
            }
        }
        let v = self.value(value)?;
        self.assign_val(target, v, out)
    }

    /// The values of a tuple-valued expression: a tuple display, a tuple
    /// variable, `a.shape`, or a call of a routine returning a tuple (its
    /// call is emitted into `out` first). `None` for other expressions.
    pub(crate) fn tuple_values(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<Option<Vec<Val>>> {
        let sp = self.span(n);
        match n.kind.as_str() {
            "Tuple" => {
                let mut vals = vec![];
                for e in n.nodes("elts") {
                    if e.is("Starred") {
                        return Err(self.err(e, "`*` unpacking is not supported in compiled code"));
                    }
                    vals.push(self.value(e)?);
                }
                Ok(Some(vals))
            }
            "Attribute" if n.str("attr") == Some("shape") => match self.array_named(sub(n, "value")?) {
                Some(a) => Ok(Some(a.shape.iter().map(|&d| Val { e: build::load_local(&mut self.f, d, sp), ty: Type::I64, weak: Weak::No }).collect())),
                None => Ok(None),
            },
            "Name" => match self.vars.get(n.str("id").unwrap_or("")).cloned() {
                Some(Var::Tuple(items)) => {
                    Ok(Some(items.into_iter().map(|(l, ty)| Val { e: build::load_local(&mut self.f, l, sp), ty, weak: Weak::No }).collect()))
                }
                _ => Ok(None),
            },
            "Call" => {
                let Callee::Routine(r) = self.resolve_call(sub(n, "func")?) else { return Ok(None) };
                let args = n.nodes("args");
                let (call, temps) = self.routine_invoke(n, &r, &args)?;
                match temps {
                    Some(temps) => {
                        out.append(&mut self.pending);
                        out.push(build::expr_stmt(call, sp));
                        Ok(Some(temps.into_iter().map(|(l, ty)| Val { e: build::load_local(&mut self.f, l, sp), ty, weak: Weak::No }).collect()))
                    }
                    // A single value: the caller computes it as one (the
                    // call built here is not used; the specialisation is kept).
                    None => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// Values computed now, into temporaries, except constants and reads
    /// of locals that the assignment does not write (`targets`).
    fn hold_all(&mut self, vals: Vec<Val>, targets: &[LocalId], sp: Span, out: &mut Vec<Stmt>) -> Vec<Val> {
        let mut held = vec![];
        for v in vals {
            let stable = match &self.f.expr(v.e).kind {
                ExprKind::Int(_) | ExprKind::Float(_) => true,
                ExprKind::Load(p) => matches!(self.f.expr(*p).kind, ExprKind::Local(l) if !targets.contains(&l)),
                _ => false,
            };
            if stable {
                held.push(v);
                continue;
            }
            let e = self.finish(&v);
            let (xs, xt) = self.spill(e, sp);
            out.append(&mut self.pending);
            out.push(build::expr_stmt(xs, sp));
            held.push(Val { e: build::load_local(&mut self.f, xt, sp), ty: v.ty, weak: v.weak });
        }
        held
    }

    /// `name = (v0, v1, ...)`: one local per element.
    fn assign_tuple(&mut self, target: &Node, name: &str, vals: Vec<Val>, out: &mut Vec<Stmt>) -> R<()> {
        let sp = self.span(target);
        match self.vars.get(name).cloned() {
            Some(Var::Tuple(items)) => {
                if items.len() != vals.len() {
                    return Err(self.err(target, format!("`{name}` holds {} values here; this assigns {}", items.len(), vals.len())));
                }
                for ((l, ty), v) in items.into_iter().zip(vals) {
                    self.check_assign(target, name, &v, &ty)?;
                    let x = self.convert(&v, &ty, sp);
                    let p = build::local(&mut self.f, l, sp);
                    let a = build::assign(&mut self.f, p, x, sp);
                    out.append(&mut self.pending);
                    out.push(build::expr_stmt(a, sp));
                }
            }
            Some(_) => return Err(self.err(target, format!("`{name}` holds a single value; a tuple cannot be assigned to it"))),
            None => {
                let mut items = vec![];
                for (k, v) in vals.into_iter().enumerate() {
                    if !v.ty.is_arith() {
                        return Err(self.err(target, "a tuple element must be a number"));
                    }
                    let x = self.finish(&v);
                    let l = self.f.add_local(format!("{name}.{k}"), v.ty.clone(), sp);
                    out.append(&mut self.pending);
                    out.push(Stmt { kind: StmtKind::Decl(l, Some(x)), span: sp });
                    items.push((l, v.ty));
                }
                self.vars.insert(name.to_string(), Var::Tuple(items));
                self.first_assigned.insert(name.to_string(), (sp, self.region.is_some()));
            }
        }
        Ok(())
    }

    /// Store an already computed value into `target` (a name or `a[i, j]`).
    pub(crate) fn assign_val(&mut self, target: &Node, v: Val, out: &mut Vec<Stmt>) -> R<()> {
        let sp = self.span(target);
        match target.kind.as_str() {
            "Name" => {
                let name = target.str("id").unwrap_or("").to_string();
                match self.vars.get(&name).cloned() {
                    Some(Var::Scalar { local, ty }) => {
                        self.check_assign(target, &name, &v, &ty)?;
                        let x = self.convert(&v, &ty, sp);
                        let p = build::local(&mut self.f, local, sp);
                        let a = build::assign(&mut self.f, p, x, sp);
                        out.append(&mut self.pending);
                        out.push(build::expr_stmt(a, sp));
                    }
                    Some(Var::Array(a)) => {
                        return Err(self.err(target, format!("`{}` is an array and cannot be reassigned; write its elements (`{}[i] = ...`)", a.name, a.name)))
                    }
                    Some(Var::Tuple(_)) => return Err(self.err(target, format!("`{name}` holds a tuple; a single value cannot be assigned to it"))),
                    None => {
                        if self.env.contains_key(&name) {
                            // A global of the same name: Python makes it a local.
                        }
                        let ty = v.ty.clone();
                        if !ty.is_arith() {
                            return Err(self.err(target, "only numbers can be assigned to names"));
                        }
                        let x = self.finish(&v);
                        let l = self.f.add_local(name.clone(), ty.clone(), sp);
                        self.vars.insert(name.clone(), Var::Scalar { local: l, ty });
                        self.first_assigned.insert(name, (sp, self.region.is_some()));
                        out.append(&mut self.pending);
                        out.push(Stmt { kind: StmtKind::Decl(l, Some(x)), span: sp });
                    }
                }
            }
            "Subscript" => {
                let half = self.is_half_element(target);
                let p = self.place(target)?;
                // A float16 element takes the value rounded from float32.
                let ty = if half { Type::F32 } else { self.type_of(p) };
                if crate::types::kind(&v.ty) == crate::types::Kind::Complex && crate::types::kind(&ty) != crate::types::Kind::Complex {
                    return Err(self.err(target, format!("a complex value cannot be stored into a {} array; take `.real`", dtype_name(&ty))));
                }
                let x = self.convert(&v, &ty, sp);
                let x = if half { self.f32_to_half(x, sp) } else { x };
                let a = build::assign(&mut self.f, p, x, sp);
                out.append(&mut self.pending);
                out.push(build::expr_stmt(a, sp));
            }
            "Tuple" | "List" => return Err(self.err(target, "nested unpacking is not supported in compiled code")),
            "Starred" => return Err(self.err(target, "`*` unpacking is not supported in compiled code")),
            "Attribute" => return Err(self.err(target, "attributes cannot be assigned in compiled code")),
            _ => return Err(self.err(target, "this cannot be assigned to")),
        }
        Ok(())
    }

    /// `target op= value`.
    fn aug_assign(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let sp = self.span(n);
        let target = sub(n, "target")?;
        let op = n.node("op").map(|o| o.kind.clone()).unwrap_or_default();
        let value = sub(n, "value")?;
        if target.is("Name") && !self.vars.contains_key(target.str("id").unwrap_or("")) {
            return Err(self.unknown_name(target, target.str("id").unwrap_or("")));
        }
        let half = self.is_half_element(target);
        let place = self.place(target)?;
        // float16 elements are operated on as float32 (read, computed, rounded back).
        let ty = if half { Type::F32 } else { self.type_of(place) };
        let v = self.value(value)?;
        // The operation's type, by NumPy's rules, then stored back (a local
        // keeps its type: same_kind; an array element converts as setitem).
        let cur = Val { e: place, ty: ty.clone(), weak: Weak::No };
        let (op_ty, _) = self.promote_vals(n, &cur, &v)?;
        let op_ty = if op == "Div" && crate::types::kind(&op_ty) <= crate::types::Kind::Int { Type::F64 } else { op_ty };
        if target.is("Name") {
            let name = target.str("id").unwrap_or("").to_string();
            self.check_assign(n, &name, &Val { e: v.e, ty: op_ty.clone(), weak: v.weak }, &ty)?;
        }
        let simple = match op.as_str() {
            "Add" | "Sub" | "Mult" if ty != Type::BOOL => Some(match op.as_str() {
                "Add" => BinOp::Add,
                "Sub" => BinOp::Sub,
                _ => BinOp::Mul,
            }),
            "Div" => Some(BinOp::Div),
            "BitAnd" if is_int(&op_ty) || op_ty == Type::BOOL => Some(BinOp::BitAnd),
            "BitOr" if is_int(&op_ty) || op_ty == Type::BOOL => Some(BinOp::BitOr),
            "BitXor" if is_int(&op_ty) || op_ty == Type::BOOL => Some(BinOp::BitXor),
            "LShift" if is_int(&op_ty) => Some(BinOp::Shl),
            "RShift" if is_int(&op_ty) => Some(BinOp::Shr),
            _ => None,
        };
        if let Some(bop) = simple.filter(|_| !half) {
            // C's compound assignment computes in `op_ty` and converts back:
            // the form reductions and atomics recognise (`s += x[i]`).
            let x = self.convert(&v, &op_ty, sp);
            let e = self.mk(ExprKind::CompoundAssign { op: bop, place, value: x, op_ty }, ty, sp);
            out.append(&mut self.pending);
            out.push(build::expr_stmt(e, sp));
            return Ok(());
        }
        // Other operators on a local: `v = v op value`.
        if target.is("Name") {
            let cur = build::load(&mut self.f, place, sp);
            let r = self.binop(n, &op, Val { e: cur, ty: ty.clone(), weak: Weak::No }, v)?;
            let x = self.convert(&r, &ty, sp);
            let p = self.place(target)?;
            let a = build::assign(&mut self.f, p, x, sp);
            out.append(&mut self.pending);
            out.push(build::expr_stmt(a, sp));
            return Ok(());
        }
        // On an element: read the place once through its address.
        let addr = build::addr_of(&mut self.f, place, sp);
        let (aset, at) = self.spill(addr, sp);
        out.append(&mut self.pending);
        out.push(build::expr_stmt(aset, sp));
        let p1 = build::load_local(&mut self.f, at, sp);
        let d1 = build::deref(&mut self.f, p1, sp);
        let cur = build::load(&mut self.f, d1, sp);
        let cur = if half { self.half_to_f32(cur, sp) } else { cur };
        let r = self.binop(n, &op, Val { e: cur, ty: ty.clone(), weak: Weak::No }, v)?;
        let x = self.convert(&r, &ty, sp);
        let x = if half { self.f32_to_half(x, sp) } else { x };
        let p2 = build::load_local(&mut self.f, at, sp);
        let d2 = build::deref(&mut self.f, p2, sp);
        let a = build::assign(&mut self.f, d2, x, sp);
        out.append(&mut self.pending);
        out.push(build::expr_stmt(a, sp));
        Ok(())
    }

    /// The directive of a plain `for ... in range(...)` inside a compute
    /// region: `seq` in parallel/serial, `auto` in kernels; none outside.
    fn plain_loop_directive(&self, sp: Span) -> Option<Box<LoopDirective>> {
        let kind = self.region?;
        let tuning = LoopTuning { seq: kind != ComputeKind::Kernels, auto: kind == ComputeKind::Kernels, ..Default::default() };
        Some(Box::new(LoopDirective {
            tuning: DeviceTyped { default: tuning, per_type: vec![] },
            private: vec![],
            reductions: vec![],
            construct: Some(kind),
            span: sp,
        }))
    }

    /// `for target in range(*bounds): body` as an IR `for` carrying `acc`.
    /// A constant step gives `for (i = a; i < b; i += s)` (`>` for negative
    /// steps); a step of unknown sign gives a counted loop over a hidden
    /// counter `k` with `i = a + k * s` at the top of the body.
    pub fn for_range(&mut self, for_stmt: &Node, bounds: &[&Node], acc: Option<Box<LoopDirective>>) -> R<Stmt> {
        let sp = self.span(for_stmt);
        let target = sub(for_stmt, "target")?;
        if !target.is("Name") {
            return Err(self.err(target, "the loop variable must be a single name"));
        }
        if bounds.is_empty() || bounds.len() > 3 {
            return Err(self.err(for_stmt, "`range` takes one to three arguments"));
        }
        // Bounds read locals the body assigns: evaluate them once, before the loop.
        let assigned = stored_names(&for_stmt.nodes("body"));
        let mut vals = vec![];
        for b in bounds {
            let v = self.value(b)?;
            if !(is_int(&v.ty) || v.ty == Type::BOOL) {
                return Err(self.err(b, format!("`range` needs integers, not {}", dtype_name(&v.ty))));
            }
            let bsp = self.span(b);
            let mut e = self.convert(&v, &Type::I64, bsp);
            if reads_any(b, &assigned) || has_call(b) {
                let (s, t) = self.spill(e, bsp);
                let st = build::expr_stmt(s, bsp);
                self.pending.push(st);
                e = build::load_local(&mut self.f, t, bsp);
            }
            vals.push(e);
        }
        let (lb, ub, step) = match vals.len() {
            1 => (self.i64c(0, sp), vals[0], None),
            2 => (vals[0], vals[1], None),
            _ => (vals[0], vals[1], Some(vals[2])),
        };
        let step_c = match step {
            None => Some(1),
            Some(s) => build::const_int(&self.f, s),
        };
        if step_c == Some(0) {
            return Err(self.err(bounds[2], "the step of `range` must not be zero"));
        }
        let name = target.str("id").unwrap_or("").to_string();
        let tsp = self.span(target);
        let var = match self.vars.get(&name).cloned() {
            // A name last bound by another `for` gets a fresh local, as
            // C's `for (int i = ...)` twice declares two: each loop (and each
            // kernel `lower` makes of it) then declares its own variable.
            Some(Var::Scalar { local, .. }) if self.loop_vars.contains(&local) => None,
            Some(Var::Scalar { local, ty }) if is_int(&ty) => Some(local),
            Some(Var::Scalar { ty, .. }) => return Err(self.err(target, format!("`{name}` is {} here; a loop variable must be an integer", dtype_name(&ty)))),
            Some(Var::Array(_) | Var::Tuple(_)) => return Err(self.err(target, format!("`{name}` is an array or a tuple; a loop variable must be an integer"))),
            None => None,
        };
        match step_c {
            Some(s) => {
                let mut init = vec![];
                let var = match var {
                    Some(l) => {
                        let p = build::local(&mut self.f, l, tsp);
                        let lty = self.f.local(l).ty.clone();
                        let lbc = build::cast(&mut self.f, lb, lty, tsp);
                        let a = build::assign(&mut self.f, p, lbc, tsp);
                        init.push(build::expr_stmt(a, tsp));
                        l
                    }
                    None => {
                        let l = self.f.add_local(name.clone(), Type::I64, tsp);
                        self.vars.insert(name.clone(), Var::Scalar { local: l, ty: Type::I64 });
                        self.first_assigned.insert(name.clone(), (tsp, self.region.is_some()));
                        self.loop_vars.insert(l);
                        init.push(Stmt { kind: StmtKind::Decl(l, Some(lb)), span: tsp });
                        l
                    }
                };
                let vty = self.f.local(var).ty.clone();
                let iv = build::load_local(&mut self.f, var, sp);
                let ubc = build::cast(&mut self.f, ub, vty.clone(), sp);
                let cond = build::cmp(&mut self.f, if s > 0 { BinOp::Lt } else { BinOp::Gt }, iv, ubc, sp);
                let p = build::local(&mut self.f, var, sp);
                let sv = match step {
                    Some(st) => build::cast(&mut self.f, st, vty.clone(), sp),
                    None => build::int(&mut self.f, 1, vty.clone(), sp),
                };
                let stepe = self.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: sv, op_ty: vty.clone() }, vty, sp);
                let body = self.loop_body(for_stmt, vec![])?;
                Ok(Stmt { kind: StmtKind::For { init: Block::new(init), cond: Some(cond), step: Some(stepe), body, acc }, span: sp })
            }
            None => {
                // Counted loop: trip = s > 0 ? (b - a + s - 1) / s : (a - b - s - 1) / (-s).
                let st = step.unwrap();
                let (a_set, a_t) = self.spill(lb, sp);
                let (s_set, s_t) = self.spill(st, sp);
                let (b_set, b_t) = self.spill(ub, sp);
                for e in [a_set, s_set, b_set] {
                    let s = build::expr_stmt(e, sp);
                    self.pending.push(s);
                }
                let ld = |cx: &mut Self, l: LocalId| build::load_local(&mut cx.f, l, sp);
                let (a1, b1, s1, s2) = (ld(self, a_t), ld(self, b_t), ld(self, s_t), ld(self, s_t));
                let d = self.binary(BinOp::Sub, b1, a1, Type::I64, sp);
                let d = self.binary(BinOp::Add, d, s1, Type::I64, sp);
                let one = self.i64c(1, sp);
                let d = self.binary(BinOp::Sub, d, one, Type::I64, sp);
                let up = self.binary(BinOp::Div, d, s2, Type::I64, sp);
                let (a2, b2, s3, s4) = (ld(self, a_t), ld(self, b_t), ld(self, s_t), ld(self, s_t));
                let d = self.binary(BinOp::Sub, a2, b2, Type::I64, sp);
                let d = self.binary(BinOp::Sub, d, s3, Type::I64, sp);
                let one = self.i64c(1, sp);
                let d = self.binary(BinOp::Sub, d, one, Type::I64, sp);
                let ns = self.mk(ExprKind::Unary(accjit_ir::UnOp::Neg, s4), Type::I64, sp);
                let down = self.binary(BinOp::Div, d, ns, Type::I64, sp);
                let s5 = ld(self, s_t);
                let z = self.i64c(0, sp);
                let pos = build::cmp(&mut self.f, BinOp::Gt, s5, z, sp);
                let trip = self.mk(ExprKind::Cond(pos, up, down), Type::I64, sp);
                let (t_set, t_t) = self.spill(trip, sp);
                let s = build::expr_stmt(t_set, sp);
                self.pending.push(s);
                let k = self.f.add_local(format!("__{name}_k"), Type::I64, tsp);
                let z = self.i64c(0, sp);
                let init = vec![Stmt { kind: StmtKind::Decl(k, Some(z)), span: tsp }];
                let kv = ld(self, k);
                let tv = ld(self, t_t);
                let cond = build::cmp(&mut self.f, BinOp::Lt, kv, tv, sp);
                let kp = build::local(&mut self.f, k, sp);
                let one = self.i64c(1, sp);
                let stepe = self.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: kp, value: one, op_ty: Type::I64 }, Type::I64, sp);
                // i = a + k * s
                let (a3, k2, s6) = (ld(self, a_t), ld(self, k), ld(self, s_t));
                let ks = self.binary(BinOp::Mul, k2, s6, Type::I64, sp);
                let iv = self.binary(BinOp::Add, a3, ks, Type::I64, sp);
                let first = match var {
                    Some(l) => {
                        let p = build::local(&mut self.f, l, tsp);
                        let lty = self.f.local(l).ty.clone();
                        let ivc = build::cast(&mut self.f, iv, lty, tsp);
                        let a = build::assign(&mut self.f, p, ivc, tsp);
                        build::expr_stmt(a, tsp)
                    }
                    None => {
                        let l = self.f.add_local(name.clone(), Type::I64, tsp);
                        self.vars.insert(name.clone(), Var::Scalar { local: l, ty: Type::I64 });
                        self.first_assigned.insert(name.clone(), (tsp, self.region.is_some()));
                        self.loop_vars.insert(l);
                        Stmt { kind: StmtKind::Decl(l, Some(iv)), span: tsp }
                    }
                };
                let body = self.loop_body(for_stmt, vec![first])?;
                Ok(Stmt { kind: StmtKind::For { init: Block::new(init), cond: Some(cond), step: Some(stepe), body, acc }, span: sp })
            }
        }
    }

    /// The body of a `for` statement, after `prefix`.
    fn loop_body(&mut self, for_stmt: &Node, prefix: Vec<Stmt>) -> R<Block> {
        self.loops += 1;
        let body = self.block(&for_stmt.nodes("body"));
        self.loops -= 1;
        let mut stmts = prefix;
        stmts.extend(body?.stmts);
        Ok(Block::new(stmts))
    }

    /// `return` / `return v` / `return a, b`.
    fn return_stmt(&mut self, n: &Node, out: &mut Vec<Stmt>) -> R<()> {
        let sp = self.span(n);
        if self.in_region() {
            return Err(self.err(n, "`return` inside a compute region").with_hint("return after the region (the function's last statement)"));
        }
        let vals = match n.node("value") {
            None => vec![],
            Some(v) if v.is("Constant") && v.get("value") == &Value::None => vec![],
            Some(v) => match self.tuple_values(v, out)? {
                Some(vals) => vals,
                None => vec![self.value(v)?],
            },
        };
        for v in &vals {
            if !v.ty.is_arith() {
                return Err(Diagnostic::error(sp, "only numbers can be returned"));
            }
        }
        // The first `return` fixes the result types; later ones must agree.
        let (known, first) = match &self.ret {
            Ret::Buffer { types, first, .. } | Ret::Outs { types, first, .. } => (types.clone(), *first),
            Ret::Value { ty, first, .. } => (ty.clone().map(|t| if t == Type::Void { vec![] } else { vec![t] }), *first),
        };
        let types = match known {
            Some(t) => {
                if t.len() != vals.len() {
                    let many = |k: usize| format!("{k} value{}", if k == 1 { "" } else { "s" });
                    return Err(Diagnostic::error(sp, format!("this returns {} but an earlier `return` returns {}", many(vals.len()), t.len()))
                        .with_note(first, "the earlier return"));
                }
                for (v, ty) in vals.iter().zip(&t) {
                    if !crate::types::can_assign(&v.ty, v.weak, ty) {
                        return Err(Diagnostic::error(sp, format!("this returns {} but an earlier `return` returns {}", dtype_name(&v.ty), dtype_name(ty)))
                            .with_note(first, "the earlier return"));
                    }
                }
                t
            }
            None => {
                let t: Vec<Type> = vals.iter().map(|v| v.ty.clone()).collect();
                match &mut self.ret {
                    Ret::Buffer { types, first, .. } => {
                        *types = Some(t.clone());
                        *first = sp;
                    }
                    Ret::Outs { func, outs, types, first } => {
                        if outs.len() != t.len() {
                            let (func, k) = (*func, outs.len());
                            let _ = func;
                            return Err(Diagnostic::error(sp, format!("this returns {} values but the routine's first `return` returns {k}", t.len())));
                        }
                        *types = Some(t.clone());
                        *first = sp;
                        let (func, outs) = (*func, outs.clone());
                        for (l, ty) in outs.iter().zip(&t) {
                            self.f.locals[l.index()].ty = Type::ptr(ty.clone());
                        }
                        let n = self.f.sig.params.len() - outs.len();
                        for (k, ty) in t.iter().enumerate() {
                            self.f.sig.params[n + k] = Type::ptr(ty.clone());
                        }
                        self.sh.spec_ret.insert(func, Some(RetShape::Tuple(t.clone())));
                    }
                    Ret::Value { func, ty, first } => {
                        if t.len() > 1 {
                            return Err(Diagnostic::error(sp, "internal: a tuple returned by a single-value routine"));
                        }
                        let one = t.first().cloned().unwrap_or(Type::Void);
                        *ty = Some(one.clone());
                        *first = sp;
                        let func = *func;
                        self.sh.spec_ret.insert(func, Some(RetShape::Value(one)));
                    }
                }
                t
            }
        };
        let mut ret_value = None;
        for (k, (v, ty)) in vals.iter().zip(&types).enumerate() {
            let x = self.convert(v, ty, sp);
            let dest = match &self.ret {
                Ret::Buffer { local, .. } => {
                    let l = local.ok_or_else(|| Diagnostic::error(sp, "internal: no results buffer"))?;
                    let base = build::load_local(&mut self.f, l, sp);
                    let off = self.i64c(16 * k as i64, sp);
                    let p = self.binary(BinOp::Add, base, off, Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)), sp);
                    build::cast(&mut self.f, p, Type::ptr(ty.clone()), sp)
                }
                Ret::Outs { outs, .. } => {
                    let l = outs[k];
                    build::load_local(&mut self.f, l, sp)
                }
                Ret::Value { .. } => {
                    ret_value = Some(x);
                    continue;
                }
            };
            let d = build::deref(&mut self.f, dest, sp);
            let a = build::assign(&mut self.f, d, x, sp);
            out.append(&mut self.pending);
            out.push(build::expr_stmt(a, sp));
        }
        out.append(&mut self.pending);
        out.push(Stmt { kind: StmtKind::Return(ret_value), span: sp });
        Ok(())
    }
}

/// Names assigned anywhere in `body` (targets of assignments, loops, `with ... as`).
pub(crate) fn stored_names(body: &[&Node]) -> HashSet<String> {
    let mut out = HashSet::new();
    fn walk(n: &Node, out: &mut HashSet<String>) {
        if n.is("Name") && n.str("ctx") == Some("Store") {
            out.insert(n.str("id").unwrap_or("").to_string());
        }
        for (_, v) in &n.fields {
            walk_value(v, out);
        }
    }
    fn walk_value(v: &Value, out: &mut HashSet<String>) {
        match v {
            Value::Node(n) => walk(n, out),
            Value::List(items) => items.iter().for_each(|x| walk_value(x, out)),
            _ => {}
        }
    }
    for n in body {
        walk(n, &mut out);
    }
    out
}

/// Whether expression `n` reads any of `names`.
fn reads_any(n: &Node, names: &HashSet<String>) -> bool {
    if n.is("Name") {
        return names.contains(n.str("id").unwrap_or(""));
    }
    n.fields.iter().any(|(_, v)| value_reads(v, names))
}

fn value_reads(v: &Value, names: &HashSet<String>) -> bool {
    match v {
        Value::Node(n) => reads_any(n, names),
        Value::List(items) => items.iter().any(|x| value_reads(x, names)),
        _ => false,
    }
}

/// Whether `n` calls something that may have effects or cost (a routine;
/// not `len`, casts or math functions).
fn has_call(n: &Node) -> bool {
    let pure = |c: &Node| c.node("func").map(|f| f.is("Name") && matches!(f.str("id"), Some("len" | "min" | "max" | "abs" | "int" | "float"))).unwrap_or(false);
    n.is("Call") && !pure(n)
        || n.fields.iter().any(|(_, v)| match v {
            Value::Node(c) => has_call(c),
            Value::List(items) => items.iter().any(|x| matches!(x, Value::Node(c) if has_call(c))),
            _ => false,
        })
}

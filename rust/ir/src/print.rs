//! A stable, readable text form of the IR, for snapshot tests
//! (`tests/out/ir/*.txt`), `accjit ir` and debugging.
//!
//! The output is deterministic (everything is printed in arena/declaration
//! order) and has one statement per line, with blocks indented by two spaces.
//!
//! Notation:
//! - locals are `%name.N` (N = `LocalId`), globals `@name`, defined functions
//!   `@name(...)`, extern functions `$name(...)`, labels `name.N:`;
//! - a place in value position is read (`Load` is implicit: `%x.1` reads `x`),
//!   `&p` takes an address, `*e` dereferences a pointer value;
//! - constants carry their type (`1:i32`, `2.5:f64`, `0:*f64`), conversions
//!   print as `cast<ty>(e)`; binary and unary operators are parenthesised;
//! - types: `i32`, `*f64`, `[10 x f32]`, `[? x i8]`, `struct Name`,
//!   `complex<f64>`, `desc<f32, 2>`, `fn(i32, ...) -> i32`;
//! - OpenACC constructs as written print as `#acc ...` lines with their
//!   clauses; lowered forms as `acc_loop ...` and `launch kN ...`.

use crate::acc::*;
use crate::module::*;
use crate::reduce::{PrivateReduction, RedForm, RedStorage};
use crate::types::{FuncSig, StructDef, Type};
use std::fmt::{self, Write};

/// The whole module: structs, globals, externs, functions, kernels.
pub fn module_to_string(m: &Module) -> String {
    let mut p = Printer { m, out: String::new() };
    p.module();
    p.out
}

/// One function of `m` (which supplies struct, callee and global names).
pub fn function_to_string(m: &Module, f: &Function) -> String {
    let mut p = Printer { m, out: String::new() };
    p.function("fn", f, None);
    p.out
}

/// One expression of `f`, on one line.
pub fn expr_to_string(m: &Module, f: &Function, e: ExprId) -> String {
    let p = Printer { m, out: String::new() };
    p.expr(f, e)
}

/// A type in the printer's notation; struct names come from `structs`.
pub fn type_to_string(ty: &Type, structs: &[StructDef]) -> String {
    let mut s = String::new();
    write_type(&mut s, ty, structs);
    s
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&module_to_string(self))
    }
}

fn write_type(s: &mut String, ty: &Type, structs: &[StructDef]) {
    match ty {
        Type::Void => s.push_str("void"),
        Type::Scalar(sc) => s.push_str(sc.name()),
        Type::Complex(sc) => {
            let _ = write!(s, "complex<{}>", sc.name());
        }
        Type::Ptr(t) => {
            s.push('*');
            write_type(s, t, structs);
        }
        Type::Array(t, n) => {
            match n {
                Some(n) => {
                    let _ = write!(s, "[{} x ", n);
                }
                None => s.push_str("[? x "),
            }
            write_type(s, t, structs);
            s.push(']');
        }
        Type::Struct(id) => match structs.get(id.0 as usize) {
            Some(d) => {
                let _ = write!(s, "{} {}", if d.is_union { "union" } else { "struct" }, d.name);
            }
            None => {
                let _ = write!(s, "struct#{}", id.0);
            }
        },
        Type::Func(sig) => write_sig(s, sig, structs),
        Type::Desc { elem, rank } => {
            s.push_str("desc<");
            write_type(s, elem, structs);
            let _ = write!(s, ", {}>", rank);
        }
    }
}

fn write_sig(s: &mut String, sig: &FuncSig, structs: &[StructDef]) {
    s.push_str("fn(");
    for (i, p) in sig.params.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        write_type(s, p, structs);
    }
    if sig.variadic {
        s.push_str(if sig.params.is_empty() { "..." } else { ", ..." });
    }
    s.push_str(") -> ");
    write_type(s, &sig.ret, structs);
}

fn binop(op: BinOp) -> &'static str {
    op.symbol()
}

fn atomic_op(op: AtomicBinOp) -> &'static str {
    match op {
        AtomicBinOp::Add => "+",
        AtomicBinOp::Sub => "-",
        AtomicBinOp::Mul => "*",
        AtomicBinOp::Div => "/",
        AtomicBinOp::BitAnd => "&",
        AtomicBinOp::BitOr => "|",
        AtomicBinOp::BitXor => "^",
        AtomicBinOp::Shl => "<<",
        AtomicBinOp::Shr => ">>",
        AtomicBinOp::Max => "max",
        AtomicBinOp::Min => "min",
        AtomicBinOp::LogAnd => "&&",
        AtomicBinOp::LogOr => "||",
    }
}

fn level_name(l: Level) -> &'static str {
    match l {
        Level::Gang => "gang",
        Level::Worker => "worker",
        Level::Vector => "vector",
        Level::Seq => "seq",
    }
}

fn escape_bytes(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{:02x}", b);
            }
        }
    }
    s.push('"');
    s
}

struct Printer<'m> {
    m: &'m Module,
    out: String,
}

impl<'m> Printer<'m> {
    fn ty(&self, ty: &Type) -> String {
        type_to_string(ty, &self.m.structs)
    }

    fn line(&mut self, indent: usize, text: &str) {
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn module(&mut self) {
        let m = self.m;
        for (i, s) in m.structs.iter().enumerate() {
            let kw = if s.is_union { "union" } else { "struct" };
            if !s.complete {
                self.line(0, &format!("{} #{} {} (incomplete)", kw, i, s.name));
                continue;
            }
            let fields: Vec<String> = s.fields.iter().map(|f| format!("{}: {} @{}", f.name, self.ty(&f.ty), f.offset)).collect();
            self.line(0, &format!("{} #{} {} {{ {} }} size {} align {}", kw, i, s.name, fields.join(", "), s.size, s.align));
        }
        for g in &m.globals {
            let mut s = format!("global @{}: {} {}", g.name, self.ty(&g.ty), linkage(g.linkage));
            if g.is_const {
                s.push_str(" const");
            }
            if let Some(d) = &g.declare {
                let _ = write!(s, " declare({})", d.kind.name());
            }
            if let Some(init) = &g.init {
                let printable = matches!(&g.ty, Type::Array(t, _) if matches!(**t, Type::Scalar(crate::Scalar::I8) | Type::Scalar(crate::Scalar::U8)));
                if printable {
                    let _ = write!(s, " = {}", escape_bytes(&init.bytes));
                } else {
                    s.push_str(" = x\"");
                    for b in &init.bytes {
                        let _ = write!(s, "{:02x}", b);
                    }
                    s.push('"');
                }
                for r in &init.relocs {
                    let target = match r.target {
                        RelocTarget::Global(g) => format!("@{}", m.globals.get(g.index()).map(|g| g.name.as_str()).unwrap_or("?")),
                        RelocTarget::Func(f) => format!("@{}", m.functions.get(f.index()).map(|f| f.name.as_str()).unwrap_or("?")),
                        RelocTarget::Extern(e) => format!("${}", m.externs.get(e.index()).map(|e| e.name.as_str()).unwrap_or("?")),
                    };
                    let _ = write!(s, " reloc(+{} -> {} + {})", r.offset, target, r.addend);
                }
            }
            self.line(0, &s);
        }
        for e in &m.externs {
            let mut s = format!("extern ${}: ", e.name);
            write_sig(&mut s, &e.sig, &m.structs);
            self.line(0, &s);
        }
        for f in &m.functions {
            self.out.push('\n');
            self.function("fn", f, None);
        }
        for (i, k) in m.kernels.iter().enumerate() {
            self.out.push('\n');
            self.function(&format!("kernel k{}", i), &k.func, Some(k));
        }
    }

    fn function(&mut self, kw: &str, f: &Function, kernel: Option<&Kernel>) {
        let nparams = f.sig.params.len();
        let params: Vec<String> = (0..nparams)
            .map(|i| {
                let l = LocalId(i as u32);
                let ty = f.locals.get(i).map(|l| l.ty.clone()).unwrap_or_else(|| f.sig.params[i].clone());
                let mut s = format!("{}: {}", self.local_name(f, l), self.ty(&ty));
                if let Some(k) = kernel {
                    if let Some(p) = k.params.get(i) {
                        s.push_str(match p.kind {
                            ParamKind::Value => " value",
                            ParamKind::DeviceAddr => " devaddr",
                            ParamKind::Snapshot => " snapshot",
                        });
                    }
                }
                s
            })
            .collect();
        let mut head = format!("{} @{}({}", kw, f.name, params.join(", "));
        if f.sig.variadic {
            head.push_str(if nparams == 0 { "..." } else { ", ..." });
        }
        let _ = write!(head, ") -> {} {}", self.ty(&f.sig.ret), linkage(f.linkage));
        if let Some(k) = kernel {
            let _ = write!(head, " {}", k.construct.name());
            if let Some(g) = k.max_gangs {
                let _ = write!(head, " max_gangs({})", g);
            }
            if k.gang_dims > 1 {
                let _ = write!(head, " gang_dims({})", k.gang_dims);
            }
        }
        if let Some(r) = &f.routine {
            let _ = write!(head, " routine({})", level_name(r.level));
            if r.gang_dim > 1 {
                let _ = write!(head, " dim({})", r.gang_dim);
            }
            if let Some(b) = &r.bind {
                let _ = write!(head, " bind({})", b);
            }
            if r.nohost {
                head.push_str(" nohost");
            }
        }
        head.push_str(" {");
        self.line(0, &head);
        if let Some(k) = kernel {
            for r in &k.reductions {
                let line = format!("reduction({}) -> {}", self.red_private(&k.func, r), self.expr(&k.func, r.target));
                self.line(1, &line);
            }
        }
        for i in nparams..f.locals.len() {
            let l = &f.locals[i];
            let line = format!("local {}: {}", self.local_name(f, LocalId(i as u32)), self.ty(&l.ty));
            self.line(1, &line);
        }
        self.block_body(f, &f.body, 1);
        self.line(0, "}");
    }

    /// `op: private: type` of a reduction, with the form of a non-scalar one
    /// (`+: %h.7: i32 section x %n.3`).
    fn red_private(&self, f: &Function, r: &PrivateReduction) -> String {
        let head = format!("{}: {}: {}", r.op.symbol(), self.local_name(f, r.private), self.ty(&r.ty));
        match &r.form {
            RedForm::Scalar => head,
            RedForm::Objects { kind, count, storage } => {
                let at = match storage {
                    RedStorage::At(p) => format!(" at {}", self.expr(f, *p)),
                    RedStorage::Copy(_) => String::new(),
                };
                format!("{} {} x {}{}", head, format!("{kind:?}").to_lowercase(), self.expr(f, *count), at)
            }
        }
    }

    fn local_name(&self, f: &Function, l: LocalId) -> String {
        match f.locals.get(l.index()) {
            Some(loc) => format!("%{}.{}", loc.name, l.0),
            None => format!("%?.{}", l.0),
        }
    }

    fn label_name(&self, f: &Function, l: LabelId) -> String {
        format!("{}.{}", f.labels.get(l.index()).map(|s| s.as_str()).unwrap_or("?"), l.0)
    }

    fn block_body(&mut self, f: &Function, b: &Block, indent: usize) {
        for s in &b.stmts {
            self.stmt(f, s, indent);
        }
    }

    /// `head {`, the block, `}`.
    fn nested(&mut self, f: &Function, head: &str, b: &Block, indent: usize) {
        if head.is_empty() {
            self.line(indent, "{");
        } else {
            self.line(indent, &format!("{} {{", head));
        }
        self.block_body(f, b, indent + 1);
        self.line(indent, "}");
    }

    /// A statement printed inline (for `for` headers).
    fn inline_stmt(&self, f: &Function, s: &Stmt) -> String {
        match &s.kind {
            StmtKind::Expr(e) => self.top_expr(f, *e),
            StmtKind::Decl(l, init) => self.decl(f, *l, *init),
            StmtKind::Block(b) => b.stmts.iter().map(|s| self.inline_stmt(f, s)).collect::<Vec<_>>().join("; "),
            _ => "<stmt>".to_string(),
        }
    }

    fn decl(&self, f: &Function, l: LocalId, init: Option<ExprId>) -> String {
        let ty = f.locals.get(l.index()).map(|l| self.ty(&l.ty)).unwrap_or_else(|| "?".into());
        match init {
            Some(e) => format!("decl {}: {} = {}", self.local_name(f, l), ty, self.top_expr(f, e)),
            None => format!("decl {}: {}", self.local_name(f, l), ty),
        }
    }

    fn stmt(&mut self, f: &Function, s: &Stmt, indent: usize) {
        match &s.kind {
            StmtKind::Expr(e) => {
                let t = format!("{};", self.top_expr(f, *e));
                self.line(indent, &t);
            }
            StmtKind::Decl(l, init) => {
                let t = format!("{};", self.decl(f, *l, *init));
                self.line(indent, &t);
            }
            StmtKind::ZeroFill(p) => {
                let t = format!("zero {};", self.expr(f, *p));
                self.line(indent, &t);
            }
            StmtKind::If(c, t, e) => {
                let head = format!("if {}", self.top_expr(f, *c));
                self.line(indent, &format!("{} {{", head));
                self.block_body(f, t, indent + 1);
                if e.stmts.is_empty() {
                    self.line(indent, "}");
                } else {
                    self.line(indent, "} else {");
                    self.block_body(f, e, indent + 1);
                    self.line(indent, "}");
                }
            }
            StmtKind::While(c, b) => {
                let head = format!("while {}", self.top_expr(f, *c));
                self.nested(f, &head, b, indent);
            }
            StmtKind::DoWhile(b, c) => {
                self.line(indent, "do {");
                self.block_body(f, b, indent + 1);
                let t = format!("}} while {};", self.top_expr(f, *c));
                self.line(indent, &t);
            }
            StmtKind::For { init, cond, step, body, acc } => {
                if let Some(d) = acc {
                    let t = self.loop_directive(f, d);
                    self.line(indent, &t);
                }
                let init_s = init.stmts.iter().map(|s| self.inline_stmt(f, s)).collect::<Vec<_>>().join("; ");
                let cond_s = cond.map(|c| self.top_expr(f, c)).unwrap_or_default();
                let step_s = step.map(|c| self.top_expr(f, c)).unwrap_or_default();
                let head = format!("for ({}; {}; {})", init_s, cond_s, step_s);
                self.nested(f, &head, body, indent);
            }
            StmtKind::Switch(e, cases) => {
                let head = format!("switch {} {{", self.top_expr(f, *e));
                self.line(indent, &head);
                for c in cases {
                    let label = match c.value {
                        Some(v) => format!("case {}:", v),
                        None => "default:".to_string(),
                    };
                    self.line(indent, &label);
                    self.block_body(f, &c.body, indent + 1);
                }
                self.line(indent, "}");
            }
            StmtKind::Break => self.line(indent, "break;"),
            StmtKind::Continue => self.line(indent, "continue;"),
            StmtKind::Return(e) => {
                let t = match e {
                    Some(e) => format!("return {};", self.top_expr(f, *e)),
                    None => "return;".to_string(),
                };
                self.line(indent, &t);
            }
            StmtKind::Goto(l) => {
                let t = format!("goto {};", self.label_name(f, *l));
                self.line(indent, &t);
            }
            StmtKind::Label(l) => {
                let t = format!("{}:", self.label_name(f, *l));
                self.line(indent, &t);
            }
            StmtKind::Block(b) => self.nested(f, "", b, indent),
            StmtKind::Compute(c) => {
                let head = self.compute_head(f, c);
                self.nested(f, &head, &c.body, indent);
            }
            StmtKind::Data(d) => {
                let mut head = String::from("#acc data");
                if let Some(c) = d.if_cond {
                    let _ = write!(head, " if({})", self.top_expr(f, c));
                }
                if let Some(k) = d.default {
                    head.push_str(default_name(k));
                }
                self.tuning(f, &mut head, &d.tuning);
                self.data_clauses(f, &mut head, &d.data);
                self.nested(f, &head, &d.body, indent);
            }
            StmtKind::HostData(h) => {
                let mut head = String::from("#acc host_data");
                if let Some(c) = h.if_cond {
                    let _ = write!(head, " if({})", self.top_expr(f, c));
                }
                if h.if_present {
                    head.push_str(" if_present");
                }
                let _ = write!(head, " use_device({})", self.varrefs(f, &h.use_device));
                self.nested(f, &head, &h.body, indent);
            }
            StmtKind::Exec(x) => {
                let t = self.exec(f, x);
                self.line(indent, &t);
            }
            StmtKind::Atomic(a) => {
                let t = self.atomic(f, a);
                self.line(indent, &t);
            }
            StmtKind::AccLoop(l) => {
                let head = self.acc_loop_head(f, l);
                self.nested(f, &head, &l.body, indent);
            }
            StmtKind::Launch(l) => {
                let t = self.launch(f, l);
                self.line(indent, &t);
            }
            StmtKind::Privates(copies, b) => {
                let head = format!("privates {}", self.private_copies(f, copies));
                self.nested(f, &head, b, indent);
            }
        }
    }

    fn private_copies(&self, f: &Function, copies: &[PrivateCopy]) -> String {
        let c: Vec<String> = copies
            .iter()
            .map(|c| {
                let mut t = format!(
                    "{} = copy({} bytes, {}) - {}",
                    self.local_name(f, c.ptr),
                    self.top_expr(f, c.bytes),
                    self.ty(&c.elem_ty),
                    self.top_expr(f, c.offset)
                );
                match c.init {
                    CopyInit::Undefined => {}
                    CopyInit::From(i) => {
                        let _ = write!(t, " from {}", self.top_expr(f, i));
                    }
                    CopyInit::Identity(op) => {
                        let _ = write!(t, " identity({})", op.symbol());
                    }
                }
                t
            })
            .collect();
        format!("[{}]", c.join("; "))
    }

    fn varref(&self, f: &Function, v: &VarRef) -> String {
        let _ = f;
        if v.deep {
            format!("{} (deep)", v.text)
        } else {
            v.text.clone()
        }
    }

    fn varrefs(&self, f: &Function, vs: &[VarRef]) -> String {
        vs.iter().map(|v| self.varref(f, v)).collect::<Vec<_>>().join(", ")
    }

    fn data_clauses(&self, f: &Function, s: &mut String, cs: &[DataClause]) {
        for c in cs {
            let _ = write!(s, " {}(", c.kind.name());
            if c.readonly {
                s.push_str("readonly: ");
            }
            if c.zero {
                s.push_str("zero: ");
            }
            s.push_str(&self.varrefs(f, &c.vars));
            s.push(')');
        }
    }

    fn reductions(&self, f: &Function, s: &mut String, rs: &[Reduction]) {
        for r in rs {
            let _ = write!(s, " reduction({}: {})", r.op.symbol(), self.varrefs(f, &r.vars));
        }
    }

    fn async_clause(&self, f: &Function, s: &mut String, a: &AsyncClause) {
        match a {
            None => {}
            Some(None) => s.push_str(" async"),
            Some(Some(e)) => {
                let _ = write!(s, " async({})", self.top_expr(f, *e));
            }
        }
    }

    fn wait_args(&self, f: &Function, w: &WaitArgs) -> String {
        let mut parts = vec![];
        if let Some(d) = w.devnum {
            parts.push(format!("devnum: {}:", self.top_expr(f, d)));
        }
        for q in &w.queues {
            parts.push(self.top_expr(f, *q));
        }
        parts.join(", ")
    }

    fn tuning_one(&self, f: &Function, s: &mut String, t: &ComputeTuning) {
        if !t.num_gangs.is_empty() {
            let g: Vec<String> = t.num_gangs.iter().map(|e| self.top_expr(f, *e)).collect();
            let _ = write!(s, " num_gangs({})", g.join(", "));
        }
        if let Some(e) = t.num_workers {
            let _ = write!(s, " num_workers({})", self.top_expr(f, e));
        }
        if let Some(e) = t.vector_length {
            let _ = write!(s, " vector_length({})", self.top_expr(f, e));
        }
        self.async_clause(f, s, &t.async_);
        if let Some(w) = &t.wait {
            let _ = write!(s, " wait({})", self.wait_args(f, w));
        }
    }

    fn tuning(&self, f: &Function, s: &mut String, t: &DeviceTyped<ComputeTuning>) {
        self.tuning_one(f, s, &t.default);
        for (names, t) in &t.per_type {
            let _ = write!(s, " device_type({})", names.join(", "));
            self.tuning_one(f, s, t);
        }
    }

    fn compute_head(&self, f: &Function, c: &ComputeConstruct) -> String {
        let mut s = format!("#acc {}", c.kind.name());
        if c.combined {
            s.push_str(" (combined)");
        }
        self.tuning(f, &mut s, &c.tuning);
        if let Some(e) = c.if_cond {
            let _ = write!(s, " if({})", self.top_expr(f, e));
        }
        match c.self_cond {
            None => {}
            Some(None) => s.push_str(" self"),
            Some(Some(e)) => {
                let _ = write!(s, " self({})", self.top_expr(f, e));
            }
        }
        if let Some(k) = c.default {
            s.push_str(default_name(k));
        }
        self.data_clauses(f, &mut s, &c.data);
        if !c.private.is_empty() {
            let _ = write!(s, " private({})", self.varrefs(f, &c.private));
        }
        if !c.firstprivate.is_empty() {
            let _ = write!(s, " firstprivate({})", self.varrefs(f, &c.firstprivate));
        }
        self.reductions(f, &mut s, &c.reductions);
        s
    }

    fn loop_tuning(&self, f: &Function, s: &mut String, t: &LoopTuning) {
        if let Some(g) = &t.gang {
            let mut args = vec![];
            if let Some(n) = g.num {
                args.push(format!("num: {}", self.top_expr(f, n)));
            }
            match g.static_ {
                None => {}
                Some(None) => args.push("static: *".into()),
                Some(Some(e)) => args.push(format!("static: {}", self.top_expr(f, e))),
            }
            if let Some(d) = g.dim {
                args.push(format!("dim: {}", d));
            }
            if args.is_empty() {
                s.push_str(" gang");
            } else {
                let _ = write!(s, " gang({})", args.join(", "));
            }
        }
        for (name, v) in [("worker", &t.worker), ("vector", &t.vector)] {
            match v {
                None => {}
                Some(None) => {
                    let _ = write!(s, " {}", name);
                }
                Some(Some(e)) => {
                    let _ = write!(s, " {}({})", name, self.top_expr(f, *e));
                }
            }
        }
        if t.seq {
            s.push_str(" seq");
        }
        if t.auto {
            s.push_str(" auto");
        }
        if t.independent {
            s.push_str(" independent");
        }
        if let Some((n, force)) = t.collapse {
            let _ = write!(s, " collapse({}{})", if force { "force: " } else { "" }, n);
        }
        if !t.tile.is_empty() {
            let sizes: Vec<String> = t.tile.iter().map(|e| e.map(|e| self.top_expr(f, e)).unwrap_or_else(|| "*".into())).collect();
            let _ = write!(s, " tile({})", sizes.join(", "));
        }
    }

    fn loop_directive(&self, f: &Function, d: &LoopDirective) -> String {
        let mut s = String::from("#acc loop");
        self.loop_tuning(f, &mut s, &d.tuning.default);
        for (names, t) in &d.tuning.per_type {
            let _ = write!(s, " device_type({})", names.join(", "));
            self.loop_tuning(f, &mut s, t);
        }
        if !d.private.is_empty() {
            let _ = write!(s, " private({})", self.varrefs(f, &d.private));
        }
        self.reductions(f, &mut s, &d.reductions);
        if let Some(k) = d.construct {
            let _ = write!(s, " (in {})", k.name());
        }
        s
    }

    fn exec(&self, f: &Function, x: &ExecDirective) -> String {
        let mut s = String::from("#acc ");
        match &x.kind {
            ExecKind::EnterData => s.push_str("enter data"),
            ExecKind::ExitData { finalize } => {
                s.push_str("exit data");
                if *finalize {
                    s.push_str(" finalize");
                }
            }
            ExecKind::Update { if_present } => {
                s.push_str("update");
                if *if_present {
                    s.push_str(" if_present");
                }
            }
            ExecKind::Wait(w) => {
                s.push_str("wait");
                if w.devnum.is_some() || !w.queues.is_empty() {
                    let _ = write!(s, "({})", self.wait_args(f, w));
                }
            }
            ExecKind::Init { device_types, device_num } | ExecKind::Shutdown { device_types, device_num } => {
                s.push_str(if matches!(x.kind, ExecKind::Init { .. }) { "init" } else { "shutdown" });
                if !device_types.is_empty() {
                    let _ = write!(s, " device_type({})", device_types.join(", "));
                }
                if let Some(e) = device_num {
                    let _ = write!(s, " device_num({})", self.top_expr(f, *e));
                }
            }
            ExecKind::Set { default_async, device_num, device_types } => {
                s.push_str("set");
                if let Some(e) = default_async {
                    let _ = write!(s, " default_async({})", self.top_expr(f, *e));
                }
                if let Some(e) = device_num {
                    let _ = write!(s, " device_num({})", self.top_expr(f, *e));
                }
                if !device_types.is_empty() {
                    let _ = write!(s, " device_type({})", device_types.join(", "));
                }
            }
            // `cache(readonly: a[i:3])`: the clause is the directive's own list.
            ExecKind::Cache => {
                let readonly = if x.data.iter().any(|c| c.readonly) { "readonly: " } else { "" };
                let vars: Vec<String> = x.data.iter().map(|c| self.varrefs(f, &c.vars)).collect();
                let _ = write!(s, "cache({}{})", readonly, vars.join(", "));
            }
            ExecKind::Declare => s.push_str("declare"),
        }
        if !matches!(x.kind, ExecKind::Cache) {
            self.data_clauses(f, &mut s, &x.data);
        }
        if let Some(e) = x.if_cond {
            let _ = write!(s, " if({})", self.top_expr(f, e));
        }
        self.async_clause(f, &mut s, &x.async_);
        if let Some(w) = &x.wait {
            let _ = write!(s, " wait({})", self.wait_args(f, w));
        }
        s
    }

    fn atomic(&self, f: &Function, a: &AtomicOp) -> String {
        let upd = |x: ExprId, op: AtomicBinOp, value: ExprId, reversed: bool| -> String {
            let xs = self.expr(f, x);
            let vs = self.top_expr(f, value);
            match (op, reversed) {
                (AtomicBinOp::Max | AtomicBinOp::Min, _) => format!("{} = {}({}, {})", xs, atomic_op(op), xs, vs),
                (_, false) => format!("{} {}= {}", xs, atomic_op(op), vs),
                (_, true) => format!("{} = {} {} {}", xs, vs, atomic_op(op), xs),
            }
        };
        match a {
            AtomicOp::Read { v, x } => format!("atomic read {} = {};", self.expr(f, *v), self.expr(f, *x)),
            AtomicOp::Write { x, value } => format!("atomic write {} = {};", self.expr(f, *x), self.top_expr(f, *value)),
            AtomicOp::Update { x, op, value, reversed } => format!("atomic update {};", upd(*x, *op, *value, *reversed)),
            AtomicOp::Capture { v, x, op, value, reversed, capture_old } => {
                let u = match op {
                    Some(op) => upd(*x, *op, *value, *reversed),
                    None => format!("{} = {}", self.expr(f, *x), self.top_expr(f, *value)),
                };
                let cap = format!("{} = {}", self.expr(f, *v), self.expr(f, *x));
                if *capture_old {
                    format!("atomic capture {{ {}; {}; }}", cap, u)
                } else {
                    format!("atomic capture {{ {}; {}; }}", u, cap)
                }
            }
        }
    }

    fn acc_loop_head(&self, f: &Function, l: &AccLoop) -> String {
        let mut s = String::from("acc_loop");
        if l.gang {
            s.push_str(" gang");
            if l.gang_dim > 1 {
                let _ = write!(s, "(dim:{})", l.gang_dim);
            }
        }
        if l.worker {
            s.push_str(" worker");
        }
        if l.vector {
            s.push_str(" vector");
            if let Some(n) = l.vector_len {
                let _ = write!(s, "({})", n);
            }
        }
        if !(l.gang || l.worker || l.vector) {
            s.push_str(" seq");
        }
        let dims: Vec<String> = l
            .dims
            .iter()
            .map(|d| format!("{} = {} step {} trip {}", self.local_name(f, d.var), self.top_expr(f, d.lb), self.top_expr(f, d.step), self.top_expr(f, d.trip)))
            .collect();
        let _ = write!(s, " [{}]", dims.join("; "));
        if !l.privates.is_empty() {
            let p: Vec<String> = l.privates.iter().map(|p| self.local_name(f, *p)).collect();
            let _ = write!(s, " private({})", p.join(", "));
        }
        for r in &l.reductions {
            let _ = write!(s, " reduction({} -> {})", self.red_private(f, r), self.expr(f, r.target));
        }
        match &l.auto {
            None => {}
            Some(AutoChoice::Parallel) => s.push_str(" auto(independent)"),
            Some(AutoChoice::Sequential(why)) => {
                let _ = write!(s, " auto(sequential: {})", why);
            }
        }
        if !l.private_copies.is_empty() {
            let _ = write!(s, " private_copies{}", self.private_copies(f, &l.private_copies));
        }
        s
    }

    fn launch(&self, f: &Function, l: &Launch) -> String {
        let kname = self.m.kernels.get(l.kernel.index()).map(|k| k.name.as_str()).unwrap_or("?");
        let args: Vec<String> = l.args.iter().map(|a| self.top_expr(f, *a)).collect();
        let mut s = format!("launch k{} @{}({})", l.kernel.0, kname, args.join(", "));
        for (name, e) in [("num_gangs", l.num_gangs), ("num_workers", l.num_workers), ("vector_length", l.vector_length), ("async", l.async_queue)] {
            if let Some(e) = e {
                let _ = write!(s, " {}({})", name, self.top_expr(f, e));
            }
        }
        if !l.gang_grid.is_empty() {
            let g: Vec<String> = l.gang_grid.iter().map(|e| self.top_expr(f, *e)).collect();
            let _ = write!(s, " gang_grid({})", g.join(", "));
        }
        if let Some(w) = &l.wait {
            let q: Vec<String> = w.iter().map(|e| self.top_expr(f, *e)).collect();
            let _ = write!(s, " wait({})", q.join(", "));
        }
        if let Some(c) = l.local_cond {
            let _ = write!(s, " local_if({})", self.top_expr(f, c));
        }
        if let Some(c) = l.loc {
            let _ = write!(s, " loc({})", self.top_expr(f, c));
        }
        s.push(';');
        s
    }

    /// An expression at statement level: an outermost assignment is not parenthesised.
    fn top_expr(&self, f: &Function, e: ExprId) -> String {
        let s = self.expr(f, e);
        match f.exprs.get(e.index()).map(|x| &x.kind) {
            Some(ExprKind::Assign(..) | ExprKind::CompoundAssign { .. } | ExprKind::Binary(..) | ExprKind::Cond(..) | ExprKind::Comma(..))
                if s.starts_with('(') && s.ends_with(')') =>
            {
                s[1..s.len() - 1].to_string()
            }
            _ => s,
        }
    }

    fn callee(&self, c: Callee) -> String {
        match c {
            Callee::Func(id) => format!("@{}", self.m.functions.get(id.index()).map(|f| f.name.as_str()).unwrap_or("?")),
            Callee::Extern(id) => format!("${}", self.m.externs.get(id.index()).map(|f| f.name.as_str()).unwrap_or("?")),
        }
    }

    fn args(&self, f: &Function, args: &[ExprId]) -> String {
        args.iter().map(|a| self.top_expr(f, *a)).collect::<Vec<_>>().join(", ")
    }

    fn expr(&self, f: &Function, id: ExprId) -> String {
        let Some(e) = f.exprs.get(id.index()) else { return format!("<bad expr {}>", id.0) };
        match &e.kind {
            ExprKind::Int(v) => format!("{}:{}", v, self.ty(&e.ty)),
            ExprKind::Float(v) => format!("{:?}:{}", v, self.ty(&e.ty)),
            ExprKind::Load(p) => self.expr(f, *p),
            ExprKind::AddrOf(p) => format!("&{}", self.expr(f, *p)),
            ExprKind::FuncAddr(c) => format!("&{}", self.callee(*c)),
            ExprKind::Binary(op, a, b) => format!("({} {} {})", self.expr(f, *a), binop(*op), self.expr(f, *b)),
            ExprKind::Unary(op, a) => {
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::LogNot => "!",
                };
                format!("{}{}", o, self.expr(f, *a))
            }
            ExprKind::Cast(a) => format!("cast<{}>({})", self.ty(&e.ty), self.top_expr(f, *a)),
            ExprKind::Cond(c, a, b) => format!("({} ? {} : {})", self.expr(f, *c), self.expr(f, *a), self.expr(f, *b)),
            ExprKind::Comma(a, b) => format!("({}, {})", self.expr(f, *a), self.expr(f, *b)),
            ExprKind::Call(c, args) => format!("{}({})", self.callee(*c), self.args(f, args)),
            ExprKind::CallIndirect(c, args) => format!("(*{})({})", self.expr(f, *c), self.args(f, args)),
            ExprKind::Assign(p, v) => format!("({} = {})", self.expr(f, *p), self.top_expr(f, *v)),
            ExprKind::CompoundAssign { op, place, value, op_ty } => {
                format!("({} {}=<{}> {})", self.expr(f, *place), binop(*op), self.ty(op_ty), self.top_expr(f, *value))
            }
            ExprKind::IncDec { place, inc, prefix } => {
                let o = if *inc { "++" } else { "--" };
                if *prefix {
                    format!("{}{}", o, self.expr(f, *place))
                } else {
                    format!("{}{}", self.expr(f, *place), o)
                }
            }
            ExprKind::ComplexPart(a, imag) => format!("{}({})", if *imag { "imag" } else { "real" }, self.top_expr(f, *a)),
            ExprKind::MakeComplex(a, b) => format!("complex({}, {})", self.top_expr(f, *a), self.top_expr(f, *b)),
            ExprKind::Alloca(n) => format!("alloca({})", self.top_expr(f, *n)),
            ExprKind::Builtin(b) => match b {
                Builtin::GangIndex => "gang_index()".to_string(),
                Builtin::NumGangs => "num_gangs()".to_string(),
            },
            ExprKind::DescBase(a) => format!("desc_base({})", self.top_expr(f, *a)),
            ExprKind::DescShape(a, k) => format!("desc_shape({}, {})", self.top_expr(f, *a), k),
            ExprKind::DescStride(a, k) => format!("desc_stride({}, {})", self.top_expr(f, *a), k),
            ExprKind::Local(l) => self.local_name(f, *l),
            ExprKind::Global(g) => format!("@{}", self.m.globals.get(g.index()).map(|g| g.name.as_str()).unwrap_or("?")),
            ExprKind::Deref(p) => format!("*{}", self.expr(f, *p)),
            ExprKind::Member(p, k) => {
                let base = self.expr(f, *p);
                let base = if matches!(f.exprs.get(p.index()).map(|x| &x.kind), Some(ExprKind::Deref(_))) { format!("({})", base) } else { base };
                let pty = f.exprs.get(p.index()).map(|x| &x.ty);
                let name = match pty {
                    Some(Type::Struct(sid)) => self.m.structs.get(sid.0 as usize).and_then(|s| s.fields.get(*k as usize)).map(|fl| fl.name.clone()),
                    _ => None,
                };
                format!("{}.{}", base, name.unwrap_or_else(|| format!("#{}", k)))
            }
            ExprKind::DescElem(p, idx) => format!("{}[{}]", self.expr(f, *p), self.args(f, idx)),
        }
    }
}

fn linkage(l: Linkage) -> &'static str {
    match l {
        Linkage::Export => "export",
        Linkage::Internal => "internal",
        Linkage::Import => "import",
    }
}

fn default_name(k: DefaultKind) -> &'static str {
    match k {
        DefaultKind::None => " default(none)",
        DefaultKind::Present => " default(present)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;
    use crate::types::Scalar;

    #[test]
    fn prints_functions_statements_and_types() {
        let mut m = Module::default();
        m.globals.push(Global {
            name: "msg".into(),
            ty: Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(3)),
            linkage: Linkage::Internal,
            init: Some(GlobalInit { bytes: b"hi\0".to_vec(), relocs: vec![] }),
            is_const: true,
            declare: None,
            span: Span::DUMMY,
        });
        m.externs.push(ExternFunc {
            name: "puts".into(),
            sig: FuncSig { params: vec![Type::ptr(Type::Scalar(Scalar::I8))], ret: Type::I32, variadic: false },
            returns_twice: false,
            span: Span::DUMMY,
        });
        let sig = FuncSig { params: vec![Type::I32], ret: Type::I32, variadic: false };
        let mut f = Function::new("f", sig, Linkage::Export, Span::DUMMY);
        let n = f.add_local("n", Type::I32, Span::DUMMY);
        let i = f.add_local("i", Type::I32, Span::DUMMY);
        let d = Span::DUMMY;
        let zero = f.add_expr(ExprKind::Int(0), Type::I32, d);
        let ip = f.add_expr(ExprKind::Local(i), Type::I32, d);
        let il = f.add_expr(ExprKind::Load(ip), Type::I32, d);
        let np = f.add_expr(ExprKind::Local(n), Type::I32, d);
        let nl = f.add_expr(ExprKind::Load(np), Type::I32, d);
        let cond = f.add_expr(ExprKind::Binary(BinOp::Lt, il, nl), Type::I32, d);
        let ip2 = f.add_expr(ExprKind::Local(i), Type::I32, d);
        let step = f.add_expr(ExprKind::IncDec { place: ip2, inc: true, prefix: false }, Type::I32, d);
        let g = f.add_expr(ExprKind::Global(GlobalId(0)), m.globals[0].ty.clone(), d);
        let s = f.add_expr(ExprKind::AddrOf(g), Type::ptr(Type::Scalar(Scalar::I8)), d);
        let call = f.add_expr(ExprKind::Call(Callee::Extern(ExternId(0)), vec![s]), Type::I32, d);
        let fl = f.add_expr(ExprKind::Float(2.5), Type::F64, d);
        let c = f.add_expr(ExprKind::Cast(fl), Type::I32, d);
        f.body = Block::new(vec![
            Stmt {
                kind: StmtKind::For {
                    init: Block::new(vec![Stmt { kind: StmtKind::Decl(i, Some(zero)), span: d }]),
                    cond: Some(cond),
                    step: Some(step),
                    body: Block::new(vec![Stmt { kind: StmtKind::Expr(call), span: d }]),
                    acc: None,
                },
                span: d,
            },
            Stmt { kind: StmtKind::Return(Some(c)), span: d },
        ]);
        m.functions.push(f);
        let text = module_to_string(&m);
        let want = concat!(
            "global @msg: [3 x i8] internal const = \"hi\\00\"\n",
            "extern $puts: fn(*i8) -> i32\n",
            "\n",
            "fn @f(%n.0: i32) -> i32 export {\n",
            "  local %i.1: i32\n",
            "  for (decl %i.1: i32 = 0:i32; %i.1 < %n.0; %i.1++) {\n",
            "    $puts(&@msg);\n",
            "  }\n",
            "  return cast<i32>(2.5:f64);\n",
            "}\n"
        );
        assert_eq!(text, want);
        assert_eq!(format!("{}", m), want, "Display is the same text");
        assert_eq!(module_to_string(&m), text, "deterministic");
    }

    #[test]
    fn type_notation() {
        let t = Type::Ptr(Box::new(Type::Array(Box::new(Type::Desc { elem: Box::new(Type::F32), rank: 2 }), None)));
        assert_eq!(type_to_string(&t, &[]), "*[? x desc<f32, 2>]");
        let f = Type::Func(Box::new(FuncSig { params: vec![Type::I32], ret: Type::Void, variadic: true }));
        assert_eq!(type_to_string(&f, &[]), "fn(i32, ...) -> void");
        assert_eq!(type_to_string(&Type::Complex(Scalar::F64), &[]), "complex<f64>");
    }
}

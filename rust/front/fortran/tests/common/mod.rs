//! Helpers of the parser tests: parse a text, print expressions as
//! s-expressions and statement lists as a compact outline, so tests assert
//! the structure the parser built.
#![allow(dead_code)]

use accjit_front_fortran::ast::*;
use accjit_front_fortran::{parse, CompileOptions, SourceForm};
use accjit_ir::SourceMap;

pub fn parse_ok(name: &str, text: &str) -> File {
    let mut sm = SourceMap::new();
    match parse(&mut sm, name, text, &CompileOptions::default()) {
        Ok(f) => f,
        Err(d) => panic!("unexpected diagnostics:\n{}", d.render(&sm)),
    }
}

pub fn parse_opts(name: &str, text: &str, opts: &CompileOptions) -> File {
    let mut sm = SourceMap::new();
    match parse(&mut sm, name, text, opts) {
        Ok(f) => f,
        Err(d) => panic!("unexpected diagnostics:\n{}", d.render(&sm)),
    }
}

/// The first rendered diagnostic headline (`file:line:col: error: msg`), all rendered text.
pub fn parse_err(name: &str, text: &str) -> (String, String) {
    let mut sm = SourceMap::new();
    match parse(&mut sm, name, text, &CompileOptions::default()) {
        Ok(f) => panic!("expected a diagnostic, parsed: {:#?}", f),
        Err(d) => (d.0[0].headline(&sm), d.render(&sm)),
    }
}

pub fn free() -> CompileOptions {
    CompileOptions { form: Some(SourceForm::Free), ..Default::default() }
}

/// The body of the only (main) program unit.
pub fn body(text: &str) -> Vec<Stmt> {
    let f = parse_ok("t.f90", text);
    f.units.into_iter().next().expect("a unit").body
}

/// Parse `program t; <stmt lines>; end program` and outline the body.
pub fn outline_of(stmts_text: &str) -> String {
    outline(&body(&format!("program t\n{}\nend program t\n", stmts_text)))
}

/// Parse `x = <expr>` and print the expression.
pub fn ex(expr: &str) -> String {
    let b = body(&format!("program t\nx = {}\nend\n", expr));
    match &b[0].kind {
        StmtKind::Assign { rhs, .. } => sx(rhs),
        other => panic!("not an assignment: {:?}", other),
    }
}

fn kind(k: &Option<KindParam>) -> String {
    match k {
        None => String::new(),
        Some(KindParam::Int(v)) => format!("_{}", v),
        Some(KindParam::Name(n)) => format!("_{}", n.text),
    }
}

pub fn sx_arg(a: &Arg) -> String {
    let k = a.keyword.as_ref().map(|k| format!("{}=", k.text)).unwrap_or_default();
    let v = match &a.value {
        ArgValue::Expr(e) => sx(e),
        ArgValue::Range { lo, hi, stride } => {
            let f = |e: &Option<Expr>| e.as_ref().map(sx).unwrap_or_default();
            match stride {
                Some(s) => format!("{}:{}:{}", f(lo), f(hi), sx(s)),
                None => format!("{}:{}", f(lo), f(hi)),
            }
        }
        ArgValue::Label(l) => format!("*{}", l),
    };
    format!("{}{}", k, v)
}

fn sx_ac(a: &AcItem) -> String {
    match a {
        AcItem::Expr(e) => sx(e),
        AcItem::ImpliedDo(d) => format!("(do {} {} {})", d.items.iter().map(sx_ac).collect::<Vec<_>>().join(" "), d.control.var.text, ctl(&d.control)),
    }
}

pub fn ctl(c: &LoopControl) -> String {
    match &c.step {
        Some(s) => format!("{} {} {}", sx(&c.start), sx(&c.end), sx(s)),
        None => format!("{} {}", sx(&c.start), sx(&c.end)),
    }
}

pub fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int { value, kind: k } => format!("{}{}", value, kind(k)),
        ExprKind::Real { text, double, kind: k, .. } => format!("{}{}{}", text, kind(k), if *double { "[d]" } else { "" }),
        ExprKind::Complex { re, im } => format!("(cmplx {} {})", sx(re), sx(im)),
        ExprKind::Logical { value, kind: k } => format!(".{}.{}", value, kind(k)),
        ExprKind::Char { value, .. } => format!("{:?}", value),
        ExprKind::Boz { value } => format!("boz{}", value),
        ExprKind::Name(n) => n.text.clone(),
        ExprKind::Apply { base, args } => format!("({} {})", sx(base), args.iter().map(sx_arg).collect::<Vec<_>>().join(" ")).replace(" )", ")"),
        ExprKind::Component { base, name } => format!("{}%{}", sx(base), name.text),
        ExprKind::Unary { op, operand } => format!(
            "({} {})",
            match op {
                UnaryOp::Plus => "pos",
                UnaryOp::Neg => "neg",
                UnaryOp::Not => "not",
            },
            sx(operand)
        ),
        ExprKind::Binary { op, lhs, rhs } => format!("({} {} {})", op.symbol(), sx(lhs), sx(rhs)),
        ExprKind::Defined { op, lhs, rhs } => match lhs {
            Some(l) => format!("(.{}. {} {})", op, sx(l), sx(rhs)),
            None => format!("(.{}. {})", op, sx(rhs)),
        },
        ExprKind::Paren(e) => format!("[{}]", sx(e)),
        ExprKind::ArrayCtor { type_spec, items } => {
            let t = type_spec.as_ref().map(|t| format!("{:?}:: ", t.base)).unwrap_or_default();
            format!("#({}{})", t, items.iter().map(sx_ac).collect::<Vec<_>>().join(" "))
        }
    }
}

fn io_items(items: &[IoItem]) -> String {
    items
        .iter()
        .map(|i| match i {
            IoItem::Expr(e) => sx(e),
            IoItem::ImpliedDo(d) => format!("(do {} {} {})", io_items(&d.items), d.control.var.text, ctl(&d.control)),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn fmt_spec(f: &Option<FormatSpec>) -> String {
    match f {
        None => "-".into(),
        Some(FormatSpec::Star) => "*".into(),
        Some(FormatSpec::Label(l, _)) => format!("L{}", l),
        Some(FormatSpec::Expr(e)) => sx(e),
    }
}

fn unit(u: &Option<IoUnit>) -> String {
    match u {
        None => "-".into(),
        Some(IoUnit::Star) => "*".into(),
        Some(IoUnit::Expr(e)) => sx(e),
    }
}

fn control(c: &IoControl) -> String {
    let mut s = format!("{} {}", unit(&c.unit), fmt_spec(&c.format));
    for (k, v) in &c.specs {
        s.push_str(&format!(" {}={}", k.text, sx(v)));
    }
    s
}

/// One statement per `;`, blocks in braces.
pub fn outline(stmts: &[Stmt]) -> String {
    stmts.iter().map(stmt).collect::<Vec<_>>().join("; ")
}

pub fn stmt(s: &Stmt) -> String {
    let label = s.label.map(|l| format!("{}:", l)).unwrap_or_default();
    let name = |n: &Option<Name>| n.as_ref().map(|n| format!("{}: ", n.text)).unwrap_or_default();
    let body = match &s.kind {
        StmtKind::Assign { lhs, rhs } => format!("{} = {}", sx(lhs), sx(rhs)),
        StmtKind::PointerAssign { lhs, rhs } => format!("{} => {}", sx(lhs), sx(rhs)),
        StmtKind::If { name: n, arms, else_body } => {
            let mut t = format!("{}if", name(n));
            for (c, b) in arms {
                t.push_str(&format!(" {} {{{}}}", sx(c), outline(b)));
            }
            if let Some(b) = else_body {
                t.push_str(&format!(" else {{{}}}", outline(b)));
            }
            t
        }
        StmtKind::LogicalIf { cond, stmt: st } => format!("if {} {}", sx(cond), stmt(st)),
        StmtKind::Do { name: n, label: l, control: c, body: b } => {
            let lab = l.map(|l| format!(" {}", l)).unwrap_or_default();
            let c = match c {
                DoControl::Forever => String::new(),
                DoControl::Counted(c) => format!(" {} {}", c.var.text, ctl(c)),
                DoControl::While(e) => format!(" while {}", sx(e)),
                DoControl::Concurrent { indices, mask, locality, .. } => {
                    let mut t = String::from(" concurrent");
                    for (v, lo, hi, st) in indices {
                        t.push_str(&format!(" {}={}:{}{}", v.text, sx(lo), sx(hi), st.as_ref().map(|s| format!(":{}", sx(s))).unwrap_or_default()));
                    }
                    if let Some(m) = mask {
                        t.push_str(&format!(" mask {}", sx(m)));
                    }
                    for (k, ns) in locality {
                        t.push_str(&format!(" {}({})", k, ns.iter().map(|n| n.text.clone()).collect::<Vec<_>>().join(",")));
                    }
                    t
                }
            };
            format!("{}do{}{} {{{}}}", name(n), lab, c, outline(b))
        }
        StmtKind::Exit(n) => format!("exit{}", n.as_ref().map(|n| format!(" {}", n.text)).unwrap_or_default()),
        StmtKind::Cycle(n) => format!("cycle{}", n.as_ref().map(|n| format!(" {}", n.text)).unwrap_or_default()),
        StmtKind::SelectCase { name: n, selector, cases } => {
            let mut t = format!("{}select {}", name(n), sx(selector));
            for c in cases {
                let v = match &c.values {
                    None => "default".to_string(),
                    Some(vs) => vs
                        .iter()
                        .map(|v| match v {
                            CaseValue::Single(e) => sx(e),
                            CaseValue::Range(a, b) => format!("{}:{}", a.as_ref().map(sx).unwrap_or_default(), b.as_ref().map(sx).unwrap_or_default()),
                        })
                        .collect::<Vec<_>>()
                        .join(","),
                };
                t.push_str(&format!(" case {} {{{}}}", v, outline(&c.body)));
            }
            t
        }
        StmtKind::Block { name: n, decls, body: b } => format!("{}block {} decls {{{}}}", name(n), decls.len(), outline(b)),
        StmtKind::Where { arms } => {
            let mut t = String::from("where");
            for (m, b) in arms {
                t.push_str(&format!(" {} {{{}}}", m.as_ref().map(sx).unwrap_or("else".into()), outline(b)));
            }
            t
        }
        StmtKind::Forall { indices, mask, body: b } => {
            format!(
                "forall {} {}{{{}}}",
                indices.iter().map(|(v, lo, hi, _)| format!("{}={}:{}", v.text, sx(lo), sx(hi))).collect::<Vec<_>>().join(","),
                mask.as_ref().map(|m| format!("mask {} ", sx(m))).unwrap_or_default(),
                outline(b)
            )
        }
        StmtKind::Goto(l) => format!("goto {}", l),
        StmtKind::ComputedGoto { labels, index } => format!("goto {:?} {}", labels, sx(index)),
        StmtKind::Call { callee, args } => format!("call {}({})", sx(callee), args.iter().map(sx_arg).collect::<Vec<_>>().join(" ")),
        StmtKind::Return(e) => format!("return{}", e.as_ref().map(|e| format!(" {}", sx(e))).unwrap_or_default()),
        StmtKind::Stop { error, code, quiet } => format!(
            "{}stop{}{}",
            if *error { "error " } else { "" },
            code.as_ref().map(|e| format!(" {}", sx(e))).unwrap_or_default(),
            quiet.as_ref().map(|e| format!(" quiet={}", sx(e))).unwrap_or_default()
        ),
        StmtKind::Allocate { type_spec, objects, specs } => format!(
            "allocate {}{}{}",
            type_spec.as_ref().map(|t| format!("{:?}:: ", t.base)).unwrap_or_default(),
            objects.iter().map(sx).collect::<Vec<_>>().join(" "),
            specs.iter().map(|(k, v)| format!(" {}={}", k.text, sx(v))).collect::<String>()
        ),
        StmtKind::Deallocate { objects, specs } => {
            format!(
                "deallocate {}{}",
                objects.iter().map(sx).collect::<Vec<_>>().join(" "),
                specs.iter().map(|(k, v)| format!(" {}={}", k.text, sx(v))).collect::<String>()
            )
        }
        StmtKind::Nullify(o) => format!("nullify {}", o.iter().map(sx).collect::<Vec<_>>().join(" ")),
        StmtKind::Print { format, items } => format!("print {} [{}]", fmt_spec(&Some(format.clone())), io_items(items)),
        StmtKind::Write { control: c, items } => format!("write({}) [{}]", control(c), io_items(items)),
        StmtKind::Read { control: c, items } => format!("read({}) [{}]", control(c), io_items(items)),
        StmtKind::FileOp { op, control: c } => format!("{}({})", op, control(c)),
        StmtKind::Format(f) => format!("format {}", f.text),
        StmtKind::Data(sets) => format!("data {}", sets.len()),
        StmtKind::Continue => "continue".into(),
        StmtKind::Acc { dir, body: b, end_span } => {
            format!(
                "!$acc {}{}{} {{{}}}{}",
                dir.kind.name(),
                if dir.clauses.is_empty() { "" } else { " " },
                clauses(&dir.clauses),
                outline(b),
                if end_span.is_some() { " end" } else { "" }
            )
        }
    };
    format!("{}{}", label, body)
}

pub fn clauses(cs: &[AccClause]) -> String {
    cs.iter().map(clause).collect::<Vec<_>>().join(" ")
}

pub fn vars(v: &[Expr]) -> String {
    v.iter().map(sx).collect::<Vec<_>>().join(",")
}

pub fn clause(c: &AccClause) -> String {
    let o = |e: &Option<Expr>| e.as_ref().map(|e| format!("({})", sx(e))).unwrap_or_default();
    match &c.kind {
        AccClauseKind::Data { kind, readonly, zero, vars: v } => {
            format!("{}({}{}{})", kind.name(), if *readonly { "readonly:" } else { "" }, if *zero { "zero:" } else { "" }, vars(v))
        }
        AccClauseKind::Private(v) => format!("private({})", vars(v)),
        AccClauseKind::FirstPrivate(v) => format!("firstprivate({})", vars(v)),
        AccClauseKind::Reduction { op, vars: v } => format!("reduction({:?}:{})", op, vars(v)),
        AccClauseKind::If(e) => format!("if({})", sx(e)),
        AccClauseKind::SelfCond(e) => format!("self{}", o(e)),
        AccClauseKind::Default(k) => format!("default({:?})", k),
        AccClauseKind::Async(e) => format!("async{}", o(e)),
        AccClauseKind::Wait(a) => match a {
            None => "wait".into(),
            Some(a) => format!("wait({}{})", a.devnum.as_ref().map(|d| format!("devnum:{}:", sx(d))).unwrap_or_default(), vars(&a.queues)),
        },
        AccClauseKind::NumGangs(v) => format!("num_gangs({})", vars(v)),
        AccClauseKind::NumWorkers(e) => format!("num_workers({})", sx(e)),
        AccClauseKind::VectorLength(e) => format!("vector_length({})", sx(e)),
        AccClauseKind::Gang { num, static_, dim } => {
            let mut parts = vec![];
            if let Some(n) = num {
                parts.push(format!("num:{}", sx(n)));
            }
            if let Some(s) = static_ {
                parts.push(format!("static:{}", s.as_ref().map(sx).unwrap_or("*".into())));
            }
            if let Some(d) = dim {
                parts.push(format!("dim:{}", sx(d)));
            }
            if parts.is_empty() {
                "gang".into()
            } else {
                format!("gang({})", parts.join(","))
            }
        }
        AccClauseKind::Worker(e) => format!("worker{}", o(e)),
        AccClauseKind::Vector(e) => format!("vector{}", o(e)),
        AccClauseKind::Seq => "seq".into(),
        AccClauseKind::Auto => "auto".into(),
        AccClauseKind::Independent => "independent".into(),
        AccClauseKind::Collapse { count, force } => format!("collapse({}{})", if *force { "force:" } else { "" }, sx(count)),
        AccClauseKind::Tile(v) => format!("tile({})", v.iter().map(|e| e.as_ref().map(sx).unwrap_or("*".into())).collect::<Vec<_>>().join(",")),
        AccClauseKind::DeviceType(v) => format!("device_type({})", v.join(",")),
        AccClauseKind::Finalize => "finalize".into(),
        AccClauseKind::IfPresent => "if_present".into(),
        AccClauseKind::DeviceNum(e) => format!("device_num({})", sx(e)),
        AccClauseKind::DefaultAsync(e) => format!("default_async({})", sx(e)),
        AccClauseKind::Bind(s) => format!("bind({})", s),
        AccClauseKind::Nohost => "nohost".into(),
    }
}

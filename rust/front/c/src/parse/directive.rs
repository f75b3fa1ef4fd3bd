//! OpenACC directive lines: the directive name, the clause list (OpenACC 3.3
//! for C, legacy `present_or_*`/`pcopy*` spellings and `dtype` included) and
//! the variable references clauses name (`x`, `a[lb:len]`, `a[i]`,
//! `a[0:n][0:m]`, `s.member`, `s.p[0:n]`, `p->q[0:n]`).
//!
//! A pragma token carries the directive's tokens; they are parsed with the
//! ordinary expression parser by swapping the token stream (`with_tokens`).
//! Checking which clauses a directive allows, duplicates, conflicts and
//! `device_type` grouping happens here; `construct.rs` turns the checked
//! clause list into IR constructs.

use super::ctype::{ArrLen, CType};
use super::expr::{CExpr, Cat};
use super::scope::Sym;
use super::{PResult, Parser, Reported};
use crate::token::{Token, TokenKind};
use accjit_ir::{DataClauseKind, DefaultKind, ExprId, ExprKind, GangArgs, RedOp, Section, Span, Type, VarRef, WaitArgs};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DirKind {
    Parallel,
    Serial,
    Kernels,
    ParallelLoop,
    SerialLoop,
    KernelsLoop,
    Data,
    EnterData,
    ExitData,
    HostData,
    Loop,
    Cache,
    Atomic,
    Declare,
    Init,
    Shutdown,
    Set,
    Update,
    Wait,
    Routine,
}

impl DirKind {
    pub fn name(self) -> &'static str {
        match self {
            DirKind::Parallel => "parallel",
            DirKind::Serial => "serial",
            DirKind::Kernels => "kernels",
            DirKind::ParallelLoop => "parallel loop",
            DirKind::SerialLoop => "serial loop",
            DirKind::KernelsLoop => "kernels loop",
            DirKind::Data => "data",
            DirKind::EnterData => "enter data",
            DirKind::ExitData => "exit data",
            DirKind::HostData => "host_data",
            DirKind::Loop => "loop",
            DirKind::Cache => "cache",
            DirKind::Atomic => "atomic",
            DirKind::Declare => "declare",
            DirKind::Init => "init",
            DirKind::Shutdown => "shutdown",
            DirKind::Set => "set",
            DirKind::Update => "update",
            DirKind::Wait => "wait",
            DirKind::Routine => "routine",
        }
    }
    pub fn is_combined(self) -> bool {
        matches!(self, DirKind::ParallelLoop | DirKind::SerialLoop | DirKind::KernelsLoop)
    }
}

const DIRECTIVES: &[&str] = &[
    "parallel",
    "serial",
    "kernels",
    "data",
    "enter",
    "exit",
    "host_data",
    "loop",
    "cache",
    "atomic",
    "declare",
    "init",
    "shutdown",
    "set",
    "update",
    "wait",
    "routine",
];

const CLAUSES: &[&str] = &[
    "async",
    "wait",
    "num_gangs",
    "num_workers",
    "vector_length",
    "device_type",
    "if",
    "self",
    "reduction",
    "private",
    "firstprivate",
    "default",
    "copy",
    "copyin",
    "copyout",
    "create",
    "no_create",
    "present",
    "deviceptr",
    "attach",
    "detach",
    "delete",
    "finalize",
    "use_device",
    "if_present",
    "collapse",
    "gang",
    "worker",
    "vector",
    "seq",
    "independent",
    "auto",
    "tile",
    "device_resident",
    "link",
    "host",
    "device",
    "default_async",
    "device_num",
    "bind",
    "nohost",
    "read",
    "write",
    "update",
    "capture",
    "pcopy",
    "pcopyin",
    "pcopyout",
    "pcreate",
    "present_or_copy",
    "present_or_copyin",
    "present_or_copyout",
    "present_or_create",
    "dtype",
];

const COMPUTE_DATA: &[&str] = &["copy", "copyin", "copyout", "create", "no_create", "present", "deviceptr", "attach"];
const PARALLEL: &[&str] =
    &["async", "wait", "num_gangs", "num_workers", "vector_length", "device_type", "if", "self", "reduction", "private", "firstprivate", "default"];
const SERIAL: &[&str] = &["async", "wait", "device_type", "if", "self", "reduction", "private", "firstprivate", "default"];
const KERNELS: &[&str] = &["async", "wait", "num_gangs", "num_workers", "vector_length", "device_type", "if", "self", "default"];
const LOOP: &[&str] = &["collapse", "gang", "worker", "vector", "seq", "independent", "auto", "tile", "device_type", "private", "reduction"];
const DATA: &[&str] = &["if", "async", "wait", "device_type", "default"];
const ENTER: &[&str] = &["if", "async", "wait", "copyin", "create", "attach"];
const EXIT: &[&str] = &["if", "async", "wait", "copyout", "delete", "detach", "finalize"];
const HOST_DATA: &[&str] = &["use_device", "if", "if_present"];
const UPDATE: &[&str] = &["async", "wait", "device_type", "if", "if_present", "self", "host", "device"];
const WAIT: &[&str] = &["async", "if"];
const INIT: &[&str] = &["device_type", "device_num", "if"];
const SET: &[&str] = &["default_async", "device_num", "device_type", "if"];
const ATOMIC: &[&str] = &["read", "write", "update", "capture"];
const DECLARE: &[&str] = &["copy", "copyin", "copyout", "create", "present", "deviceptr", "device_resident", "link"];
const ROUTINE: &[&str] = &["gang", "worker", "vector", "seq", "bind", "device_type", "nohost"];

const AFTER_DTYPE_COMPUTE: &[&str] = &["async", "wait", "num_gangs", "num_workers", "vector_length"];
const AFTER_DTYPE_LOOP: &[&str] = &["collapse", "gang", "worker", "vector", "seq", "independent", "auto", "tile"];
const AFTER_DTYPE_DATA: &[&str] = &["async", "wait"];
const AFTER_DTYPE_ROUTINE: &[&str] = &["gang", "worker", "vector", "seq", "bind"];

/// Clauses that may appear at most once (per `device_type` group).
const UNIQUE: &[&str] = &[
    "if",
    "default",
    "collapse",
    "self",
    "num_gangs",
    "num_workers",
    "vector_length",
    "async",
    "gang",
    "worker",
    "vector",
    "seq",
    "independent",
    "auto",
    "tile",
    "finalize",
    "if_present",
    "default_async",
    "device_num",
    "bind",
    "nohost",
];

fn allowed(kind: DirKind) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = match kind {
        DirKind::Parallel => [PARALLEL, COMPUTE_DATA].concat(),
        DirKind::Serial => [SERIAL, COMPUTE_DATA].concat(),
        DirKind::Kernels => [KERNELS, COMPUTE_DATA].concat(),
        DirKind::ParallelLoop => [PARALLEL, COMPUTE_DATA, LOOP].concat(),
        DirKind::SerialLoop => [SERIAL, COMPUTE_DATA, LOOP].concat(),
        DirKind::KernelsLoop => [KERNELS, COMPUTE_DATA, LOOP].concat(),
        DirKind::Data => [DATA, COMPUTE_DATA].concat(),
        DirKind::EnterData => ENTER.to_vec(),
        DirKind::ExitData => EXIT.to_vec(),
        DirKind::HostData => HOST_DATA.to_vec(),
        DirKind::Loop => LOOP.to_vec(),
        DirKind::Cache => vec![],
        DirKind::Atomic => ATOMIC.to_vec(),
        DirKind::Declare => DECLARE.to_vec(),
        DirKind::Init | DirKind::Shutdown => INIT.to_vec(),
        DirKind::Set => SET.to_vec(),
        DirKind::Update => UPDATE.to_vec(),
        DirKind::Wait => WAIT.to_vec(),
        DirKind::Routine => ROUTINE.to_vec(),
    };
    v.dedup();
    v
}

/// "'reduction' is allowed on the 'parallel', 'serial' and 'loop' directives"
/// (combined constructs are implied by their parts).
fn directives_allowing(clause: &str) -> Option<String> {
    use DirKind::*;
    let kinds = [Parallel, Serial, Kernels, Loop, Data, EnterData, ExitData, HostData, Update, Wait, Init, Shutdown, Set, Declare, Routine, Atomic];
    let names: Vec<String> = kinds.iter().filter(|k| allowed(**k).contains(&clause)).map(|k| format!("'{}'", k.name())).collect();
    let list = match names.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {}", rest.join(", "), last),
    };
    Some(format!("'{}' is allowed on the {} directive{}", clause, list, if names.len() > 1 { "s" } else { "" }))
}

fn allowed_after_dtype(kind: DirKind) -> Vec<&'static str> {
    match kind {
        DirKind::Parallel | DirKind::Serial | DirKind::Kernels => AFTER_DTYPE_COMPUTE.to_vec(),
        DirKind::ParallelLoop | DirKind::SerialLoop | DirKind::KernelsLoop => [AFTER_DTYPE_COMPUTE, AFTER_DTYPE_LOOP].concat(),
        DirKind::Loop => AFTER_DTYPE_LOOP.to_vec(),
        DirKind::Data | DirKind::Update => AFTER_DTYPE_DATA.to_vec(),
        DirKind::Routine => AFTER_DTYPE_ROUTINE.to_vec(),
        _ => vec![],
    }
}

fn canonical(name: &str) -> &str {
    match name {
        "pcopy" | "present_or_copy" => "copy",
        "pcopyin" | "present_or_copyin" => "copyin",
        "pcopyout" | "present_or_copyout" => "copyout",
        "pcreate" | "present_or_create" => "create",
        "dtype" => "device_type",
        n => n,
    }
}

fn data_kind(name: &str) -> Option<DataClauseKind> {
    Some(match name {
        "copy" => DataClauseKind::Copy,
        "copyin" => DataClauseKind::CopyIn,
        "copyout" => DataClauseKind::CopyOut,
        "create" => DataClauseKind::Create,
        "no_create" => DataClauseKind::NoCreate,
        "present" => DataClauseKind::Present,
        "deviceptr" => DataClauseKind::DevicePtr,
        "attach" => DataClauseKind::Attach,
        "detach" => DataClauseKind::Detach,
        "delete" => DataClauseKind::Delete,
        "link" => DataClauseKind::Link,
        "device_resident" => DataClauseKind::DeviceResident,
        "host" => DataClauseKind::UpdateSelf,
        "device" => DataClauseKind::UpdateDevice,
        _ => return None,
    })
}

/// A parsed clause value.
#[derive(Clone, Debug)]
pub enum CV {
    Flag,
    Expr(ExprId),
    OptExpr(Option<ExprId>),
    Exprs(Vec<ExprId>),
    Wait(Option<WaitArgs>),
    Data { kind: DataClauseKind, readonly: bool, zero: bool, vars: Vec<VarRef> },
    Vars(Vec<VarRef>),
    Reduction(RedOp, Vec<VarRef>),
    Default(DefaultKind),
    Gang(GangArgs),
    Collapse(u32, bool),
    Tile(Vec<Option<ExprId>>),
    DeviceType(Vec<String>),
    Bind(String),
}

#[derive(Clone, Debug)]
pub struct Clause {
    pub name: &'static str,
    pub span: Span,
    pub val: CV,
    /// 0: before any `device_type`; k: after the k-th `device_type` clause.
    pub group: usize,
}

/// A checked directive line.
#[derive(Clone, Debug)]
pub struct Directive {
    pub kind: DirKind,
    pub clauses: Vec<Clause>,
    /// Device type names of each group (index k-1 for group k).
    pub groups: Vec<Vec<String>>,
    pub span: Span,
    /// The directive name (`update`, `enter data`, `parallel loop`), for
    /// errors about the directive as a whole.
    pub name_span: Span,
    /// `wait(…)` directive arguments, `cache(…)` vars, `routine(name)`.
    pub wait_args: Option<WaitArgs>,
    pub cache: Option<(bool, Vec<VarRef>)>,
    pub routine_name: Option<(String, Span)>,
}

fn static_name(n: &str) -> &'static str {
    CLAUSES.iter().find(|c| **c == n).copied().unwrap_or("?")
}

impl<'a> Parser<'a> {
    /// Run `f` over the directive tokens of pragma `t`, then restore the stream.
    pub fn with_tokens<T>(&mut self, t: &Token, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let mut toks = t.pragma.clone();
        let end = toks.last().map(|x| x.span).unwrap_or(t.span);
        toks.push(Token::new(TokenKind::Eof, "end of directive", Span::new(end.file, end.hi, end.hi)));
        let saved = std::mem::replace(&mut self.toks, toks);
        let saved_pos = std::mem::replace(&mut self.pos, 0);
        let r = f(self);
        self.toks = saved;
        self.pos = saved_pos;
        r
    }

    /// Parse and check the directive line of pragma `t`.
    pub fn directive_line(&mut self, t: &Token) -> PResult<Directive> {
        let span = t.span;
        self.with_tokens(t, |p| p.directive_inner(span))
    }

    fn directive_inner(&mut self, span: Span) -> PResult<Directive> {
        let nt = self.peek().clone();
        if nt.kind != TokenKind::Ident {
            return self.err(nt.span, "expected an OpenACC directive name after '#pragma acc'");
        }
        self.bump();
        let kind = match nt.text.as_str() {
            "parallel" | "serial" | "kernels" => {
                let combined = self.eat_kw("loop");
                match (nt.text.as_str(), combined) {
                    ("parallel", false) => DirKind::Parallel,
                    ("parallel", true) => DirKind::ParallelLoop,
                    ("serial", false) => DirKind::Serial,
                    ("serial", true) => DirKind::SerialLoop,
                    ("kernels", false) => DirKind::Kernels,
                    _ => DirKind::KernelsLoop,
                }
            }
            "data" => DirKind::Data,
            "enter" | "exit" => {
                if !self.eat_kw("data") {
                    let t = self.peek().clone();
                    return self.err(t.span, format!("expected 'data' after '{}' {}", nt.text, super::describe_found(&t)));
                }
                if nt.text == "enter" {
                    DirKind::EnterData
                } else {
                    DirKind::ExitData
                }
            }
            "host_data" => DirKind::HostData,
            "loop" => DirKind::Loop,
            "cache" => DirKind::Cache,
            "atomic" => DirKind::Atomic,
            "declare" => DirKind::Declare,
            "init" => DirKind::Init,
            "shutdown" => DirKind::Shutdown,
            "set" => DirKind::Set,
            "update" => DirKind::Update,
            "wait" => DirKind::Wait,
            "routine" => DirKind::Routine,
            other => {
                let msg = format!("unknown OpenACC directive '{}'", other);
                return match super::closest(other, DIRECTIVES.iter().copied()) {
                    Some(c) => self.err_hint(nt.span, msg, format!("did you mean '{}'?", c)),
                    None => self.err(nt.span, msg),
                };
            }
        };
        let name_span = nt.span.to(self.prev_span());
        let mut d = Directive { kind, clauses: vec![], groups: vec![], span, name_span, wait_args: None, cache: None, routine_name: None };
        match kind {
            DirKind::Cache => {
                self.expect_p("(")?;
                let readonly = self.modifier("readonly");
                let vars = self.var_list()?;
                self.expect_p(")")?;
                d.cache = Some((readonly, vars));
            }
            DirKind::Wait if self.is_p("(") => {
                self.bump();
                d.wait_args = Some(self.wait_arg_list()?);
            }
            DirKind::Routine if self.is_p("(") => {
                self.bump();
                d.routine_name = Some(self.expect_ident("a function name")?);
                self.expect_p(")")?;
            }
            _ => {}
        }
        self.clause_list(&mut d)?;
        Ok(d)
    }

    /// `readonly:` / `zero:` / `force:` modifiers.
    fn modifier(&mut self, m: &str) -> bool {
        if self.is_kw(m) && self.peek_at(1).is_punct(":") {
            self.bump();
            self.bump();
            true
        } else {
            false
        }
    }

    fn clause_list(&mut self, d: &mut Directive) -> PResult<()> {
        let allowed = allowed(d.kind);
        let after = allowed_after_dtype(d.kind);
        let mut group = 0;
        let grouping = !matches!(d.kind, DirKind::Init | DirKind::Shutdown | DirKind::Set);
        while !self.at_eof() {
            if self.eat_p(",") {
                continue;
            }
            let t = self.peek().clone();
            if t.kind != TokenKind::Ident {
                return self.err(t.span, format!("expected an OpenACC clause {}", super::describe_found(&t)));
            }
            self.bump();
            let written = t.text.clone();
            if !CLAUSES.contains(&written.as_str()) {
                let msg = format!("unknown OpenACC clause '{}'", written);
                return match super::closest(&written, CLAUSES.iter().copied()) {
                    Some(c) => self.err_hint(t.span, msg, format!("did you mean '{}'?", c)),
                    None => self.err(t.span, msg),
                };
            }
            let name = static_name(canonical(&written));
            // `self(list)` on update is the data clause; `host` is its synonym.
            let ok = allowed.contains(&name);
            if !ok {
                let msg = format!("clause '{}' is not allowed on the '{}' directive", written, d.kind.name());
                return match directives_allowing(name) {
                    Some(h) => self.err_hint(t.span, msg, h),
                    None => self.err(t.span, msg),
                };
            }
            if group > 0 && !after.contains(&name) && name != "device_type" {
                return self.err(t.span, format!("clause '{}' may not follow a 'device_type' clause on the '{}' directive", written, d.kind.name()));
            }
            if UNIQUE.contains(&name) && !(name == "self" && d.kind == DirKind::Update) {
                if let Some(first) = d.clauses.iter().find(|c| c.name == name && c.group == group) {
                    let diag = accjit_ir::Diagnostic::error(t.span, format!("duplicate '{}' clause", written))
                        .with_note(first.span, format!("the first '{}' clause is here", name))
                        .with_hint(format!("'{}' may appear at most once on a directive{}", name, if group > 0 { " per 'device_type'" } else { "" }));
                    self.push_diag(diag);
                    return Err(Reported);
                }
            }
            let val = self.clause_value(d.kind, name, &written, t.span)?;
            if name == "device_type" && grouping {
                let CV::DeviceType(names) = &val else { return Err(Reported) };
                d.groups.push(names.clone());
                group = d.groups.len();
                continue;
            }
            let end = self.prev_span();
            d.clauses.push(Clause { name, span: t.span.to(end), val, group });
        }
        self.check_conflicts(d)
    }

    /// Clauses that exclude each other within one `device_type` group. The
    /// error points at the later clause of a conflicting pair (the one that
    /// made the list invalid) and names both.
    fn check_conflicts(&mut self, d: &Directive) -> PResult<()> {
        let ngroups = d.groups.len() + 1;
        let what = if d.kind == DirKind::Routine { "routine directive" } else { "loop" };
        for g in 0..ngroups {
            let in_group: Vec<&Clause> = d.clauses.iter().filter(|c| c.group == g).collect();
            let has = |n: &str| in_group.iter().copied().find(|c| c.name == n);
            let pairs: &[(&str, &str)] =
                &[("seq", "gang"), ("seq", "worker"), ("seq", "vector"), ("seq", "independent"), ("seq", "auto"), ("auto", "independent")];
            let mut worst: Option<(&Clause, &Clause)> = None;
            for (a, b) in pairs {
                if d.kind == DirKind::Routine && *a == "seq" && matches!(*b, "gang" | "worker" | "vector") {
                    continue; // reported below as "only one of" for routines
                }
                if let (Some(x), Some(y)) = (has(a), has(b)) {
                    let (first, later) = if x.span.lo <= y.span.lo { (x, y) } else { (y, x) };
                    if worst.map(|(_, l)| later.span.lo < l.span.lo).unwrap_or(true) {
                        worst = Some((first, later));
                    }
                }
            }
            if let Some((first, later)) = worst {
                return self.err(later.span, format!("'{}' may not be combined with '{}' on the same {}", later.name, first.name, what));
            }
            if d.kind == DirKind::Routine {
                let mut levels: Vec<&Clause> = ["gang", "worker", "vector", "seq"].iter().filter_map(|n| has(n)).collect();
                levels.sort_by_key(|c| c.span.lo);
                if levels.len() > 1 {
                    return self.err(
                        levels[1].span,
                        format!("only one of gang, worker, vector or seq may appear on a routine directive ('{}' and '{}')", levels[0].name, levels[1].name),
                    );
                }
            }
        }
        if d.kind == DirKind::Atomic {
            let n = d.clauses.iter().filter(|c| matches!(c.name, "read" | "write" | "update" | "capture")).count();
            if n > 1 {
                return self.err(d.clauses[1].span, "an atomic directive takes at most one of read, write, update or capture");
            }
        }
        Ok(())
    }

    /// An `int-expr` clause argument (converted to `long`).
    fn int_arg(&mut self) -> PResult<ExprId> {
        let e = self.assign_value()?;
        if !e.ty.is_int() {
            let n = self.tyname(&e.ty);
            return self.err(e.span, format!("clause argument must be an integer expression ('{}' invalid)", n));
        }
        Ok(self.conv(e, &CType::LONG).id)
    }

    fn cond_arg(&mut self) -> PResult<ExprId> {
        let e = self.assign_value()?;
        self.check_scalar(&e, "condition")?;
        Ok(self.cond_id(&e))
    }

    fn const_arg(&mut self, what: &str) -> PResult<(i64, Span)> {
        let e = self.assign_value()?;
        match self.const_value(e.id).and_then(|v| v.as_int()) {
            Some(v) if e.ty.is_int() => Ok((v, e.span)),
            _ => self.err(e.span, format!("{} must be an integer constant expression", what)),
        }
    }

    fn clause_value(&mut self, kind: DirKind, name: &'static str, written: &str, sp: Span) -> PResult<CV> {
        let open = |p: &mut Self| p.expect_p("(");
        let close = |p: &mut Self| -> PResult<()> {
            if p.is_p(")") {
                p.bump();
                Ok(())
            } else {
                let t = p.peek().clone();
                let at = if t.kind == TokenKind::Eof { t.span } else { p.after_prev() };
                p.err(at, format!("expected ')' to close the '{}' clause {}", written, super::describe_found(&t)))
            }
        };
        let val = match name {
            "seq" | "independent" | "auto" | "finalize" | "if_present" | "nohost" | "read" | "write" | "update" | "capture" => CV::Flag,
            "if" => {
                open(self)?;
                let c = self.cond_arg()?;
                close(self)?;
                CV::Expr(c)
            }
            "self" if kind == DirKind::Update => {
                open(self)?;
                let vars = self.var_list()?;
                close(self)?;
                CV::Data { kind: DataClauseKind::UpdateSelf, readonly: false, zero: false, vars }
            }
            "self" | "async" | "worker" | "vector" => {
                if self.is_p("(") {
                    self.bump();
                    let e = match name {
                        "self" => self.cond_arg()?,
                        "worker" => {
                            self.modifier("num");
                            self.int_arg()?
                        }
                        "vector" => {
                            self.modifier("length");
                            self.int_arg()?
                        }
                        _ => self.int_arg()?,
                    };
                    close(self)?;
                    CV::OptExpr(Some(e))
                } else {
                    CV::OptExpr(None)
                }
            }
            "num_workers" | "vector_length" | "default_async" | "device_num" => {
                open(self)?;
                let e = self.int_arg()?;
                close(self)?;
                CV::Expr(e)
            }
            "num_gangs" => {
                open(self)?;
                let mut v = vec![self.int_arg()?];
                while self.eat_p(",") {
                    v.push(self.int_arg()?);
                }
                if v.len() > 3 {
                    return self.err(sp, "num_gangs takes at most 3 arguments");
                }
                if kind != DirKind::Parallel && kind != DirKind::ParallelLoop && v.len() > 1 {
                    return self.err(sp, "num_gangs with more than one argument is only allowed on 'parallel'");
                }
                close(self)?;
                CV::Exprs(v)
            }
            "wait" => {
                if self.is_p("(") {
                    self.bump();
                    let w = self.wait_arg_list()?;
                    CV::Wait(Some(w))
                } else {
                    CV::Wait(None)
                }
            }
            "default" => {
                open(self)?;
                let t = self.peek().clone();
                let k = match t.text.as_str() {
                    "none" => DefaultKind::None,
                    "present" => DefaultKind::Present,
                    other => {
                        return self.err(t.span, format!("invalid default clause '{}': expected 'none' or 'present'", other));
                    }
                };
                self.bump();
                close(self)?;
                CV::Default(k)
            }
            "private" | "firstprivate" | "use_device" => {
                open(self)?;
                let vars = self.var_list()?;
                close(self)?;
                CV::Vars(vars)
            }
            "reduction" => {
                open(self)?;
                let t = self.peek().clone();
                let op = match t.text.as_str() {
                    "+" => RedOp::Add,
                    "*" => RedOp::Mul,
                    "max" => RedOp::Max,
                    "min" => RedOp::Min,
                    "&" => RedOp::BitAnd,
                    "|" => RedOp::BitOr,
                    "^" => RedOp::BitXor,
                    "&&" => RedOp::LogAnd,
                    "||" => RedOp::LogOr,
                    other => {
                        return self.err_hint(t.span, format!("invalid reduction operator '{}'", other), "expected one of + * max min & | ^ && ||");
                    }
                };
                self.bump();
                self.expect_p(":")?;
                let vars = self.var_list()?;
                close(self)?;
                for v in &vars {
                    if let Err(e) = accjit_ir::reducible(op, &v.elem_ty, &self.m.structs) {
                        return self.err(v.span, format!("reduction operator '{}' cannot be applied to '{}': {}", op.symbol(), v.text, e));
                    }
                }
                CV::Reduction(op, vars)
            }
            "gang" => {
                let mut g = GangArgs::default();
                if self.is_p("(") {
                    self.bump();
                    loop {
                        if self.modifier("static") {
                            if self.eat_p("*") {
                                g.static_ = Some(None);
                            } else {
                                g.static_ = Some(Some(self.int_arg()?));
                            }
                        } else if self.modifier("dim") {
                            let (v, vsp) = self.const_arg("gang dim")?;
                            if !(1..=3).contains(&v) {
                                return self.err(vsp, "gang dim must be 1, 2 or 3");
                            }
                            if matches!(kind, DirKind::Kernels | DirKind::KernelsLoop) {
                                return self.err(vsp, "gang dim is not allowed inside a kernels construct");
                            }
                            g.dim = Some(v as u32);
                        } else {
                            self.modifier("num");
                            if g.num.is_some() {
                                return self.err(self.span(), "duplicate gang num argument");
                            }
                            g.num = Some(self.int_arg()?);
                        }
                        if !self.eat_p(",") {
                            break;
                        }
                    }
                    close(self)?;
                }
                CV::Gang(g)
            }
            "collapse" => {
                open(self)?;
                let force = self.modifier("force");
                let (n, nsp) = self.const_arg("collapse argument")?;
                if n <= 0 {
                    return self.err(nsp, format!("collapse argument must be a positive integer constant (got {})", n));
                }
                close(self)?;
                CV::Collapse(n as u32, force)
            }
            "tile" => {
                open(self)?;
                let mut v = vec![];
                loop {
                    if self.eat_p("*") {
                        v.push(None);
                    } else {
                        v.push(Some(self.int_arg()?));
                    }
                    if !self.eat_p(",") {
                        break;
                    }
                }
                close(self)?;
                CV::Tile(v)
            }
            "device_type" => {
                open(self)?;
                let mut names = vec![];
                loop {
                    if self.eat_p("*") {
                        names.push("*".to_string());
                    } else if self.peek().kind == TokenKind::Ident {
                        // Any name, keywords included (`default`): which
                        // names exist is the runtime's business (§2.4).
                        names.push(self.bump().text.to_ascii_lowercase());
                    } else {
                        let (n, _) = self.expect_ident("a device type name")?;
                        names.push(n);
                    }
                    if !self.eat_p(",") {
                        break;
                    }
                }
                close(self)?;
                CV::DeviceType(names)
            }
            "bind" => {
                open(self)?;
                let b = if self.peek().kind == TokenKind::Str {
                    let (bytes, _) = self.string_bytes()?;
                    String::from_utf8_lossy(&bytes[..bytes.len() - 1]).to_string()
                } else {
                    self.expect_ident("a name")?.0
                };
                close(self)?;
                CV::Bind(b)
            }
            _ => {
                // Data clauses.
                let Some(dk) = data_kind(name) else { return self.err(sp, format!("clause '{}' is not supported", written)) };
                open(self)?;
                let readonly = if name == "copyin" { self.modifier("readonly") } else { false };
                let zero = if name == "copyout" || name == "create" { self.modifier("zero") } else { false };
                let vars = self.var_list()?;
                close(self)?;
                CV::Data { kind: dk, readonly, zero, vars }
            }
        };
        Ok(val)
    }

    /// `[devnum: e :] [queues:] e, e…` and the `)`.
    fn wait_arg_list(&mut self) -> PResult<WaitArgs> {
        let mut w = WaitArgs::default();
        if self.modifier("devnum") {
            w.devnum = Some(self.int_arg()?);
            self.expect_p(":")?;
        }
        self.modifier("queues");
        if !self.is_p(")") {
            loop {
                w.queues.push(self.int_arg()?);
                if !self.eat_p(",") {
                    break;
                }
            }
        }
        if !self.is_p(")") {
            let t = self.peek().clone();
            let at = self.after_prev();
            return self.err(at, format!("expected ')' to close the wait arguments {}", super::describe_found(&t)));
        }
        self.bump();
        Ok(w)
    }

    /// A comma-separated list of variable references.
    pub fn var_list(&mut self) -> PResult<Vec<VarRef>> {
        let mut v = vec![self.var_ref()?];
        while self.eat_p(",") {
            v.push(self.var_ref()?);
        }
        Ok(v)
    }

    /// One clause variable: `x`, `a[i]`, `a[lb:len]…`, `s.m`, `p->q[0:n]`.
    pub fn var_ref(&mut self) -> PResult<VarRef> {
        let start = self.pos;
        let (name, nsp) = self.expect_ident("a variable name")?;
        let root = match self.scopes.lookup(&name).cloned() {
            Some(Sym::Local { id, ty, .. }) => self.mk(ExprKind::Local(id), ty.ir(), nsp),
            Some(Sym::Global { id, ty, .. }) => self.mk(ExprKind::Global(id), ty.ir(), nsp),
            Some(Sym::Func(_)) | Some(Sym::Enum(_)) | Some(Sym::Typedef { .. }) => {
                return self.err(nsp, format!("'{}' is not a variable", name));
            }
            None => {
                self.identifier(&name, nsp)?;
                return Err(Reported);
            }
        };
        let mut cur = self.identifier(&name, nsp)?;
        // Members and plain subscripts before the first section.
        let mut sections: Vec<(Section, Span)> = vec![];
        let mut base: Option<CExpr> = None;
        loop {
            if self.is_p(".") || self.is_p("->") {
                let arrow = self.bump().text == "->";
                if !sections.is_empty() {
                    return self.err(self.prev_span(), "a member of an array section is not supported in a clause");
                }
                let (m, msp) = self.expect_ident("a member name")?;
                cur = self.member(cur, arrow, &m, msp)?;
            } else if self.is_p("[") {
                let lb = self.bump().span;
                let lower = if self.is_p(":") { None } else { Some(self.int_arg()?) };
                if self.eat_p(":") {
                    let length = if self.is_p("]") { None } else { Some(self.int_arg()?) };
                    let rb = self.expect_p("]")?;
                    if base.is_none() {
                        base = Some(cur.clone());
                    }
                    sections.push((Section { lower, length }, lb.to(rb)));
                } else {
                    let rb = self.expect_p("]")?;
                    if !sections.is_empty() {
                        return self.err(lb.to(rb), "a subscript after an array section is not supported; write a section of length 1");
                    }
                    let Some(i) = lower else { return self.err(lb, "expected a subscript") };
                    let ie = CExpr { id: i, ty: CType::LONG, cat: Cat::Value, span: lb };
                    cur = self.index(cur, ie, lb.to(rb))?;
                }
            } else {
                break;
            }
        }
        let end = self.prev_span();
        let span = nsp.to(end);
        let text: String = self.toks[start..self.pos].iter().map(|t| t.text.as_str()).collect();
        match base {
            None => {
                // The whole object.
                let size = self.sizeof_type(&cur.ty.clone(), span)?;
                let bytes = self.conv(size, &CType::LONG).id;
                // A VLA is an array of its innermost elements (its IR value is a pointer).
                let elem_ty = if matches!(cur.cat, Cat::VlaAddr { .. }) { Type::Array(Box::new(cur.ty.innermost().ir()), None) } else { cur.ty.ir() };
                let base_id = cur.id;
                let addr_e = match cur.cat {
                    Cat::Place { .. } => {
                        let c = self.clone_expr(cur.id);
                        let pty = CType::ptr(cur.ty.clone());
                        self.mk(ExprKind::AddrOf(c), pty.ir(), span)
                    }
                    Cat::VlaAddr { .. } => self.clone_expr(cur.id),
                    _ => return self.err(span, format!("'{}' is not a variable in a clause", text)),
                };
                Ok(VarRef { text, root, base: base_id, addr: addr_e, bytes, sections: vec![], elem_ty, deep: false, span })
            }
            Some(b) => self.section_ref(text, root, b, sections, span),
        }
    }

    /// Address and size of the sections over `base`.
    fn section_ref(&mut self, text: String, root: ExprId, base: CExpr, secs: Vec<(Section, Span)>, span: Span) -> PResult<VarRef> {
        // Level types: t[0] = base type, t[k+1] = element type of level k.
        let mut tys = vec![base.ty.clone()];
        let mut deep = false;
        for (k, (_, ssp)) in secs.iter().enumerate() {
            let t = tys[k].clone();
            let next = match &t {
                CType::Array(e, _) => (**e).clone(),
                CType::Ptr(p, _) => {
                    if k > 0 {
                        deep = true;
                    }
                    (**p).clone()
                }
                _ => {
                    let n = self.tyname(&t);
                    return self.err(*ssp, format!("array section of '{}', which has non-array type '{}'", text, n));
                }
            };
            if next.is_void() {
                return self.err(*ssp, format!("array section of a 'void *' pointer '{}'", text));
            }
            tys.push(next);
        }
        // Lengths (defaults from array extents).
        let mut sections = vec![];
        let mut lowers = vec![];
        let mut lengths = vec![];
        for (k, (s, ssp)) in secs.into_iter().enumerate() {
            let lower = match s.lower {
                Some(l) => l,
                None => self.mk(ExprKind::Int(0), Type::I64, ssp),
            };
            let length = match s.length {
                Some(l) => l,
                None => match &tys[k] {
                    CType::Array(_, len) => {
                        let n = match len {
                            ArrLen::Fixed(n) => self.mk(ExprKind::Int(*n as i64), Type::I64, ssp),
                            ArrLen::Vla(_) => {
                                let one = CType::Array(Box::new(CType::CHAR), len.clone());
                                self.vla_count(&one, ssp)?
                            }
                            _ => return self.err(ssp, format!("the length of an array section of '{}' is required (the array size is unknown)", text)),
                        };
                        let lo = self.clone_expr(lower);
                        self.mk(ExprKind::Binary(accjit_ir::BinOp::Sub, n, lo), Type::I64, ssp)
                    }
                    _ => return self.err(ssp, format!("the length of an array section of pointer '{}' is required", text)),
                },
            };
            if let Some(v) = self.const_value(length).and_then(|v| v.as_int()) {
                if v < 0 {
                    return self.err(ssp, format!("array section of '{}' has a negative length", text));
                }
            }
            sections.push(Section { lower: s.lower, length: s.length.or(Some(length)) });
            lowers.push(lower);
            lengths.push(length);
        }
        // addr: &base[lb0][lb1]… (only the first level when deep).
        let levels = if deep { 1 } else { sections.len() };
        let bclone = self.clone_expr(base.id);
        let mut cur = CExpr { id: bclone, ..base.clone() };
        for &lower in lowers.iter().take(levels) {
            let lo = self.clone_expr(lower);
            let ie = CExpr { id: lo, ty: CType::LONG, cat: Cat::Value, span };
            cur = self.index(cur, ie, span)?;
        }
        // Back to the address of that element.
        let addr = self.address_of(cur, span)?;
        let addr = self.conv(addr, &CType::ptr(tys[levels].clone()));
        // bytes = sum_{k<levels-1} (len_k - 1) * sizeof(t[k+1]) + len_last * sizeof(t[levels]).
        let mut bytes: Option<ExprId> = None;
        for k in 0..levels {
            let sz = self.sizeof_type(&tys[k + 1].clone(), span)?;
            let sz = self.conv(sz, &CType::LONG).id;
            let len = self.clone_expr(lengths[k]);
            let count = if k + 1 < levels {
                let one = self.mk(ExprKind::Int(1), Type::I64, span);
                self.mk(ExprKind::Binary(accjit_ir::BinOp::Sub, len, one), Type::I64, span)
            } else {
                len
            };
            let term = self.mk(ExprKind::Binary(accjit_ir::BinOp::Mul, count, sz), Type::I64, span);
            bytes = Some(match bytes {
                None => term,
                Some(b) => self.mk(ExprKind::Binary(accjit_ir::BinOp::Add, b, term), Type::I64, span),
            });
        }
        let bytes = bytes.ok_or(Reported)?;
        let elem_ty = tys.last().map(|t| t.ir()).unwrap_or(Type::Void);
        let base_id = match base.cat {
            Cat::VlaAddr { .. } => root,
            _ => base.id,
        };
        let root = if base_id == root { self.clone_expr(root) } else { root };
        Ok(VarRef { text, root, base: base_id, addr: addr.id, bytes, sections, elem_ty, deep, span })
    }

    /// A fresh copy of a clause variable (every expression cloned).
    pub fn clone_varref(&mut self, v: &VarRef) -> VarRef {
        let sections =
            v.sections.iter().map(|s| Section { lower: s.lower.map(|e| self.clone_expr(e)), length: s.length.map(|e| self.clone_expr(e)) }).collect();
        VarRef {
            text: v.text.clone(),
            root: self.clone_expr(v.root),
            base: self.clone_expr(v.base),
            addr: self.clone_expr(v.addr),
            bytes: self.clone_expr(v.bytes),
            sections,
            elem_ty: v.elem_ty.clone(),
            deep: v.deep,
            span: v.span,
        }
    }
}

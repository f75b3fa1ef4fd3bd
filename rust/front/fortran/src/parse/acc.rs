//! `!$acc` directives: the directive name and its clauses (in written order)
//! into `ast::AccDirective`, and `!$acc end ...` lines. The spellings follow
//! the OpenACC spec's Fortran forms (`!$acc end parallel loop`, reduction
//! operators `.and.`/`.or.`/`.eqv.`/`.neqv.`/`iand`/`ior`/`ieor`/`max`/`min`).

use super::cursor::{Cursor, PResult};
use crate::ast::*;
use crate::lex::Tok;
use accjit_ir::acc::{DataClauseKind, DefaultKind};

/// What one `!$acc` line is.
pub enum AccLine {
    Directive(AccDirective),
    /// `!$acc end <name>`: the directive name, e.g. "parallel loop", "host_data".
    End(String),
}

impl Cursor<'_> {
    pub fn acc_line(&mut self) -> PResult<AccLine> {
        let start = self.pos;
        let first = self.name("a directive name after `!$acc`")?;
        let kind = match first.text.as_str() {
            "end" => {
                let mut words = Vec::new();
                while let Tok::Name(n) = self.peek().clone() {
                    self.bump();
                    words.push(n);
                }
                self.expect_end()?;
                let name = words.join(" ");
                let name = match name.as_str() {
                    "hostdata" => "host_data".to_string(),
                    "paralleloop" => "parallel loop".to_string(),
                    _ => name,
                };
                if name.is_empty() {
                    return Err(self.err("expected the directive name after `!$acc end`"));
                }
                return Ok(AccLine::End(name));
            }
            "endparallel" | "endkernels" | "endserial" | "enddata" | "endhost_data" | "endatomic" | "endloop" => {
                let mut name = first.text[3..].to_string();
                if self.eat_kw("loop") {
                    name.push_str(" loop");
                }
                self.expect_end()?;
                return Ok(AccLine::End(name));
            }
            "parallel" | "kernels" | "serial" => {
                let combined = self.eat_kw("loop");
                match (first.text.as_str(), combined) {
                    ("parallel", false) => AccKind::Parallel,
                    ("parallel", true) => AccKind::ParallelLoop,
                    ("kernels", false) => AccKind::Kernels,
                    ("kernels", true) => AccKind::KernelsLoop,
                    ("serial", false) => AccKind::Serial,
                    _ => AccKind::SerialLoop,
                }
            }
            "loop" => AccKind::Loop,
            "data" => AccKind::Data,
            "enter" => {
                self.expect_kw("data")?;
                AccKind::EnterData
            }
            "exit" => {
                self.expect_kw("data")?;
                AccKind::ExitData
            }
            "host_data" => AccKind::HostData,
            "update" => AccKind::Update,
            "wait" => {
                if self.eat(&Tok::LParen) {
                    AccKind::Wait(Some(self.wait_args()?))
                } else {
                    AccKind::Wait(None)
                }
            }
            "cache" => {
                self.expect(&Tok::LParen, "`(` after `cache`")?;
                let readonly = self.at_kw("readonly") && self.peek_at(1) == &Tok::Colon;
                if readonly {
                    self.bump();
                    self.bump();
                }
                let vars = self.var_list_rest()?;
                AccKind::Cache { readonly, vars }
            }
            "atomic" => {
                let k = if self.eat_kw("read") {
                    AtomicKind::Read
                } else if self.eat_kw("write") {
                    AtomicKind::Write
                } else if self.eat_kw("capture") {
                    AtomicKind::Capture
                } else {
                    self.eat_kw("update");
                    AtomicKind::Update
                };
                AccKind::Atomic(k)
            }
            "declare" => AccKind::Declare,
            "routine" => {
                if self.eat(&Tok::LParen) {
                    let n = self.name("a procedure name")?;
                    self.expect(&Tok::RParen, "`)`")?;
                    AccKind::Routine(Some(n))
                } else {
                    AccKind::Routine(None)
                }
            }
            "init" => AccKind::Init,
            "shutdown" => AccKind::Shutdown,
            "set" => AccKind::Set,
            other => return Err(accjit_ir::Diagnostic::error(first.span, format!("unknown OpenACC directive `{}`", other))),
        };
        let is_update = matches!(kind, AccKind::Update);
        let mut clauses = Vec::new();
        while !self.at_end() {
            if self.eat(&Tok::Comma) {
                continue;
            }
            clauses.push(self.acc_clause(is_update)?);
        }
        Ok(AccLine::Directive(AccDirective { kind, clauses, span: self.span_from(start) }))
    }

    /// After `wait(`: `[devnum: e :] [queues:] e, ...` through `)`.
    fn wait_args(&mut self) -> PResult<AccWaitArgs> {
        let mut args = AccWaitArgs::default();
        if self.at_kw("devnum") && self.peek_at(1) == &Tok::Colon {
            self.bump();
            self.bump();
            args.devnum = Some(self.expr()?);
            self.expect(&Tok::Colon, "`:` after the device number")?;
        }
        if self.at_kw("queues") && self.peek_at(1) == &Tok::Colon {
            self.bump();
            self.bump();
        }
        if self.eat(&Tok::RParen) {
            return Ok(args);
        }
        loop {
            args.queues.push(self.expr()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`)`")?;
        Ok(args)
    }

    /// A variable of a clause: a designator or a common block `/name/`.
    fn acc_var(&mut self) -> PResult<Expr> {
        if self.at(&Tok::Slash) {
            let start = self.pos;
            self.bump();
            let n = self.name("a common block name")?;
            self.expect(&Tok::Slash, "`/`")?;
            let span = self.span_from(start);
            return Ok(Expr { kind: ExprKind::Name(Name { text: format!("/{}/", n.text), span }), span });
        }
        self.designator()
    }

    /// `a, b(1:n), c%d)` after the opening parenthesis.
    fn var_list_rest(&mut self) -> PResult<Vec<Expr>> {
        let mut vars = Vec::new();
        loop {
            vars.push(self.acc_var()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`,` or `)` in the variable list")?;
        Ok(vars)
    }

    fn paren_expr(&mut self) -> PResult<Expr> {
        self.expect(&Tok::LParen, "`(`")?;
        let e = self.expr()?;
        self.expect(&Tok::RParen, "`)`")?;
        Ok(e)
    }

    fn opt_paren_expr(&mut self) -> PResult<Option<Expr>> {
        if self.at(&Tok::LParen) {
            Ok(Some(self.paren_expr()?))
        } else {
            Ok(None)
        }
    }

    /// `(modifier: vars)` of a data clause: the modifier flags and variables.
    fn data_vars(&mut self, kind: DataClauseKind) -> PResult<AccClauseKind> {
        self.expect(&Tok::LParen, "`(` with a variable list")?;
        let (mut readonly, mut zero) = (false, false);
        if self.peek_at(1) == &Tok::Colon {
            if self.at_kw("readonly") {
                readonly = true;
            } else if self.at_kw("zero") {
                zero = true;
            } else {
                return Err(self.err("unknown data clause modifier"));
            }
            self.bump();
            self.bump();
        }
        let vars = self.var_list_rest()?;
        Ok(AccClauseKind::Data { kind, readonly, zero, vars })
    }

    fn acc_clause(&mut self, in_update: bool) -> PResult<AccClause> {
        let start = self.pos;
        let name = self.name("a clause name")?;
        use DataClauseKind as D;
        let data = |k: &str| -> Option<DataClauseKind> {
            Some(match k {
                "copy" | "pcopy" | "present_or_copy" => D::Copy,
                "copyin" | "pcopyin" | "present_or_copyin" => D::CopyIn,
                "copyout" | "pcopyout" | "present_or_copyout" => D::CopyOut,
                "create" | "pcreate" | "present_or_create" => D::Create,
                "no_create" => D::NoCreate,
                "present" => D::Present,
                "deviceptr" => D::DevicePtr,
                "attach" => D::Attach,
                "detach" => D::Detach,
                "delete" => D::Delete,
                "link" => D::Link,
                "device_resident" => D::DeviceResident,
                "use_device" => D::UseDevice,
                "host" => D::UpdateSelf,
                "device" => D::UpdateDevice,
                _ => return None,
            })
        };
        let kind = if name.text == "self" && in_update {
            self.data_vars(D::UpdateSelf)?
        } else if let Some(k) = data(&name.text) {
            self.data_vars(k)?
        } else {
            match name.text.as_str() {
                "private" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    AccClauseKind::Private(self.var_list_rest()?)
                }
                "firstprivate" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    AccClauseKind::FirstPrivate(self.var_list_rest()?)
                }
                "reduction" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    let op = self.red_op()?;
                    self.expect(&Tok::Colon, "`:` after the reduction operator")?;
                    AccClauseKind::Reduction { op, vars: self.var_list_rest()? }
                }
                "if" => AccClauseKind::If(self.paren_expr()?),
                "self" => AccClauseKind::SelfCond(self.opt_paren_expr()?),
                "default" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    let n = self.name("`none` or `present`")?;
                    let k = match n.text.as_str() {
                        "none" => DefaultKind::None,
                        "present" => DefaultKind::Present,
                        other => return Err(accjit_ir::Diagnostic::error(n.span, format!("expected `none` or `present`, found `{}`", other))),
                    };
                    self.expect(&Tok::RParen, "`)`")?;
                    AccClauseKind::Default(k)
                }
                "async" => AccClauseKind::Async(self.opt_paren_expr()?),
                "wait" => {
                    if self.eat(&Tok::LParen) {
                        AccClauseKind::Wait(Some(self.wait_args()?))
                    } else {
                        AccClauseKind::Wait(None)
                    }
                }
                "num_gangs" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    let mut v = vec![self.expr()?];
                    while self.eat(&Tok::Comma) {
                        v.push(self.expr()?);
                    }
                    self.expect(&Tok::RParen, "`)`")?;
                    AccClauseKind::NumGangs(v)
                }
                "num_workers" => AccClauseKind::NumWorkers(self.paren_expr()?),
                "vector_length" => AccClauseKind::VectorLength(self.paren_expr()?),
                "gang" => self.gang_args()?,
                "worker" => AccClauseKind::Worker(self.level_arg("num")?),
                "vector" => AccClauseKind::Vector(self.level_arg("length")?),
                "seq" => AccClauseKind::Seq,
                "auto" => AccClauseKind::Auto,
                "independent" => AccClauseKind::Independent,
                "collapse" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    let force = self.at_kw("force") && self.peek_at(1) == &Tok::Colon;
                    if force {
                        self.bump();
                        self.bump();
                    }
                    let count = self.expr()?;
                    self.expect(&Tok::RParen, "`)`")?;
                    AccClauseKind::Collapse { count, force }
                }
                "tile" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    let mut v = Vec::new();
                    loop {
                        if self.at(&Tok::Star) && matches!(self.peek_at(1), Tok::Comma | Tok::RParen) {
                            self.bump();
                            v.push(None);
                        } else {
                            v.push(Some(self.expr()?));
                        }
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(&Tok::RParen, "`)`")?;
                    AccClauseKind::Tile(v)
                }
                "device_type" | "dtype" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    let mut v = Vec::new();
                    loop {
                        if self.eat(&Tok::Star) {
                            v.push("*".to_string());
                        } else {
                            v.push(self.name("a device type")?.text);
                        }
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                    self.expect(&Tok::RParen, "`)`")?;
                    AccClauseKind::DeviceType(v)
                }
                "finalize" => AccClauseKind::Finalize,
                "if_present" => AccClauseKind::IfPresent,
                "device_num" => AccClauseKind::DeviceNum(self.paren_expr()?),
                "default_async" => AccClauseKind::DefaultAsync(self.paren_expr()?),
                "bind" => {
                    self.expect(&Tok::LParen, "`(`")?;
                    let s = match self.bump().tok {
                        Tok::Name(n) => n,
                        Tok::Str(s) => s,
                        _ => return Err(self.err("expected a name or a character literal")),
                    };
                    self.expect(&Tok::RParen, "`)`")?;
                    AccClauseKind::Bind(s)
                }
                "nohost" => AccClauseKind::Nohost,
                other => return Err(accjit_ir::Diagnostic::error(name.span, format!("unknown OpenACC clause `{}`", other))),
            }
        };
        Ok(AccClause { kind, span: self.span_from(start) })
    }

    /// `worker[( [num:] e )]`, `vector[( [length:] e )]`.
    fn level_arg(&mut self, key: &str) -> PResult<Option<Expr>> {
        if !self.eat(&Tok::LParen) {
            return Ok(None);
        }
        if self.at_kw(key) && self.peek_at(1) == &Tok::Colon {
            self.bump();
            self.bump();
        }
        let e = self.expr()?;
        self.expect(&Tok::RParen, "`)`")?;
        Ok(Some(e))
    }

    fn gang_args(&mut self) -> PResult<AccClauseKind> {
        let (mut num, mut static_, mut dim) = (None, None, None);
        if self.eat(&Tok::LParen) {
            loop {
                if self.at_kw("static") && self.peek_at(1) == &Tok::Colon {
                    self.bump();
                    self.bump();
                    static_ = Some(if self.eat(&Tok::Star) { None } else { Some(self.expr()?) });
                } else if self.at_kw("dim") && self.peek_at(1) == &Tok::Colon {
                    self.bump();
                    self.bump();
                    dim = Some(self.expr()?);
                } else {
                    if self.at_kw("num") && self.peek_at(1) == &Tok::Colon {
                        self.bump();
                        self.bump();
                    }
                    num = Some(self.expr()?);
                }
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::RParen, "`)`")?;
        }
        Ok(AccClauseKind::Gang { num, static_, dim })
    }

    fn red_op(&mut self) -> PResult<AccRedOp> {
        let t = self.bump();
        let sp = self.tok_span(&t);
        Ok(match &t.tok {
            Tok::Plus => AccRedOp::Add,
            Tok::Star => AccRedOp::Mul,
            Tok::Name(n) if n == "max" => AccRedOp::Max,
            Tok::Name(n) if n == "min" => AccRedOp::Min,
            Tok::Name(n) if n == "iand" => AccRedOp::Iand,
            Tok::Name(n) if n == "ior" => AccRedOp::Ior,
            Tok::Name(n) if n == "ieor" => AccRedOp::Ieor,
            Tok::DotOp(o) if o == "and" => AccRedOp::And,
            Tok::DotOp(o) if o == "or" => AccRedOp::Or,
            Tok::DotOp(o) if o == "eqv" => AccRedOp::Eqv,
            Tok::DotOp(o) if o == "neqv" => AccRedOp::Neqv,
            other => {
                return Err(accjit_ir::Diagnostic::error(
                    sp,
                    format!(
                        "unknown reduction operator {} (Fortran's are +, *, max, min, iand, ior, ieor, .and., .or., .eqv., .neqv.)",
                        super::cursor::describe(other)
                    ),
                ))
            }
        })
    }
}

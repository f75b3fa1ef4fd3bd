//! The C parser and type checker: recursive descent over preprocessed tokens,
//! building accjit IR directly (C needs the symbol table while parsing anyway,
//! for typedef names).
//!
//! Phases of one translation unit:
//! 1. `parse_translation_unit` reads external declarations one by one
//!    (`decl.rs`, with specifiers and declarators in `declarator.rs`),
//!    function bodies through `stmt.rs` and the expression syntax of
//!    `expr.rs` (typed by `sema.rs`, literals in `literal.rs`), and
//!    `#pragma acc` tokens through `directive.rs`.
//! 2. Errors are collected (`Parser::err`) and the parser recovers at the
//!    next statement or declaration, so that all errors come back at once.
//! 3. `finish` binds calls: functions defined here become `Callee::Func`,
//!    the others `ExternFunc`s (libc/libm/runtime, bound at JIT time).
//!
//! While parsing, calls name a provisional `Callee::Extern(i)` where `i`
//! indexes `Parser::fns`; `finish` rewrites them.

mod atomic;
mod bitfield;
mod builtins;
mod consteval;
mod construct;
mod ctype;
mod decl;
mod declarator;
mod directive;
mod expr;
mod init;
mod literal;
mod scope;
mod sema;
mod stmt;
mod varargs;

pub use ctype::{ArrLen, CFunc, CType};

use crate::token::{Token, TokenKind};
use accjit_ir::{
    Callee, Diagnostic, Diagnostics, ExprId, ExprKind, ExternFunc, ExternId, FuncId, Function, LabelId, Linkage, LocalId, Module, RelocTarget, RoutineInfo,
    Span, Stmt, Type,
};
use scope::Scopes;
use std::collections::HashMap;

/// The error of a parse step: its diagnostic is already in `Parser::diags`
/// (so callers only unwind; nothing is lost by the error carrying no data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported;

/// The C library functions that return twice (POSIX `setjmp` and its
/// variants). GCC knows them by name too (`special_function_p`).
const RETURNS_TWICE: &[&str] = &["setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "savectx", "vfork", "getcontext"];

/// Result of a parse step.
pub type PResult<T> = Result<T, Reported>;

/// A function known by name: declared, maybe defined.
pub struct FnEntry {
    pub name: String,
    pub cty: CFunc,
    pub defined: Option<FuncId>,
    pub is_static: bool,
    pub routine: Option<RoutineInfo>,
    pub span: Span,
}

pub struct LabelInfo {
    pub id: LabelId,
    pub defined: bool,
    pub first_use: Span,
}

/// The function whose body is being parsed.
pub struct FnBuilder {
    pub f: Function,
    pub ret: CType,
    /// Hidden `i64` locals holding VLA dimension lengths (`ArrLen::Vla` indexes this).
    pub vla: Vec<LocalId>,
    pub labels: HashMap<String, LabelInfo>,
    pub breakable: u32,
    pub continuable: u32,
    /// Compute constructs lexically open around the current statement.
    pub compute: Vec<accjit_ir::ComputeKind>,
    pub fn_index: usize,
    /// In a variadic function: the hidden locals receiving its variadic
    /// arguments' block (slots, kinds, count; see `varargs.rs`).
    pub va: Option<[LocalId; 3]>,
    /// Open `switch` statements, innermost last (see `stmt.rs`).
    pub switches: Vec<OpenSwitch>,
}

/// A `switch` being parsed: its controlling type and the `case`/`default`
/// labels found inside nested blocks of its body.
pub struct OpenSwitch {
    pub ty: CType,
    pub nested: Vec<NestedCase>,
}

/// A `case` (`value: Some`) or `default` label inside a nested block of a
/// switch body: the label statement that marks its place.
pub struct NestedCase {
    pub value: Option<i64>,
    pub label: LabelId,
    pub span: Span,
}

pub struct Parser<'a> {
    pub toks: Vec<Token>,
    pub pos: usize,
    pub diags: Vec<Diagnostic>,
    pub m: Module,
    pub scopes: Scopes,
    pub fb: Option<FnBuilder>,
    /// Arena for expressions at file scope (array sizes, global initialisers).
    pub scratch: Function,
    pub fns: Vec<FnEntry>,
    pub pending_routine: Option<(RoutineInfo, Span)>,
    /// Statements produced while parsing a declarator (VLA lengths) waiting to
    /// be emitted before the declaration.
    pub pending: Vec<Stmt>,
    /// Depth of parameter lists being parsed.
    pub in_params: u32,
    /// Counter for names of string-literal globals and static locals.
    pub anon: u32,
    pub string_globals: HashMap<Vec<u8>, accjit_ir::GlobalId>,
    pub sm: Option<&'a accjit_ir::SourceMap>,
    /// Errors suppressed while speculatively parsing (`try_const`).
    pub quiet: u32,
    /// C types of each struct's fields (the IR keeps only IR types).
    pub struct_ctypes: HashMap<u32, Vec<CType>>,
    /// Bit-fields: (struct, field index) → bit position and width.
    pub bitfields: HashMap<(u32, u32), bitfield::BitInfo>,
    /// Locals named by a `declare` so far, per function (`FnBuilder::fn_index`).
    pub declared_locals: std::collections::HashSet<(usize, LocalId)>,
}

impl<'a> Parser<'a> {
    pub fn new(mut toks: Vec<Token>, sm: Option<&'a accjit_ir::SourceMap>) -> Parser<'a> {
        if toks.last().map(|t| t.kind != TokenKind::Eof).unwrap_or(true) {
            let sp = toks.last().map(|t| Span::new(t.span.file, t.span.hi, t.span.hi)).unwrap_or(Span::DUMMY);
            toks.push(Token::new(TokenKind::Eof, "", sp));
        }
        Parser {
            toks,
            pos: 0,
            diags: vec![],
            m: Module::default(),
            scopes: Scopes::new(),
            fb: None,
            scratch: Function::new("<file scope>", accjit_ir::FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, Span::DUMMY),
            fns: vec![],
            pending_routine: None,
            pending: vec![],
            in_params: 0,
            anon: 0,
            string_globals: HashMap::new(),
            sm,
            quiet: 0,
            struct_ctypes: HashMap::new(),
            bitfields: HashMap::new(),
            declared_locals: Default::default(),
        }
    }

    // ---- tokens ----

    pub fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }
    pub fn peek_at(&self, n: usize) -> &Token {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)]
    }
    pub fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    pub fn span(&self) -> Span {
        self.peek().span
    }
    /// An empty span just after the previous token (where a missing token goes).
    pub fn after_prev(&self) -> Span {
        let ps = self.prev_span();
        Span::new(ps.file, ps.hi, ps.hi)
    }
    /// Span of the previous token.
    pub fn prev_span(&self) -> Span {
        if self.pos == 0 {
            self.span()
        } else {
            self.toks[self.pos - 1].span
        }
    }
    pub fn is_p(&self, p: &str) -> bool {
        self.peek().is_punct(p)
    }
    pub fn is_kw(&self, k: &str) -> bool {
        self.peek().is_ident(k)
    }
    pub fn at_eof(&self) -> bool {
        self.peek().kind == TokenKind::Eof
    }
    pub fn eat_p(&mut self, p: &str) -> bool {
        if self.is_p(p) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub fn eat_kw(&mut self, k: &str) -> bool {
        if self.is_kw(k) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub fn expect_p(&mut self, p: &str) -> PResult<Span> {
        if self.is_p(p) {
            Ok(self.bump().span)
        } else {
            let t = self.peek().clone();
            // A missing token is reported just after the previous token.
            let sp = if self.pos > 0 {
                let ps = self.prev_span();
                Span::new(ps.file, ps.hi, ps.hi)
            } else {
                t.span
            };
            self.err(sp, format!("expected '{}' {}", p, describe_found(&t)))
        }
    }
    pub fn expect_ident(&mut self, what: &str) -> PResult<(String, Span)> {
        let t = self.peek().clone();
        if t.kind == TokenKind::Ident && !is_keyword(&t.text) {
            self.bump();
            Ok((t.text, t.span))
        } else {
            self.err(t.span, format!("expected {} {}", what, describe_found(&t)))
        }
    }

    // ---- diagnostics ----

    pub fn err<T>(&mut self, span: Span, msg: impl Into<String>) -> PResult<T> {
        self.error(span, msg);
        Err(Reported)
    }
    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.push_diag(Diagnostic::error(span, msg));
    }
    pub fn push_diag(&mut self, d: Diagnostic) {
        if self.quiet > 0 {
            return;
        }
        // One error per position: later ones are usually cascades.
        if self.diags.iter().any(|x| x.span.file == d.span.file && x.span.lo == d.span.lo) {
            return;
        }
        self.diags.push(d);
    }
    pub fn err_hint<T>(&mut self, span: Span, msg: impl Into<String>, hint: impl Into<String>) -> PResult<T> {
        self.push_diag(Diagnostic::error(span, msg).with_hint(hint));
        Err(Reported)
    }

    /// Skip after an error: from `start` (where the failed statement or
    /// declaration began), over balanced brackets, to just after the next `;`
    /// or `{…}` block at depth 0, or before a `}` closing the enclosing block.
    pub fn recover(&mut self, start: usize) {
        let last = self.toks.len() - 1;
        let mut j = start;
        let mut depth: i32 = 0;
        while j < last {
            let t = &self.toks[j];
            if t.kind == TokenKind::Pragma && depth <= 0 && j > start {
                break;
            }
            if t.kind == TokenKind::Punct {
                match t.text.as_str() {
                    "(" | "[" => depth += 1,
                    ")" | "]" => depth -= 1,
                    "{" => {
                        let mut d = 0;
                        while j < last {
                            if self.toks[j].is_punct("{") {
                                d += 1;
                            } else if self.toks[j].is_punct("}") {
                                d -= 1;
                                if d == 0 {
                                    break;
                                }
                            }
                            j += 1;
                        }
                        j += 1;
                        if depth <= 0 {
                            if self.toks[j.min(last)].is_ident("else") {
                                j += 1;
                            }
                            break;
                        }
                        continue;
                    }
                    "}" if depth <= 0 => break,
                    ";" if depth <= 0 => {
                        j += 1;
                        if self.toks[j.min(last)].is_ident("else") {
                            j += 1;
                        }
                        break;
                    }
                    _ => {}
                }
            }
            j += 1;
        }
        if j <= start && start < last {
            j = start + 1;
        }
        self.pos = j.min(last);
    }

    // ---- the current function's arena ----

    pub fn func(&self) -> &Function {
        match &self.fb {
            Some(fb) => &fb.f,
            None => &self.scratch,
        }
    }
    pub fn func_mut(&mut self) -> &mut Function {
        match &mut self.fb {
            Some(fb) => &mut fb.f,
            None => &mut self.scratch,
        }
    }
    pub fn mk(&mut self, kind: ExprKind, ty: Type, span: Span) -> ExprId {
        self.func_mut().add_expr(kind, ty, span)
    }
    pub fn ex(&self, id: ExprId) -> &accjit_ir::Expr {
        self.func().expr(id)
    }
    pub fn structs(&self) -> &[accjit_ir::StructDef] {
        &self.m.structs
    }
    pub fn tyname(&self, t: &CType) -> String {
        t.name(&self.m.structs)
    }
    /// Deep-copy an expression tree (IR expressions are trees: a value used
    /// twice is built twice).
    pub fn clone_expr(&mut self, id: ExprId) -> ExprId {
        let e = self.ex(id).clone();
        let kind = match e.kind {
            ExprKind::Load(a) => ExprKind::Load(self.clone_expr(a)),
            ExprKind::AddrOf(a) => ExprKind::AddrOf(self.clone_expr(a)),
            ExprKind::Binary(op, a, b) => {
                let a = self.clone_expr(a);
                ExprKind::Binary(op, a, self.clone_expr(b))
            }
            ExprKind::Unary(op, a) => ExprKind::Unary(op, self.clone_expr(a)),
            ExprKind::Cast(a) => ExprKind::Cast(self.clone_expr(a)),
            ExprKind::Cond(a, b, c) => {
                let a = self.clone_expr(a);
                let b = self.clone_expr(b);
                ExprKind::Cond(a, b, self.clone_expr(c))
            }
            ExprKind::Comma(a, b) => {
                let a = self.clone_expr(a);
                ExprKind::Comma(a, self.clone_expr(b))
            }
            ExprKind::Call(c, args) => ExprKind::Call(c, args.into_iter().map(|a| self.clone_expr(a)).collect()),
            ExprKind::CallIndirect(f, args) => {
                let f = self.clone_expr(f);
                ExprKind::CallIndirect(f, args.into_iter().map(|a| self.clone_expr(a)).collect())
            }
            ExprKind::Assign(a, b) => {
                let a = self.clone_expr(a);
                ExprKind::Assign(a, self.clone_expr(b))
            }
            ExprKind::CompoundAssign { op, place, value, op_ty } => {
                let place = self.clone_expr(place);
                ExprKind::CompoundAssign { op, place, value: self.clone_expr(value), op_ty }
            }
            ExprKind::IncDec { place, inc, prefix } => ExprKind::IncDec { place: self.clone_expr(place), inc, prefix },
            ExprKind::ComplexPart(a, im) => ExprKind::ComplexPart(self.clone_expr(a), im),
            ExprKind::MakeComplex(a, b) => {
                let a = self.clone_expr(a);
                ExprKind::MakeComplex(a, self.clone_expr(b))
            }
            ExprKind::Alloca(a) => ExprKind::Alloca(self.clone_expr(a)),
            ExprKind::DescBase(a) => ExprKind::DescBase(self.clone_expr(a)),
            ExprKind::DescShape(a, k) => ExprKind::DescShape(self.clone_expr(a), k),
            ExprKind::DescStride(a, k) => ExprKind::DescStride(self.clone_expr(a), k),
            ExprKind::Deref(a) => ExprKind::Deref(self.clone_expr(a)),
            ExprKind::Member(a, i) => ExprKind::Member(self.clone_expr(a), i),
            ExprKind::DescElem(a, idx) => {
                let a = self.clone_expr(a);
                ExprKind::DescElem(a, idx.into_iter().map(|x| self.clone_expr(x)).collect())
            }
            k => k,
        };
        self.mk(kind, e.ty, e.span)
    }

    // ---- the translation unit ----

    pub fn parse_translation_unit(&mut self) {
        while !self.at_eof() {
            let start = self.pos;
            if self.peek().kind == TokenKind::Pragma {
                let t = self.bump();
                let _ = self.file_scope_pragma(&t);
                continue;
            }
            if self.eat_p(";") {
                continue;
            }
            let had_routine = self.pending_routine.is_some();
            if self.external_declaration().is_err() {
                self.recover(start);
            }
            self.check_routine_consumed(had_routine);
        }
        if let Some((_, sp)) = self.pending_routine.take() {
            self.error(sp, "'routine' directive is not followed by a function declaration or definition");
        }
    }

    /// A `routine` directive must be consumed by the declaration after it.
    pub fn check_routine_consumed(&mut self, had: bool) {
        if had {
            if let Some((_, sp)) = self.pending_routine.take() {
                self.error(sp, "'routine' directive is not followed by a function declaration or definition");
            }
        }
    }

    /// Bind provisional callees: defined functions become `Func`, the rest `ExternFunc`s.
    pub fn finish(mut self) -> Result<Module, Diagnostics> {
        let mut map: Vec<Callee> = Vec::with_capacity(self.fns.len());
        for e in &self.fns {
            match e.defined {
                Some(id) => map.push(Callee::Func(id)),
                None => {
                    self.m.externs.push(ExternFunc {
                        name: e.name.clone(),
                        sig: e.cty.ir_sig(),
                        returns_twice: RETURNS_TWICE.contains(&e.name.as_str()),
                        span: e.span,
                    });
                    map.push(Callee::Extern(ExternId(self.m.externs.len() as u32 - 1)));
                }
            }
        }
        // Only functions actually used need an extern; unused ones are dropped.
        let mut used = vec![false; self.m.externs.len()];
        let fix = |c: &mut Callee, used: &mut Vec<bool>| {
            if let Callee::Extern(ExternId(i)) = *c {
                *c = map[i as usize];
                if let Callee::Extern(e) = *c {
                    used[e.index()] = true;
                }
            }
        };
        for f in &mut self.m.functions {
            for e in &mut f.exprs {
                match &mut e.kind {
                    ExprKind::Call(c, _) | ExprKind::FuncAddr(c) => fix(c, &mut used),
                    _ => {}
                }
            }
        }
        for g in &mut self.m.globals {
            if let Some(init) = &mut g.init {
                for r in &mut init.relocs {
                    if let RelocTarget::Extern(ExternId(i)) = r.target {
                        r.target = match map[i as usize] {
                            Callee::Func(f) => RelocTarget::Func(f),
                            Callee::Extern(e) => {
                                used[e.index()] = true;
                                RelocTarget::Extern(e)
                            }
                        };
                    }
                }
            }
        }
        // Compact externs to the used ones.
        let mut remap = vec![u32::MAX; self.m.externs.len()];
        let mut kept = vec![];
        for (i, e) in std::mem::take(&mut self.m.externs).into_iter().enumerate() {
            if used[i] {
                remap[i] = kept.len() as u32;
                kept.push(e);
            }
        }
        self.m.externs = kept;
        let re = |c: &mut Callee| {
            if let Callee::Extern(ExternId(i)) = c {
                *i = remap[*i as usize];
            }
        };
        for f in &mut self.m.functions {
            for e in &mut f.exprs {
                match &mut e.kind {
                    ExprKind::Call(c, _) | ExprKind::FuncAddr(c) => re(c),
                    _ => {}
                }
            }
        }
        for g in &mut self.m.globals {
            if let Some(init) = &mut g.init {
                for r in &mut init.relocs {
                    if let RelocTarget::Extern(ExternId(i)) = &mut r.target {
                        *i = remap[*i as usize];
                    }
                }
            }
        }
        for e in &self.fns {
            if let (Some(id), Some(r)) = (e.defined, &e.routine) {
                self.m.functions[id.index()].routine = Some(r.clone());
            }
        }
        let errors: Vec<Diagnostic> = self.diags.into_iter().filter(|d| d.severity == accjit_ir::Severity::Error).collect();
        if errors.is_empty() {
            Ok(self.m)
        } else {
            Err(Diagnostics(errors))
        }
    }
}

/// `found 'x'` / `found end of file` for "expected …" messages.
pub fn describe_found(t: &Token) -> String {
    match t.kind {
        TokenKind::Eof if t.text.is_empty() => "at end of input".into(),
        TokenKind::Eof => format!("at {}", t.text),
        TokenKind::Pragma => "before '#pragma acc'".into(),
        _ => format!("before '{}'", t.text),
    }
}

pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "auto"
            | "break"
            | "case"
            | "char"
            | "const"
            | "continue"
            | "default"
            | "do"
            | "double"
            | "else"
            | "enum"
            | "extern"
            | "float"
            | "for"
            | "goto"
            | "if"
            | "inline"
            | "int"
            | "long"
            | "register"
            | "restrict"
            | "return"
            | "short"
            | "signed"
            | "sizeof"
            | "static"
            | "struct"
            | "switch"
            | "typedef"
            | "union"
            | "unsigned"
            | "void"
            | "volatile"
            | "while"
            | "_Bool"
            | "_Complex"
            | "_Alignof"
            | "_Static_assert"
            | "_Noreturn"
            | "__restrict"
            | "__restrict__"
            | "__inline"
            | "__inline__"
    )
}

/// Closest name by edit distance (for "did you mean" hints).
pub fn closest<'b>(name: &str, cands: impl IntoIterator<Item = &'b str>) -> Option<&'b str> {
    if name.len() < 3 {
        return None;
    }
    let mut best: Option<(&str, usize)> = None;
    for c in cands {
        let d = edit_distance(name, c);
        let limit = ((name.len().max(c.len()) + 1) / 3).max(1);
        if d <= limit && best.map(|(_, bd)| d < bd).unwrap_or(true) {
            best = Some((c, d));
        }
    }
    best.map(|(c, _)| c)
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let c = if a[i - 1] == b[j - 1] { 0 } else { 1 };
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + c);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Parse a token stream (ending with `Eof`) into a module.
pub fn parse_tokens(toks: Vec<Token>, sm: Option<&accjit_ir::SourceMap>) -> Result<Module, Diagnostics> {
    let mut p = Parser::new(toks, sm);
    p.parse_translation_unit();
    p.finish()
}

//! Declarations: type specs (`real(kind=8)`, `real*8`, `character(len=*)`,
//! `type(t)`), attribute lists, entities with array specs and initialisers,
//! and the specification statements (`use`, `implicit`, `parameter`, `data`,
//! `common`, attribute statements).

use super::cursor::{Cursor, PResult};
use crate::ast::*;
use crate::lex::Tok;
use crate::Intent;

/// Names that start a type spec.
pub fn is_type_keyword(c: &Cursor) -> bool {
    match c.peek() {
        Tok::Name(n) => match n.as_str() {
            "integer" | "real" | "complex" | "logical" | "character" | "doubleprecision" | "doublecomplex" => true,
            "double" => c.at_kw_at(1, "precision") || c.at_kw_at(1, "complex"),
            "type" | "class" => c.peek_at(1) == &Tok::LParen,
            _ => false,
        },
        _ => false,
    }
}

impl Cursor<'_> {
    /// A type spec, the cursor at its keyword.
    pub fn type_spec(&mut self) -> PResult<TypeSpec> {
        let start = self.pos;
        let kw = self.name("a type")?;
        let base = match kw.text.as_str() {
            "integer" => BaseType::Integer,
            "real" => BaseType::Real,
            "complex" => BaseType::Complex,
            "logical" => BaseType::Logical,
            "character" => BaseType::Character,
            "doubleprecision" => BaseType::DoublePrecision,
            "doublecomplex" => BaseType::DoubleComplex,
            "double" => {
                if self.eat_kw("precision") {
                    BaseType::DoublePrecision
                } else {
                    self.expect_kw("complex")?;
                    BaseType::DoubleComplex
                }
            }
            "type" | "class" => {
                self.expect(&Tok::LParen, "`(`")?;
                let name = if self.at(&Tok::Star) {
                    let t = self.bump();
                    Name { text: "*".into(), span: self.tok_span(&t) }
                } else {
                    self.name("a type name")?
                };
                self.expect(&Tok::RParen, "`)`")?;
                let base = if kw.text == "type" { BaseType::Derived(name) } else { BaseType::Class(name) };
                return Ok(TypeSpec { base, kind: None, len: None, span: self.span_from(start) });
            }
            _ => return Err(accjit_ir::Diagnostic::error(kw.span, format!("expected a type, found `{}`", kw.text))),
        };
        let mut kind = None;
        let mut len = None;
        if self.at(&Tok::LParen) {
            self.bump();
            if base == BaseType::Character {
                // (len), (len=..), (len=.., kind=..), (kind=.., len=..), (n, k)
                let mut positional = 0;
                loop {
                    let key = if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Assign {
                        let k = self.name("a keyword")?;
                        self.bump();
                        Some(k.text)
                    } else {
                        None
                    };
                    let is_len = match key.as_deref() {
                        Some("len") => true,
                        Some("kind") => false,
                        Some(other) => return Err(self.err(format!("unknown character selector `{}`", other))),
                        None => positional == 0,
                    };
                    positional += 1;
                    if is_len {
                        len = Some(self.char_len_value()?);
                    } else {
                        kind = Some(self.expr()?);
                    }
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
            } else {
                if matches!(self.peek(), Tok::Name(n) if n == "kind") && self.peek_at(1) == &Tok::Assign {
                    self.bump();
                    self.bump();
                }
                kind = Some(self.expr()?);
            }
            self.expect(&Tok::RParen, "`)` closing the type parameters")?;
        } else if self.at(&Tok::Star) {
            // Old-style sizes: real*8, complex*16 (kind 8), character*10, character*(*).
            self.bump();
            if base == BaseType::Character {
                len = Some(self.star_len()?);
            } else {
                let t = self.bump();
                let sp = self.tok_span(&t);
                let Tok::Int { value, .. } = t.tok else { return Err(accjit_ir::Diagnostic::error(sp, "expected a byte size after `*`")) };
                let k = if matches!(base, BaseType::Complex) { value / 2 } else { value };
                kind = Some(Expr { kind: ExprKind::Int { value: k, kind: None }, span: sp });
            }
        }
        Ok(TypeSpec { base, kind, len, span: self.span_from(start) })
    }

    /// A length selector value: `*`, `:` or an expression.
    fn char_len_value(&mut self) -> PResult<CharLen> {
        if self.eat(&Tok::Star) {
            return Ok(CharLen::Assumed);
        }
        if self.eat(&Tok::Colon) {
            return Ok(CharLen::Deferred);
        }
        Ok(CharLen::Expr(self.expr()?))
    }

    /// After `*` in `character*10` / `s*(*)` / `s*(n+1)`.
    fn star_len(&mut self) -> PResult<CharLen> {
        if self.eat(&Tok::LParen) {
            let l = self.char_len_value()?;
            self.expect(&Tok::RParen, "`)`")?;
            return Ok(l);
        }
        let start = self.pos;
        let t = self.bump();
        match t.tok {
            Tok::Int { value, .. } => Ok(CharLen::Expr(Expr { kind: ExprKind::Int { value, kind: None }, span: self.span_from(start) })),
            _ => {
                self.pos = start;
                Err(self.err("expected a length after `*`"))
            }
        }
    }

    /// `( dim, dim, ... )` of an array spec, the cursor at `(`.
    pub fn array_spec(&mut self) -> PResult<Vec<DimSpec>> {
        self.expect(&Tok::LParen, "`(`")?;
        let mut dims = Vec::new();
        loop {
            let start = self.pos;
            let (lower, upper) = if self.eat(&Tok::Star) {
                (None, Bound::Star)
            } else if self.eat(&Tok::Colon) {
                (None, Bound::Colon)
            } else {
                let e = self.expr()?;
                if self.eat(&Tok::Colon) {
                    if self.eat(&Tok::Star) {
                        (Some(e), Bound::Star)
                    } else if matches!(self.peek(), Tok::Comma | Tok::RParen) {
                        (Some(e), Bound::Colon)
                    } else {
                        (Some(e), Bound::Expr(self.expr()?))
                    }
                } else {
                    (None, Bound::Expr(e))
                }
            };
            dims.push(DimSpec { lower, upper, span: self.span_from(start) });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`,` or `)` in the array spec")?;
        Ok(dims)
    }

    /// One attribute of a type declaration, the cursor at its name.
    pub fn attr(&mut self) -> PResult<Attr> {
        let name = self.name("an attribute")?;
        Ok(match name.text.as_str() {
            "parameter" => Attr::Parameter,
            "dimension" => Attr::Dimension(self.array_spec()?),
            "allocatable" => Attr::Allocatable,
            "pointer" => Attr::Pointer,
            "target" => Attr::Target,
            "intent" => {
                self.expect(&Tok::LParen, "`(`")?;
                let i = self.intent_spec()?;
                self.expect(&Tok::RParen, "`)`")?;
                Attr::Intent(i)
            }
            "value" => Attr::Value,
            "optional" => Attr::Optional,
            "save" => Attr::Save,
            "external" => Attr::External,
            "intrinsic" => Attr::Intrinsic,
            "public" => Attr::Public,
            "private" => Attr::Private,
            "protected" => Attr::Protected,
            "contiguous" => Attr::Contiguous,
            "volatile" => Attr::Volatile,
            "asynchronous" => Attr::Asynchronous,
            "bind" => Attr::Bind(self.bind_rest()?),
            other => return Err(accjit_ir::Diagnostic::error(name.span, format!("unknown attribute `{}`", other))),
        })
    }

    fn intent_spec(&mut self) -> PResult<Intent> {
        let n = self.name("`in`, `out` or `inout`")?;
        Ok(match n.text.as_str() {
            "in" => {
                if self.eat_kw("out") {
                    Intent::InOut
                } else {
                    Intent::In
                }
            }
            "out" => Intent::Out,
            "inout" => Intent::InOut,
            other => return Err(accjit_ir::Diagnostic::error(n.span, format!("expected `in`, `out` or `inout`, found `{}`", other))),
        })
    }

    /// After `bind`: `(c [, name = "x"])`.
    pub fn bind_rest(&mut self) -> PResult<Option<String>> {
        self.expect(&Tok::LParen, "`(`")?;
        self.expect_kw("c")?;
        let mut name = None;
        if self.eat(&Tok::Comma) {
            self.expect_kw("name")?;
            self.expect(&Tok::Assign, "`=`")?;
            match self.bump().tok {
                Tok::Str(s) => name = Some(s),
                _ => return Err(self.err("expected a character literal")),
            }
        }
        self.expect(&Tok::RParen, "`)`")?;
        Ok(name)
    }

    /// An entity: `name [(dims)] [*len] [= expr | => expr | /values/]`.
    pub fn entity(&mut self, allow_init: bool) -> PResult<Entity> {
        let start = self.pos;
        let name = self.name("a name to declare")?;
        let dims = if self.at(&Tok::LParen) { Some(self.array_spec()?) } else { None };
        let char_len = if self.eat(&Tok::Star) { Some(self.star_len()?) } else { None };
        let init = if allow_init && self.eat(&Tok::Assign) {
            Some(Init::Expr(self.expr()?))
        } else if allow_init && self.eat(&Tok::Arrow) {
            Some(Init::Pointer(self.expr()?))
        } else if allow_init && self.at(&Tok::Slash) {
            self.bump();
            Some(Init::Data(self.data_values()?))
        } else {
            None
        };
        Ok(Entity { name, dims, char_len, init, span: self.span_from(start) })
    }

    /// `type-spec [, attr]... [::] entity, ...`
    pub fn type_decl(&mut self) -> PResult<TypeDecl> {
        let start = self.pos;
        let ty = self.type_spec()?;
        let mut attrs = Vec::new();
        while self.eat(&Tok::Comma) {
            attrs.push(self.attr()?);
        }
        let colons = self.eat(&Tok::DoubleColon);
        if !colons && !attrs.is_empty() {
            return Err(self.err("expected `::` after the attributes"));
        }
        let mut entities = Vec::new();
        loop {
            entities.push(self.entity(true)?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect_end()?;
        Ok(TypeDecl { ty, attrs, entities, span: self.span_from(start) })
    }

    /// Values of a data statement after the opening `/`, through the closing `/`.
    pub fn data_values(&mut self) -> PResult<Vec<DataValue>> {
        let mut out = Vec::new();
        loop {
            let start = self.pos;
            let first = self.data_constant()?;
            let (repeat, value) = if self.eat(&Tok::Star) { (Some(first), self.data_constant()?) } else { (None, first) };
            out.push(DataValue { repeat, value, span: self.span_from(start) });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::Slash, "`/` closing the data values")?;
        Ok(out)
    }

    /// A data constant: an optionally signed literal, a named constant, a
    /// complex constant or a structure constructor (no operators: `/` ends the list).
    fn data_constant(&mut self) -> PResult<Expr> {
        let start = self.pos;
        if matches!(self.peek(), Tok::Plus | Tok::Minus) {
            let op = if self.at(&Tok::Minus) { UnaryOp::Neg } else { UnaryOp::Plus };
            self.bump();
            let operand = self.primary()?;
            return Ok(Expr { kind: ExprKind::Unary { op, operand: Box::new(operand) }, span: self.span_from(start) });
        }
        self.primary()
    }

    /// An object of a data statement.
    fn data_object(&mut self) -> PResult<DataObject> {
        if self.at_implied_do() {
            let d = self.implied_do(&mut |c: &mut Self| c.data_object())?;
            return Ok(DataObject::ImpliedDo(Box::new(d)));
        }
        Ok(DataObject::Var(self.designator()?))
    }

    /// A variable, element, section or component reference (no operators).
    pub fn designator(&mut self) -> PResult<Expr> {
        if !matches!(self.peek(), Tok::Name(_)) {
            return Err(self.err("expected a variable"));
        }
        self.primary()
    }

    /// `data objs /vals/ [,] objs /vals/ ...` after the keyword.
    pub fn data_sets(&mut self) -> PResult<Vec<DataSet>> {
        let mut sets = Vec::new();
        loop {
            let start = self.pos;
            let mut objects = Vec::new();
            loop {
                objects.push(self.data_object()?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::Slash, "`/` starting the data values")?;
            let values = self.data_values()?;
            sets.push(DataSet { objects, values, span: self.span_from(start) });
            self.eat(&Tok::Comma);
            if self.at_end() {
                return Ok(sets);
            }
        }
    }

    /// `use [, intrinsic | non_intrinsic ::] m [, renames | , only: items]` after `use`.
    pub fn use_stmt(&mut self) -> PResult<DeclKind> {
        let mut intrinsic = false;
        if self.eat(&Tok::Comma) {
            let n = self.name("`intrinsic` or `non_intrinsic`")?;
            intrinsic = n.text == "intrinsic";
        }
        self.eat(&Tok::DoubleColon);
        let module = self.name("a module name")?;
        let mut renames = Vec::new();
        let mut only = None;
        if self.eat(&Tok::Comma) {
            if self.at_kw("only") && self.peek_at(1) == &Tok::Colon {
                self.bump();
                self.bump();
                let mut items = Vec::new();
                while !self.at_end() {
                    items.push(self.use_item()?);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
                only = Some(items);
            } else {
                loop {
                    renames.push(self.use_item()?);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
            }
        }
        self.expect_end()?;
        Ok(DeclKind::Use { module, intrinsic, renames, only })
    }

    fn use_item(&mut self) -> PResult<UseItem> {
        let local = self.generic_name()?;
        if self.eat(&Tok::Arrow) {
            let remote = self.generic_name()?;
            return Ok(UseItem { local, remote });
        }
        Ok(UseItem { remote: local.clone(), local })
    }

    /// A name, or `operator(op)` / `assignment(=)` as one name (`operator(+)`).
    pub fn generic_name(&mut self) -> PResult<Name> {
        let start = self.pos;
        let n = self.name("a name")?;
        if (n.text == "operator" || n.text == "assignment") && self.at(&Tok::LParen) {
            self.bump();
            let t = self.bump();
            let op = match &t.tok {
                Tok::DotOp(o) => format!(".{}.", o),
                other => super::cursor::punct(other).to_string(),
            };
            self.expect(&Tok::RParen, "`)`")?;
            return Ok(Name { text: format!("{}({})", n.text, op), span: self.span_from(start) });
        }
        Ok(n)
    }

    /// `implicit none [(...)]` / `implicit type (a-h, ...), ...` after `implicit`.
    pub fn implicit_stmt(&mut self) -> PResult<DeclKind> {
        if self.eat_kw("none") {
            if self.eat(&Tok::LParen) {
                while !self.eat(&Tok::RParen) {
                    if self.at_end() {
                        return Err(self.err("expected `)`"));
                    }
                    self.bump();
                }
            }
            self.expect_end()?;
            return Ok(DeclKind::ImplicitNone);
        }
        let mut rules = Vec::new();
        loop {
            let start = self.pos;
            // `real (a-h)` has no kind; `real(8) (a-h)` has one: look past the first group.
            let kw_end = if self.at_kw("double") { self.pos + 2 } else { self.pos + 1 };
            let two_groups = self.toks.get(kw_end).map(|t| t.tok == Tok::LParen).unwrap_or(false)
                && self.matching(kw_end).map(|c| self.toks.get(c + 1).map(|t| t.tok == Tok::LParen).unwrap_or(false)).unwrap_or(false);
            let ty = if two_groups || self.toks.get(kw_end).map(|t| t.tok == Tok::Star).unwrap_or(false) {
                self.type_spec()?
            } else {
                // Only the keyword(s).
                let s = self.pos;
                let kw = self.name("a type")?;
                let base = match kw.text.as_str() {
                    "integer" => BaseType::Integer,
                    "real" => BaseType::Real,
                    "complex" => BaseType::Complex,
                    "logical" => BaseType::Logical,
                    "character" => BaseType::Character,
                    "doubleprecision" => BaseType::DoublePrecision,
                    "doublecomplex" => BaseType::DoubleComplex,
                    "double" => {
                        if self.eat_kw("precision") {
                            BaseType::DoublePrecision
                        } else {
                            self.expect_kw("complex")?;
                            BaseType::DoubleComplex
                        }
                    }
                    "type" => {
                        self.pos = s;
                        return Err(self.err("implicit type(...) is not supported"));
                    }
                    other => return Err(accjit_ir::Diagnostic::error(kw.span, format!("expected a type, found `{}`", other))),
                };
                TypeSpec { base, kind: None, len: None, span: self.span_from(s) }
            };
            self.expect(&Tok::LParen, "`(` with letter ranges")?;
            let mut letters = Vec::new();
            loop {
                let a = self.letter()?;
                let b = if self.eat(&Tok::Minus) { self.letter()? } else { a };
                letters.push((a, b));
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::RParen, "`)`")?;
            rules.push(ImplicitRule { ty, letters, span: self.span_from(start) });
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect_end()?;
        Ok(DeclKind::Implicit(rules))
    }

    fn letter(&mut self) -> PResult<char> {
        match self.peek().clone() {
            Tok::Name(n) if n.len() == 1 => {
                self.bump();
                Ok(n.chars().next().unwrap())
            }
            _ => Err(self.err("expected a letter")),
        }
    }

    /// `parameter (a = 1, b = 2)` after `parameter`.
    pub fn parameter_stmt(&mut self) -> PResult<DeclKind> {
        self.expect(&Tok::LParen, "`(`")?;
        let mut out = Vec::new();
        loop {
            let n = self.name("a constant name")?;
            self.expect(&Tok::Assign, "`=`")?;
            let e = self.expr()?;
            out.push((n, e));
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`)`")?;
        self.expect_end()?;
        Ok(DeclKind::Parameter(out))
    }

    /// `common /a/ x, y(10) /b/ z` after `common`.
    pub fn common_stmt(&mut self) -> PResult<DeclKind> {
        let mut blocks: Vec<(Option<Name>, Vec<Entity>)> = Vec::new();
        let mut cur: (Option<Name>, Vec<Entity>) = (None, Vec::new());
        let mut first = true;
        loop {
            if self.at(&Tok::Slash) || self.at(&Tok::Concat) {
                if !first {
                    blocks.push(std::mem::take(&mut cur));
                }
                if self.eat(&Tok::Concat) {
                    cur.0 = None;
                } else {
                    self.bump();
                    cur.0 = if self.at(&Tok::Slash) { None } else { Some(self.name("a common block name")?) };
                    self.expect(&Tok::Slash, "`/`")?;
                }
            }
            first = false;
            cur.1.push(self.entity(false)?);
            if self.at_end() {
                break;
            }
            self.eat(&Tok::Comma);
        }
        blocks.push(cur);
        Ok(DeclKind::Common(blocks))
    }

    /// An attribute statement: `dimension a(10)` (an empty `Dimension`, the specs
    /// on the entities), `save`, `intent(in) :: x`, ... the cursor at the keyword.
    pub fn attr_stmt(&mut self) -> PResult<DeclKind> {
        // `dimension a(10), b(n)`: the array specs belong to the entities.
        let attr = if self.eat_kw("dimension") { Attr::Dimension(Vec::new()) } else { self.attr()? };
        self.eat(&Tok::DoubleColon);
        let mut entities = Vec::new();
        while !self.at_end() {
            if self.at(&Tok::Slash) {
                // A common block in save / bind: `/name/`.
                let start = self.pos;
                self.bump();
                let n = self.name("a common block name")?;
                self.expect(&Tok::Slash, "`/`")?;
                let span = self.span_from(start);
                entities.push(Entity { name: Name { text: format!("/{}/", n.text), span }, dims: None, char_len: None, init: None, span });
            } else if matches!(attr, Attr::Public | Attr::Private) {
                let start = self.pos;
                let name = self.generic_name()?;
                entities.push(Entity { name, dims: None, char_len: None, init: None, span: self.span_from(start) });
            } else {
                entities.push(self.entity(false)?);
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect_end()?;
        Ok(DeclKind::AttrStmt { attr, entities })
    }
}

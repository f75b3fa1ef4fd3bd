//! Declarations: specifiers, declarators (built inside out with a `Hole`
//! placeholder), struct/union layout, enums, typedefs, global variables,
//! function prototypes and definitions, and block-scope declarations
//! (automatic, `static` locals as internal globals, VLAs with hidden length
//! locals and `Alloca`).

use super::ctype::{ArrLen, CFunc, CType};
use super::expr::{CExpr, Cat};
use super::scope::{Sym, Tag};
use super::{FnBuilder, FnEntry, PResult, Parser};
use crate::token::TokenKind;
use accjit_ir::{ExprKind, Field, FuncId, Function, Global, GlobalId, Linkage, LocalId, Scalar, Span, Stmt, StmtKind, StructDef, StructId, Type};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Storage {
    None,
    Typedef,
    Extern,
    Static,
}

#[derive(Clone, Debug)]
pub struct Specs {
    pub ty: CType,
    pub storage: Storage,
    pub is_const: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ParamInfo {
    pub name: Option<(String, Span)>,
    pub ty: CType,
    pub is_const: bool,
}

/// A parsed declarator: the declared name (None when abstract), its type,
/// the constness of the declared object, and the parameters when the name is
/// directly a function (for definitions).
#[derive(Clone, Debug)]
pub struct Declr {
    pub name: Option<(String, Span)>,
    pub ty: CType,
    pub is_const: bool,
    pub params: Option<Vec<ParamInfo>>,
    pub span: Span,
}

enum Suffix {
    Array(ArrLen),
    Func(Vec<ParamInfo>, bool, bool),
}

const TYPE_KEYWORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "_Complex",
    "__complex__",
    "struct",
    "union",
    "enum",
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "__restrict__",
    "typedef",
    "extern",
    "static",
    "auto",
    "register",
    "inline",
    "__inline",
    "__inline__",
    "_Noreturn",
    "__extension__",
    "__attribute__",
    "__signed__",
    "__const",
    "_Thread_local",
    "__thread",
    "__builtin_va_list",
];

impl<'a> Parser<'a> {
    /// Does the token `n` ahead start a declaration specifier or type name?
    pub fn is_type_start_at(&self, n: usize) -> bool {
        let t = self.peek_at(n);
        t.kind == TokenKind::Ident && (TYPE_KEYWORDS.contains(&t.text.as_str()) || self.scopes.is_typedef(&t.text))
    }

    fn skip_attribute(&mut self) -> PResult<()> {
        // `__attribute__((...))`
        self.bump();
        self.expect_p("(")?;
        let mut depth = 1;
        while depth > 0 && !self.at_eof() {
            let t = self.bump();
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                depth -= 1;
            }
        }
        Ok(())
    }

    /// Declaration specifiers: storage class, qualifiers and the type.
    pub fn decl_specs(&mut self) -> PResult<Specs> {
        let start = self.span();
        let mut storage = Storage::None;
        let mut is_const = false;
        let (mut void, mut char, mut short, mut int, mut long, mut float, mut double) = (0, 0, 0, 0, 0, 0, 0);
        let (mut signed, mut unsigned, mut boolean, mut complex) = (0, 0, 0, 0);
        let mut other: Option<CType> = None;
        let mut any = false;
        loop {
            let t = self.peek().clone();
            if t.kind != TokenKind::Ident {
                break;
            }
            let set_storage = |p: &mut Self, s: Storage| -> PResult<()> {
                if storage != Storage::None && storage != s {
                    return p.err(t.span, "multiple storage classes in declaration specifiers");
                }
                Ok(())
            };
            match t.text.as_str() {
                "typedef" => {
                    set_storage(self, Storage::Typedef)?;
                    storage = Storage::Typedef;
                }
                "extern" => {
                    set_storage(self, Storage::Extern)?;
                    storage = Storage::Extern;
                }
                "static" => {
                    set_storage(self, Storage::Static)?;
                    storage = Storage::Static;
                }
                "auto" | "register" | "inline" | "__inline" | "__inline__" | "_Noreturn" | "__extension__" | "volatile" | "restrict" | "__restrict"
                | "__restrict__" => {}
                "_Thread_local" | "__thread" => return self.err(t.span, "thread-local storage is not supported"),
                "const" | "__const" => is_const = true,
                "__attribute__" => {
                    self.skip_attribute()?;
                    continue;
                }
                "void" => void += 1,
                "char" => char += 1,
                "short" => short += 1,
                "int" => int += 1,
                "long" => long += 1,
                "float" => float += 1,
                "double" => double += 1,
                "signed" | "__signed__" => signed += 1,
                "unsigned" => unsigned += 1,
                "_Bool" => boolean += 1,
                "_Complex" | "__complex__" => complex += 1,
                "struct" | "union" => {
                    self.bump();
                    let ty = self.struct_spec(t.text == "union", t.span)?;
                    if other.is_some() {
                        return self.err(t.span, "two or more data types in declaration specifiers");
                    }
                    other = Some(ty);
                    any = true;
                    continue;
                }
                "enum" => {
                    self.bump();
                    self.enum_spec(t.span)?;
                    if other.is_some() {
                        return self.err(t.span, "two or more data types in declaration specifiers");
                    }
                    other = Some(CType::INT);
                    any = true;
                    continue;
                }
                "__builtin_va_list" => {
                    other = Some(CType::ptr(CType::Void));
                }
                name => {
                    let basic = void + char + short + int + long + float + double + signed + unsigned + boolean + complex;
                    if other.is_none() && basic == 0 {
                        if let Some(Sym::Typedef { ty, is_const: c }) = self.scopes.lookup(name).cloned() {
                            other = Some(ty);
                            is_const |= c;
                            self.bump();
                            any = true;
                            continue;
                        }
                    }
                    break;
                }
            }
            any = true;
            self.bump();
        }
        let sp = start.to(self.prev_span());
        if !any {
            let t = self.peek().clone();
            return self.err(t.span, format!("expected a type {}", super::describe_found(&t)));
        }
        let basic = void + char + short + int + long + float + double + signed + unsigned + boolean + complex;
        let ty = if let Some(o) = other {
            if basic > 0 {
                return self.err(sp, "two or more data types in declaration specifiers");
            }
            o
        } else if basic == 0 {
            if storage == Storage::None && !is_const {
                return self.err(sp, "type specifier missing in declaration");
            }
            // `static x;`, `const x;`: implicit int (C89), accepted.
            CType::INT
        } else if void > 0 {
            if basic > 1 {
                return self.err(sp, "invalid combination of type specifiers");
            }
            CType::Void
        } else if boolean > 0 {
            CType::Scalar(Scalar::Bool)
        } else if float > 0 || double > 0 || complex > 0 {
            if char + short + int + signed + unsigned > 0 || long > 1 || (float > 0 && (double > 0 || long > 0)) {
                return self.err(sp, "invalid combination of type specifiers");
            }
            let s = if float > 0 { Scalar::F32 } else { Scalar::F64 };
            if complex > 0 {
                CType::Complex(s)
            } else {
                CType::Scalar(s)
            }
        } else {
            if signed > 0 && unsigned > 0 || char > 0 && (short + long > 0) || short > 0 && long > 0 || long > 2 {
                return self.err(sp, "invalid combination of type specifiers");
            }
            let s = if char > 0 {
                if unsigned > 0 {
                    Scalar::U8
                } else {
                    Scalar::I8
                }
            } else if short > 0 {
                if unsigned > 0 {
                    Scalar::U16
                } else {
                    Scalar::I16
                }
            } else if long > 0 {
                if unsigned > 0 {
                    Scalar::U64
                } else {
                    Scalar::I64
                }
            } else if unsigned > 0 {
                Scalar::U32
            } else {
                Scalar::I32
            };
            CType::Scalar(s)
        };
        Ok(Specs { ty, storage, is_const, span: sp })
    }

    /// `struct`/`union` after the keyword.
    fn struct_spec(&mut self, is_union: bool, kw: Span) -> PResult<CType> {
        while self.is_kw("__attribute__") {
            self.skip_attribute()?;
        }
        let name = if self.peek().kind == TokenKind::Ident && !self.is_p("{") { Some(self.expect_ident("a struct name")?) } else { None };
        let kind = if is_union { "union" } else { "struct" };
        if !self.is_p("{") {
            let Some((n, nsp)) = name else { return self.err(self.span(), format!("expected '{{' or a name after '{}'", kind)) };
            // A reference (or a forward declaration when followed by `;`).
            let forward = self.is_p(";");
            if !forward {
                if let Some(Tag::Struct(id)) = self.scopes.lookup_tag(&n) {
                    return Ok(CType::Struct(*id));
                }
            } else if let Some(Tag::Struct(id)) = self.scopes.lookup_tag_here(&n) {
                return Ok(CType::Struct(*id));
            }
            let _ = nsp;
            let id = self.new_struct(&n, is_union);
            self.scopes.declare_tag(&n, Tag::Struct(id));
            return Ok(CType::Struct(id));
        }
        // A definition.
        let id = match &name {
            Some((n, nsp)) => match self.scopes.lookup_tag_here(n) {
                Some(Tag::Struct(id)) => {
                    let id = *id;
                    if self.m.structs[id.0 as usize].complete {
                        return self.err(*nsp, format!("redefinition of '{} {}'", kind, n));
                    }
                    id
                }
                _ => {
                    let id = self.new_struct(n, is_union);
                    self.scopes.declare_tag(n, Tag::Struct(id));
                    id
                }
            },
            None => {
                self.anon += 1;
                let n = format!("<anonymous {}>", self.anon);
                self.new_struct(&n, is_union)
            }
        };
        self.bump(); // {
                     // (name, type, span, bit-field width)
        let mut fields: Vec<(String, CType, Span, Option<u32>)> = vec![];
        while !self.is_p("}") && !self.at_eof() {
            let specs = self.decl_specs()?;
            if self.eat_p(";") {
                // Anonymous struct/union member.
                if let CType::Struct(_) = specs.ty {
                    fields.push((String::new(), specs.ty, specs.span, None));
                }
                continue;
            }
            loop {
                let (name, ty, nsp) = if self.is_p(":") {
                    (String::new(), specs.ty.clone(), self.span())
                } else {
                    let d = self.declarator(specs.ty.clone(), specs.is_const, false)?;
                    let Some((n, nsp)) = d.name else { return self.err(d.span, "expected a member name") };
                    (n, d.ty, nsp)
                };
                let width = if self.eat_p(":") {
                    let (w, wsp) = self.const_int_expr()?;
                    if !ty.is_int() {
                        let tn = self.tyname(&ty);
                        return self.err(nsp, format!("bit-field '{}' has non-integer type '{}'", name, tn));
                    }
                    let max = ty.size(&self.m.structs).unwrap_or(4) * 8;
                    if w < 0 || w as u64 > max || (w == 0 && !name.is_empty()) {
                        return self.err(wsp, format!("invalid width {} for bit-field '{}'", w, name));
                    }
                    Some(w as u32)
                } else {
                    None
                };
                if !name.is_empty() && fields.iter().any(|f| f.0 == name) {
                    return self.err(nsp, format!("duplicate member '{}'", name));
                }
                if ty.is_vla() {
                    return self.err(nsp, "a struct member cannot have a variably modified type");
                }
                if name.is_empty() && width.is_none() {
                    return self.err(nsp, "expected a member name");
                }
                fields.push((name, ty, nsp, width));
                if !self.eat_p(",") {
                    break;
                }
            }
            self.expect_p(";")?;
        }
        let rb = self.expect_p("}")?;
        let _ = kw.to(rb);
        // Layout, in bits (bit-fields pack into units of their type).
        let mut out = vec![];
        let mut ctys = vec![];
        let (mut bitoff, mut size, mut align) = (0u64, 0u64, 1u64);
        let nf = fields.len();
        for (k, (n, t, sp, width)) in fields.into_iter().enumerate() {
            let flexible = matches!(t, CType::Array(_, ArrLen::Incomplete)) && k == nf - 1 && !is_union;
            let sz = match t.size(&self.m.structs) {
                Some(s) => s,
                None if flexible => 0,
                None => {
                    let tn = self.tyname(&t);
                    return self.err(sp, format!("field '{}' has incomplete type '{}'", n, tn));
                }
            };
            let al = t.align(&self.m.structs).max(1);
            if let Some(w) = width {
                let unit = sz * 8;
                let start = if is_union { 0 } else { bitoff };
                let start = if w == 0 || (start / unit) != ((start + w as u64).saturating_sub(1) / unit) { (start + unit - 1) / unit * unit } else { start };
                if w == 0 {
                    bitoff = start;
                    continue;
                }
                let unit_off = start / unit * sz;
                if !n.is_empty() {
                    align = align.max(al);
                    let bit = (start - unit_off * 8) as u32;
                    self.bitfields.insert((id.0, out.len() as u32), super::bitfield::BitInfo { bit, width: w });
                    out.push(Field { name: n, ty: t.ir(), offset: unit_off });
                    ctys.push(t);
                }
                if is_union {
                    size = size.max((w as u64 + 7) / 8);
                } else {
                    bitoff = start + w as u64;
                    size = (bitoff + 7) / 8;
                }
                continue;
            }
            align = align.max(al);
            let o = if is_union { 0 } else { ((bitoff + 7) / 8 + al - 1) / al * al };
            out.push(Field { name: n, ty: t.ir(), offset: o });
            ctys.push(t);
            if is_union {
                size = size.max(sz);
            } else {
                bitoff = (o + sz) * 8;
                size = o + sz;
            }
        }
        let size = (size + align - 1) / align * align;
        let d = &mut self.m.structs[id.0 as usize];
        d.fields = out;
        d.size = size;
        d.align = align;
        d.complete = true;
        self.struct_ctypes.insert(id.0, ctys);
        Ok(CType::Struct(id))
    }

    fn new_struct(&mut self, name: &str, is_union: bool) -> StructId {
        self.m.structs.push(StructDef { name: name.to_string(), is_union, fields: vec![], size: 0, align: 1, complete: false });
        StructId(self.m.structs.len() as u32 - 1)
    }

    /// `enum` after the keyword; enumerators are declared as constants.
    fn enum_spec(&mut self, _kw: Span) -> PResult<()> {
        let name = if self.peek().kind == TokenKind::Ident { Some(self.expect_ident("an enum name")?) } else { None };
        if !self.is_p("{") {
            if name.is_none() {
                return self.err(self.span(), "expected '{' after 'enum'");
            }
            return Ok(());
        }
        self.bump();
        if let Some((n, _)) = &name {
            self.scopes.declare_tag(n, Tag::Enum);
        }
        let mut next: i64 = 0;
        while !self.is_p("}") && !self.at_eof() {
            let (n, nsp) = self.expect_ident("an enumerator name")?;
            if self.eat_p("=") {
                next = self.const_int_expr()?.0;
            }
            if let Some((_, prev)) = self.scopes.lookup_here(&n) {
                let prev = *prev;
                self.push_diag(accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}'", n)).with_note(prev, "previous definition is here"));
                return Err(());
            }
            self.scopes.declare(&n, Sym::Enum(next), nsp);
            next = next.wrapping_add(1);
            if !self.eat_p(",") {
                break;
            }
        }
        self.expect_p("}")?;
        Ok(())
    }

    /// A type name (casts, `sizeof`, `_Alignof`): specifiers and an abstract declarator.
    pub fn type_name(&mut self) -> PResult<(CType, bool)> {
        let specs = self.decl_specs()?;
        if specs.storage != Storage::None {
            return self.err(specs.span, "storage class in a type name");
        }
        let d = self.declarator(specs.ty, specs.is_const, true)?;
        if let Some((_, sp)) = d.name {
            return self.err(sp, "unexpected name in a type name");
        }
        Ok((d.ty, d.is_const))
    }

    /// A declarator over `base` (whose constness is `base_const`).
    pub fn declarator(&mut self, base: CType, base_const: bool, abstract_ok: bool) -> PResult<Declr> {
        let start = self.span();
        let mut ty = base;
        let mut cur_const = base_const;
        while self.is_p("*") {
            self.bump();
            ty = CType::Ptr(Box::new(ty), cur_const);
            cur_const = false;
            loop {
                if self.eat_kw("const") || self.eat_kw("__const") {
                    cur_const = true;
                } else if self.eat_kw("volatile") || self.eat_kw("restrict") || self.eat_kw("__restrict") || self.eat_kw("__restrict__") {
                } else if self.is_kw("__attribute__") {
                    self.skip_attribute()?;
                } else {
                    break;
                }
            }
        }
        // Direct declarator.
        let mut name = None;
        let mut inner: Option<Declr> = None;
        let t = self.peek().clone();
        if t.kind == TokenKind::Ident && !super::is_keyword(&t.text) && !(abstract_ok && self.scopes.is_typedef(&t.text)) {
            self.bump();
            name = Some((t.text.clone(), t.span));
        } else if t.is_punct("(") && self.nested_declarator_follows(abstract_ok) {
            self.bump();
            inner = Some(self.declarator(CType::Hole, false, abstract_ok)?);
            self.expect_p(")")?;
        } else if !abstract_ok {
            return self.err(t.span, format!("expected identifier or '(' {}", super::describe_found(&t)));
        }
        while self.is_kw("__attribute__") || self.is_kw("__asm__") || self.is_kw("asm") {
            if self.is_kw("__attribute__") {
                self.skip_attribute()?;
            } else {
                self.skip_attribute()?;
            }
        }
        let mut suffixes = vec![];
        loop {
            if self.is_p("[") {
                self.bump();
                let len = self.array_dim()?;
                suffixes.push(Suffix::Array(len));
            } else if self.is_p("(") {
                self.bump();
                let (ps, variadic, proto) = self.param_list()?;
                suffixes.push(Suffix::Func(ps, variadic, proto));
            } else {
                break;
            }
        }
        while self.is_kw("__attribute__") || self.is_kw("__asm__") || self.is_kw("asm") {
            self.skip_attribute()?;
        }
        let mut params = None;
        if name.is_some() {
            if let Some(Suffix::Func(ps, ..)) = suffixes.first() {
                params = Some(ps.clone());
            }
        }
        for s in suffixes.into_iter().rev() {
            ty = match s {
                Suffix::Array(len) => {
                    if matches!(ty, CType::Func(_)) {
                        return self.err(start, "declaration of an array of functions");
                    }
                    if ty.is_void() {
                        return self.err(start, "declaration of an array of 'void'");
                    }
                    CType::Array(Box::new(ty), len)
                }
                Suffix::Func(ps, variadic, proto) => {
                    if matches!(ty, CType::Func(_) | CType::Array(..)) {
                        return self.err(start, "function cannot return a function or an array");
                    }
                    CType::Func(Box::new(CFunc { params: ps.into_iter().map(|p| p.ty).collect(), ret: ty, variadic, proto }))
                }
            };
        }
        let span = start.to(self.prev_span());
        match inner {
            Some(d) => {
                let had_ptr = contains_ptr_to_hole(&d.ty);
                let obj_const = if had_ptr { d.is_const } else { cur_const };
                Ok(Declr { name: d.name, ty: d.ty.fill_hole(&ty, cur_const), is_const: obj_const, params: d.params, span })
            }
            None => Ok(Declr { name, ty, is_const: cur_const, params, span }),
        }
    }

    /// After `(` in a declarator: a nested declarator rather than parameters?
    fn nested_declarator_follows(&self, abstract_ok: bool) -> bool {
        let t = self.peek_at(1);
        if t.is_punct("*") || t.is_punct("^") {
            return true;
        }
        if t.is_punct("(") || t.is_punct("[") {
            return !abstract_ok;
        }
        t.kind == TokenKind::Ident && !super::is_keyword(&t.text) && !self.scopes.is_typedef(&t.text) && !abstract_ok
    }

    /// After `[`: the length of an array declarator, and the `]`.
    fn array_dim(&mut self) -> PResult<ArrLen> {
        while self.eat_kw("static") || self.eat_kw("const") || self.eat_kw("restrict") || self.eat_kw("__restrict") || self.eat_kw("volatile") {}
        if self.eat_p("]") {
            return Ok(ArrLen::Incomplete);
        }
        if self.is_p("*") && self.peek_at(1).is_punct("]") {
            self.bump();
            self.bump();
            return Ok(ArrLen::Incomplete);
        }
        if self.in_params > 0 {
            // Parameters may use earlier parameters: try a constant, else defer.
            let lo = self.pos;
            let mut depth = 0;
            let mut hi = lo;
            while hi < self.toks.len() - 1 {
                let t = &self.toks[hi];
                if t.is_punct("[") || t.is_punct("(") {
                    depth += 1;
                } else if t.is_punct(")") || (t.is_punct("]") && depth > 0) {
                    depth -= 1;
                } else if t.is_punct("]") {
                    break;
                }
                hi += 1;
            }
            self.quiet += 1;
            let r = self.const_int_expr();
            self.quiet -= 1;
            self.pos = hi;
            self.expect_p("]")?;
            return Ok(match r {
                Ok((v, _)) if v >= 0 => ArrLen::Fixed(v as u64),
                _ => ArrLen::Deferred(lo as u32, hi as u32),
            });
        }
        let e = self.assign_value()?;
        self.expect_p("]")?;
        self.dim_from_expr(e)
    }

    /// A dimension from its expression: a constant, or a VLA length local.
    pub fn dim_from_expr(&mut self, e: CExpr) -> PResult<ArrLen> {
        if !e.ty.is_int() {
            let n = self.tyname(&e.ty);
            return self.err(e.span, format!("size of array has non-integer type '{}'", n));
        }
        if let Some(v) = self.const_value(e.id).and_then(|v| v.as_int()) {
            let neg = if e.ty.scalar().map(|s| s.is_signed()).unwrap_or(true) { v < 0 } else { false };
            if neg {
                return self.err(e.span, "array has negative size");
            }
            return Ok(ArrLen::Fixed(v as u64));
        }
        if self.fb.is_none() {
            return self.err(e.span, "variable length array declared at file scope");
        }
        let v = self.conv(e.clone(), &CType::LONG);
        let l = self.func_mut().add_local(".vla.len", Type::I64, e.span);
        self.pending.push(Stmt { kind: StmtKind::Decl(l, Some(v.id)), span: e.span });
        let fb = self.fb.as_mut().ok_or(())?;
        fb.vla.push(l);
        Ok(ArrLen::Vla(fb.vla.len() as u32 - 1))
    }

    /// After `(`: a parameter type list and the `)`.
    fn param_list(&mut self) -> PResult<(Vec<ParamInfo>, bool, bool)> {
        if self.eat_p(")") {
            return Ok((vec![], false, false));
        }
        if self.is_kw("void") && self.peek_at(1).is_punct(")") {
            self.bump();
            self.bump();
            return Ok((vec![], false, true));
        }
        self.in_params += 1;
        let r = self.param_list_inner();
        self.in_params -= 1;
        r
    }

    fn param_list_inner(&mut self) -> PResult<(Vec<ParamInfo>, bool, bool)> {
        let mut ps = vec![];
        let mut variadic = false;
        loop {
            if self.eat_p("...") {
                variadic = true;
                break;
            }
            if !self.is_type_start_at(0) {
                let t = self.peek().clone();
                if t.kind == TokenKind::Ident && !super::is_keyword(&t.text) {
                    return self.err(t.span, format!("unknown type name '{}'", t.text));
                }
                return self.err(t.span, format!("expected a parameter declaration {}", super::describe_found(&t)));
            }
            let specs = self.decl_specs()?;
            let d = self.declarator(specs.ty.clone(), specs.is_const, true)?;
            if d.ty.is_void() {
                return self.err(d.span, "'void' must be the only parameter");
            }
            // `const T a[]` is adjusted to `const T *a`: the qualifier moves to the pointee.
            let (ty, is_const) = match d.ty {
                CType::Array(t, _) => (CType::Ptr(t, d.is_const), false),
                t => (t.adjust_param(), d.is_const),
            };
            ps.push(ParamInfo { name: d.name, ty, is_const });
            if !self.eat_p(",") {
                break;
            }
        }
        self.expect_p(")")?;
        Ok((ps, variadic, true))
    }

    // ---- declarations ----

    /// One external declaration (after a possible pragma).
    pub fn external_declaration(&mut self) -> PResult<()> {
        if self.is_kw("_Static_assert") {
            return self.static_assert();
        }
        if !self.is_type_start_at(0) {
            let t = self.peek().clone();
            if t.kind == TokenKind::Ident && !super::is_keyword(&t.text) && self.peek_at(1).kind == TokenKind::Ident {
                return self.err(t.span, format!("unknown type name '{}'", t.text));
            }
            if t.kind == TokenKind::Ident && self.peek_at(1).is_punct("(") {
                return self.err(t.span, format!("type specifier missing: '{}' needs a return type", t.text));
            }
            return self.err(t.span, format!("expected a declaration {}", super::describe_found(&t)));
        }
        let specs = self.decl_specs()?;
        if self.eat_p(";") {
            return Ok(());
        }
        let mut first = true;
        loop {
            let d = self.declarator(specs.ty.clone(), specs.is_const, false)?;
            if first && matches!(d.ty, CType::Func(_)) && self.is_p("{") {
                return self.function_definition(&specs, d);
            }
            first = false;
            self.file_scope_declarator(&specs, d)?;
            if !self.eat_p(",") {
                break;
            }
        }
        self.expect_p(";")?;
        Ok(())
    }

    pub fn static_assert(&mut self) -> PResult<()> {
        let kw = self.bump().span;
        self.expect_p("(")?;
        let (v, sp) = self.const_int_expr()?;
        let msg = if self.eat_p(",") { String::from_utf8_lossy(&self.string_bytes()?.0).trim_end_matches('\0').to_string() } else { String::new() };
        self.expect_p(")")?;
        self.expect_p(";")?;
        if v == 0 {
            return self.err(kw.to(sp), format!("static assertion failed{}", if msg.is_empty() { String::new() } else { format!(": {}", msg) }));
        }
        Ok(())
    }

    fn file_scope_declarator(&mut self, specs: &Specs, d: Declr) -> PResult<()> {
        let Some((name, nsp)) = d.name.clone() else { return self.err(d.span, "declaration does not declare anything") };
        match specs.storage {
            Storage::Typedef => {
                self.declare_typedef(&name, nsp, d.ty, d.is_const)?;
                if self.is_p("=") {
                    return self.err(self.span(), "a typedef cannot be initialised");
                }
                Ok(())
            }
            _ => {
                if let CType::Func(f) = &d.ty {
                    if self.is_p("=") {
                        return self.err(self.span(), format!("function '{}' is initialised like a variable", name));
                    }
                    self.declare_function(&name, nsp, (**f).clone(), specs.storage == Storage::Static)?;
                    return Ok(());
                }
                self.global_variable(specs, &name, nsp, d)
            }
        }
    }

    pub fn declare_typedef(&mut self, name: &str, nsp: Span, ty: CType, is_const: bool) -> PResult<()> {
        if let Some((sym, prev)) = self.scopes.lookup_here(name) {
            let same = matches!(sym, Sym::Typedef { ty: t, .. } if t.erase_vla() == ty.erase_vla());
            if !same {
                let prev = *prev;
                self.push_diag(accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}'", name)).with_note(prev, "previous definition is here"));
                return Err(());
            }
        }
        self.scopes.declare(name, Sym::Typedef { ty, is_const }, nsp);
        Ok(())
    }

    /// Declare (or re-declare) a function; returns its index in `fns`.
    pub fn declare_function(&mut self, name: &str, nsp: Span, f: CFunc, is_static: bool) -> PResult<usize> {
        let f = CFunc { params: f.params.iter().map(|p| p.erase_vla()).collect(), ret: f.ret.erase_vla(), ..f };
        let existing = self.fns.iter().position(|e| e.name == name);
        let idx = match existing {
            Some(i) => {
                let old = &self.fns[i].cty;
                let compatible = if old.proto && f.proto { old.ir_sig() == f.ir_sig() } else { old.ret.ir() == f.ret.ir() };
                if !compatible {
                    let prev = self.fns[i].span;
                    self.push_diag(
                        accjit_ir::Diagnostic::error(nsp, format!("conflicting types for '{}'", name)).with_note(prev, "previous declaration is here"),
                    );
                    return Err(());
                }
                if f.proto && !self.fns[i].cty.proto {
                    self.fns[i].cty = f;
                }
                i
            }
            None => {
                self.fns.push(FnEntry { name: name.to_string(), cty: f, defined: None, is_static, routine: None, span: nsp });
                self.fns.len() - 1
            }
        };
        if let Some(Sym::Global { .. }) | Some(Sym::Local { .. }) | Some(Sym::Typedef { .. }) | Some(Sym::Enum(_)) = self.scopes.lookup_here(name).map(|x| &x.0)
        {
            let prev = self.scopes.lookup_here(name).map(|x| x.1).unwrap_or(nsp);
            self.push_diag(
                accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}' as a different kind of symbol", name))
                    .with_note(prev, "previous definition is here"),
            );
            return Err(());
        }
        self.scopes.declare(name, Sym::Func(idx), nsp);
        if let Some((r, _)) = self.pending_routine.take() {
            self.fns[idx].routine = Some(r);
        }
        Ok(idx)
    }

    fn global_variable(&mut self, specs: &Specs, name: &str, nsp: Span, d: Declr) -> PResult<()> {
        let mut ty = d.ty;
        if ty.is_void() {
            return self.err(nsp, format!("variable '{}' has type 'void'", name));
        }
        let has_init = self.eat_p("=");
        let init = if has_init { Some(self.initializer()?) } else { None };
        if let (Some(i), CType::Array(e, ArrLen::Incomplete)) = (&init, &ty) {
            let n = self.init_array_len(&ty, i)?;
            ty = CType::Array(e.clone(), ArrLen::Fixed(n));
        }
        if ty.size(&self.m.structs).is_none() && !(specs.storage == Storage::Extern && init.is_none()) {
            if !matches!(ty, CType::Array(_, ArrLen::Incomplete)) {
                let tn = self.tyname(&ty);
                return self.err(nsp, format!("variable '{}' has incomplete type '{}'", name, tn));
            }
        }
        let linkage = match specs.storage {
            Storage::Static => Linkage::Internal,
            Storage::Extern if init.is_none() => Linkage::Import,
            _ => Linkage::Export,
        };
        // Merge with an earlier declaration.
        let existing = match self.scopes.lookup_here(name) {
            Some((Sym::Global { id, .. }, prev)) => Some((*id, *prev)),
            Some((_, prev)) => {
                let prev = *prev;
                self.push_diag(
                    accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}' as a different kind of symbol", name))
                        .with_note(prev, "previous definition is here"),
                );
                return Err(());
            }
            None => None,
        };
        let gid = match existing {
            Some((gid, prev)) => {
                let g = &self.m.globals[gid.index()];
                if g.init.is_some() && init.is_some() {
                    self.push_diag(accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}'", name)).with_note(prev, "previous definition is here"));
                    return Err(());
                }
                let old_ir = g.ty.clone();
                let new_ir = ty.ir();
                let same = old_ir == new_ir
                    || matches!((&old_ir, &new_ir), (Type::Array(a, None), Type::Array(b, _)) | (Type::Array(a, _), Type::Array(b, None)) if a == b);
                if !same {
                    self.push_diag(
                        accjit_ir::Diagnostic::error(nsp, format!("conflicting types for '{}'", name)).with_note(prev, "previous declaration is here"),
                    );
                    return Err(());
                }
                let g = &mut self.m.globals[gid.index()];
                if matches!(g.ty, Type::Array(_, None)) {
                    g.ty = new_ir;
                }
                if linkage != Linkage::Import && g.linkage == Linkage::Import {
                    g.linkage = linkage;
                }
                gid
            }
            None => {
                self.m.globals.push(Global { name: name.to_string(), ty: ty.ir(), linkage, init: None, is_const: d.is_const, declare: None, span: nsp });
                GlobalId(self.m.globals.len() as u32 - 1)
            }
        };
        if let Some(Sym::Global { ty: old, .. }) = self.scopes.lookup_here(name).map(|x| x.0.clone()) {
            if !matches!(ty, CType::Array(_, ArrLen::Incomplete)) || old.size(&self.m.structs).is_none() {
                self.scopes.declare(name, Sym::Global { id: gid, ty: ty.clone(), is_const: d.is_const }, nsp);
            }
        } else {
            self.scopes.declare(name, Sym::Global { id: gid, ty: ty.clone(), is_const: d.is_const }, nsp);
        }
        if let Some(i) = init {
            let gi = self.global_init(&ty, &i)?;
            self.m.globals[gid.index()].init = Some(gi);
        }
        Ok(())
    }

    fn function_definition(&mut self, specs: &Specs, d: Declr) -> PResult<()> {
        let (name, nsp) = d.name.clone().ok_or(())?;
        let CType::Func(cf) = &d.ty else { return Err(()) };
        let cf = (**cf).clone();
        if specs.storage == Storage::Typedef {
            return self.err(nsp, "a function definition cannot be a typedef");
        }
        let idx = self.declare_function(&name, nsp, cf.clone(), specs.storage == Storage::Static)?;
        if self.fns[idx].defined.is_some() {
            let prev = self.fns[idx].span;
            self.push_diag(accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}'", name)).with_note(prev, "previous definition is here"));
            self.skip_body();
            return Ok(());
        }
        self.fns[idx].span = nsp;
        let params = d.params.clone().unwrap_or_default();
        let linkage = if specs.storage == Storage::Static || self.fns[idx].is_static { Linkage::Internal } else { Linkage::Export };
        let sig = cf.ir_sig();
        let sig = accjit_ir::FuncSig { variadic: cf.variadic, ..sig };
        let mut f = Function::new(name.clone(), sig, linkage, nsp);
        f.param_const_pointee = params.iter().map(|p| matches!(p.ty, CType::Ptr(_, true))).collect();
        self.fb = Some(FnBuilder { f, ret: cf.ret.clone(), vla: vec![], labels: HashMap::new(), breakable: 0, continuable: 0, compute: vec![], fn_index: idx });
        // Reserve the function's id now so that recursion and routine info work.
        let fid = FuncId(self.m.functions.len() as u32);
        self.fns[idx].defined = Some(fid);
        self.m.functions.push(Function::new(name.clone(), accjit_ir::FuncSig { params: vec![], ret: Type::Void, variadic: false }, linkage, nsp));
        self.scopes.push();
        let mut prologue: Vec<Stmt> = vec![];
        let mut locals: Vec<(LocalId, usize)> = vec![];
        for (k, p) in params.iter().enumerate() {
            let (pname, psp) = p.name.clone().unwrap_or((String::new(), d.span));
            let l = self.func_mut().add_local(pname.clone(), p.ty.ir(), psp);
            locals.push((l, k));
            if !pname.is_empty() {
                if self.scopes.lookup_here(&pname).is_some() {
                    self.error(psp, format!("redefinition of parameter '{}'", pname));
                }
                self.scopes.declare(&pname, Sym::Local { id: l, ty: p.ty.clone(), is_const: p.is_const }, psp);
            } else if cf.proto {
                // Unnamed parameters are allowed in C23; accept them.
            }
        }
        // Parameter VLA dimensions, evaluated on entry.
        for (l, k) in locals {
            let p = &params[k];
            if has_deferred(&p.ty) {
                let ty = self.resolve_deferred(p.ty.clone())?;
                prologue.append(&mut self.pending);
                if let Some((pname, psp)) = &p.name {
                    self.scopes.declare(pname, Sym::Local { id: l, ty, is_const: p.is_const }, *psp);
                }
            }
        }
        let body = self.compound_block();
        self.scopes.pop();
        let mut fb = self.fb.take().ok_or(())?;
        let mut body = body?;
        for (n, li) in &fb.labels {
            if !li.defined {
                self.error(li.first_use, format!("use of undeclared label '{}'", n));
            }
        }
        prologue.append(&mut body.stmts);
        if name == "main" && fb.f.sig.ret == Type::I32 && !matches!(prologue.last().map(|s| &s.kind), Some(StmtKind::Return(_))) {
            let z = fb.f.add_expr(ExprKind::Int(0), Type::I32, nsp);
            prologue.push(Stmt { kind: StmtKind::Return(Some(z)), span: nsp });
        }
        fb.f.body = accjit_ir::Block::new(prologue);
        self.m.functions[fid.index()] = fb.f;
        Ok(())
    }

    fn skip_body(&mut self) {
        let start = self.pos;
        self.recover(start);
    }

    /// Replace `Deferred` parameter dimensions by VLA lengths computed now.
    fn resolve_deferred(&mut self, ty: CType) -> PResult<CType> {
        Ok(match ty {
            CType::Ptr(t, c) => CType::Ptr(Box::new(self.resolve_deferred(*t)?), c),
            CType::Array(t, ArrLen::Deferred(lo, hi)) => {
                let inner = self.resolve_deferred(*t)?;
                let save = self.pos;
                self.pos = lo as usize;
                let e = self.assign_value();
                let end = self.pos;
                self.pos = save;
                let e = e?;
                if end != hi as usize {
                    return self.err(e.span, "malformed array dimension");
                }
                let len = self.dim_from_expr(e)?;
                CType::Array(Box::new(inner), len)
            }
            CType::Array(t, l) => CType::Array(Box::new(self.resolve_deferred(*t)?), l),
            t => t,
        })
    }

    /// A block-scope declaration; statements go to `out`.
    pub fn local_declaration(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        if self.is_kw("_Static_assert") {
            return self.static_assert();
        }
        let specs = self.decl_specs()?;
        if self.eat_p(";") {
            return Ok(());
        }
        loop {
            let d = self.declarator(specs.ty.clone(), specs.is_const, false)?;
            out.append(&mut self.pending);
            self.local_declarator(&specs, d, out)?;
            if !self.eat_p(",") {
                break;
            }
        }
        self.expect_p(";")?;
        Ok(())
    }

    fn local_declarator(&mut self, specs: &Specs, d: Declr, out: &mut Vec<Stmt>) -> PResult<()> {
        let Some((name, nsp)) = d.name.clone() else { return self.err(d.span, "declaration does not declare anything") };
        if specs.storage == Storage::Typedef {
            return self.declare_typedef(&name, nsp, d.ty, d.is_const);
        }
        if let CType::Func(f) = &d.ty {
            self.declare_function(&name, nsp, (**f).clone(), false)?;
            return Ok(());
        }
        if specs.storage == Storage::Extern {
            if self.is_p("=") {
                return self.err(self.span(), format!("'extern' variable '{}' cannot have an initialiser here", name));
            }
            // Refer to (or create) the file-scope object.
            let gid = match self.m.globals.iter().position(|g| g.name == name) {
                Some(i) => GlobalId(i as u32),
                None => {
                    self.m.globals.push(Global {
                        name: name.clone(),
                        ty: d.ty.ir(),
                        linkage: Linkage::Import,
                        init: None,
                        is_const: d.is_const,
                        declare: None,
                        span: nsp,
                    });
                    GlobalId(self.m.globals.len() as u32 - 1)
                }
            };
            self.scopes.declare(&name, Sym::Global { id: gid, ty: d.ty, is_const: d.is_const }, nsp);
            return Ok(());
        }
        if let Some((_, prev)) = self.scopes.lookup_here(&name) {
            let prev = *prev;
            self.push_diag(accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}'", name)).with_note(prev, "previous definition is here"));
            return Err(());
        }
        let mut ty = d.ty;
        if ty.is_void() {
            return self.err(nsp, format!("variable '{}' has type 'void'", name));
        }
        if specs.storage == Storage::Static {
            if ty.is_vla() {
                return self.err(nsp, "a static variable cannot have a variable length array type");
            }
            let init = if self.eat_p("=") { Some(self.initializer()?) } else { None };
            if let (Some(i), CType::Array(e, ArrLen::Incomplete)) = (&init, &ty) {
                let n = self.init_array_len(&ty, i)?;
                ty = CType::Array(e.clone(), ArrLen::Fixed(n));
            }
            let fname = self.fb.as_ref().map(|f| f.f.name.clone()).unwrap_or_default();
            self.m.globals.push(Global {
                name: format!("{}.{}", fname, name),
                ty: ty.ir(),
                linkage: Linkage::Internal,
                init: None,
                is_const: d.is_const,
                declare: None,
                span: nsp,
            });
            let gid = GlobalId(self.m.globals.len() as u32 - 1);
            self.scopes.declare(&name, Sym::Global { id: gid, ty: ty.clone(), is_const: d.is_const }, nsp);
            if let Some(i) = init {
                let gi = self.global_init(&ty, &i)?;
                self.m.globals[gid.index()].init = Some(gi);
            }
            return Ok(());
        }
        if ty.is_vla() {
            if self.is_p("=") {
                return self.err(self.span(), "a variable length array cannot be initialised");
            }
            let l = self.func_mut().add_local(name.clone(), ty.ir(), nsp);
            let size = self.sizeof_type(&ty, nsp)?;
            let size = self.conv(size, &CType::LONG);
            let a = self.mk(ExprKind::Alloca(size.id), ty.ir(), nsp);
            out.push(Stmt { kind: StmtKind::Decl(l, Some(a)), span: nsp });
            self.scopes.declare(&name, Sym::Local { id: l, ty, is_const: d.is_const }, nsp);
            return Ok(());
        }
        if self.is_p("=") {
            let eq = self.bump().span;
            if let CType::Array(e, ArrLen::Incomplete) = &ty {
                // The length comes from the initialiser: declare afterwards.
                let node = self.initializer()?;
                let n = self.init_array_len(&ty, &node)?;
                ty = CType::Array(e.clone(), ArrLen::Fixed(n));
                let l = self.func_mut().add_local(name.clone(), ty.ir(), nsp);
                self.scopes.declare(&name, Sym::Local { id: l, ty: ty.clone(), is_const: d.is_const }, nsp);
                let stmts = self.init_local(l, &ty, &node, nsp)?;
                out.extend(stmts);
                return Ok(());
            }
            if ty.size(&self.m.structs).is_none() {
                let tn = self.tyname(&ty);
                return self.err(nsp, format!("variable '{}' has incomplete type '{}'", name, tn));
            }
            // In scope in its own initialiser (`double *v = malloc(n * sizeof *v)`).
            let l = self.func_mut().add_local(name.clone(), ty.ir(), nsp);
            self.scopes.declare(&name, Sym::Local { id: l, ty: ty.clone(), is_const: d.is_const }, nsp);
            let _ = eq;
            let node = self.initializer()?;
            let stmts = self.init_local(l, &ty, &node, nsp)?;
            out.extend(stmts);
            return Ok(());
        }
        if ty.size(&self.m.structs).is_none() {
            let tn = self.tyname(&ty);
            return self.err(nsp, format!("variable '{}' has incomplete type '{}'", name, tn));
        }
        let l = self.func_mut().add_local(name.clone(), ty.ir(), nsp);
        self.scopes.declare(&name, Sym::Local { id: l, ty, is_const: d.is_const }, nsp);
        out.push(Stmt { kind: StmtKind::Decl(l, None), span: nsp });
        Ok(())
    }

    /// The place of local `l` as an expression.
    pub fn local_place(&mut self, l: LocalId, ty: &CType, span: Span) -> CExpr {
        let id = self.mk(ExprKind::Local(l), ty.ir(), span);
        CExpr { id, ty: ty.clone(), cat: Cat::Place { is_const: false }, span }
    }
}

fn contains_ptr_to_hole(t: &CType) -> bool {
    match t {
        CType::Ptr(..) => true,
        CType::Array(e, _) => contains_ptr_to_hole(e),
        CType::Func(f) => contains_ptr_to_hole(&f.ret),
        _ => false,
    }
}

fn has_deferred(t: &CType) -> bool {
    match t {
        CType::Ptr(t, _) => has_deferred(t),
        CType::Array(t, l) => matches!(l, ArrLen::Deferred(..)) || has_deferred(t),
        _ => false,
    }
}

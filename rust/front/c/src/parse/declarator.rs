//! Declaration specifiers and declarators (C99 §6.7.1-§6.7.6): storage
//! classes, type specifiers and qualifiers, struct/union layout, enums,
//! type names, and declarators built inside out with a `Hole` placeholder
//! (pointers, arrays with their dimensions, parameter lists). What is
//! declared with them is in `decl.rs`.

use super::ctype::{ArrLen, CFunc, CType};
use super::expr::CExpr;
use super::scope::{Sym, Tag};
use super::{PResult, Parser, Reported};
use crate::token::TokenKind;
use accjit_ir::{Field, Scalar, Span, Stmt, StmtKind, StructDef, StructId, Type};

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
    "_Alignas",
    "__extension__",
    "__attribute__",
    "__signed__",
    "__const",
    "_Thread_local",
    "__thread",
];

impl<'a> Parser<'a> {
    /// Does the token `n` ahead start a declaration specifier or type name?
    pub fn is_type_start_at(&self, n: usize) -> bool {
        let t = self.peek_at(n);
        t.kind == TokenKind::Ident && (TYPE_KEYWORDS.contains(&t.text.as_str()) || self.scopes.is_typedef(&t.text))
    }

    pub fn skip_attribute(&mut self) -> PResult<()> {
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
        let mut align_req: Option<(u64, Span)> = None;
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
                "_Alignas" => {
                    self.bump();
                    let a = self.alignas_arg()?;
                    if a > align_req.map_or(0, |r| r.0) {
                        align_req = Some((a, t.span));
                    }
                    any = true;
                    continue;
                }
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
        if let Some((a, asp)) = align_req {
            // Objects get their type's alignment: a request up to it is met,
            // a stronger one cannot be (no over-aligned objects in the IR).
            let natural = ty.innermost().align(&self.m.structs);
            if a > natural {
                let n = self.tyname(&ty);
                return self
                    .err(asp, format!("'_Alignas({})' is stronger than the alignment of '{}' ({}): over-aligned objects are not supported", a, n, natural));
            }
        }
        Ok(Specs { ty, storage, is_const, span: sp })
    }

    /// `(type-name)` or `(constant-expression)` after `_Alignas`: the
    /// requested alignment (0: none).
    fn alignas_arg(&mut self) -> PResult<u64> {
        self.expect_p("(")?;
        let a = if self.is_type_start_at(0) {
            let (ty, _) = self.type_name()?;
            ty.align(&self.m.structs)
        } else {
            let (v, sp) = self.const_int_expr()?;
            if v < 0 || (v != 0 && (v as u64).count_ones() != 1) {
                return self.err(sp, format!("'_Alignas({})': the alignment must be a power of two", v));
            }
            v as u64
        };
        self.expect_p(")")?;
        Ok(a)
    }

    /// `struct`/`union` after the keyword.
    pub fn struct_spec(&mut self, is_union: bool, kw: Span) -> PResult<CType> {
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
                let start = if w == 0 || (start / unit) != ((start + w as u64).saturating_sub(1) / unit) { start.div_ceil(unit) * unit } else { start };
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
                    size = size.max((w as u64).div_ceil(8));
                } else {
                    bitoff = start + w as u64;
                    size = bitoff.div_ceil(8);
                }
                continue;
            }
            align = align.max(al);
            let o = if is_union { 0 } else { bitoff.div_ceil(8).div_ceil(al) * al };
            out.push(Field { name: n, ty: t.ir(), offset: o });
            ctys.push(t);
            if is_union {
                size = size.max(sz);
            } else {
                bitoff = (o + sz) * 8;
                size = o + sz;
            }
        }
        let size = size.div_ceil(align) * align;
        let d = &mut self.m.structs[id.0 as usize];
        d.fields = out;
        d.size = size;
        d.align = align;
        d.complete = true;
        self.struct_ctypes.insert(id.0, ctys);
        Ok(CType::Struct(id))
    }

    pub fn new_struct(&mut self, name: &str, is_union: bool) -> StructId {
        self.m.structs.push(StructDef { name: name.to_string(), is_union, fields: vec![], size: 0, align: 1, complete: false });
        StructId(self.m.structs.len() as u32 - 1)
    }

    /// `enum` after the keyword; enumerators are declared as constants.
    pub fn enum_spec(&mut self, _kw: Span) -> PResult<()> {
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
                return Err(Reported);
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
        // `__asm__("name")` labels are skipped like attributes: one parenthesised group.
        while self.is_kw("__attribute__") || self.is_kw("__asm__") || self.is_kw("asm") {
            self.skip_attribute()?;
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
    pub fn nested_declarator_follows(&self, abstract_ok: bool) -> bool {
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
    pub fn array_dim(&mut self) -> PResult<ArrLen> {
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
        let fb = self.fb.as_mut().ok_or(Reported)?;
        fb.vla.push(l);
        Ok(ArrLen::Vla(fb.vla.len() as u32 - 1))
    }

    /// After `(`: a parameter type list and the `)`.
    pub fn param_list(&mut self) -> PResult<(Vec<ParamInfo>, bool, bool)> {
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

    pub fn param_list_inner(&mut self) -> PResult<(Vec<ParamInfo>, bool, bool)> {
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
}

fn contains_ptr_to_hole(t: &CType) -> bool {
    match t {
        CType::Ptr(..) => true,
        CType::Array(e, _) => contains_ptr_to_hole(e),
        CType::Func(f) => contains_ptr_to_hole(&f.ret),
        _ => false,
    }
}

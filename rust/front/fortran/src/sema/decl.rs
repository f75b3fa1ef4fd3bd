//! Specification parts: `use` (imports from compiled and built-in
//! modules, `only:` and renames), `implicit`, type declarations and
//! attribute statements merged per name, `parameter` constants (folded),
//! variables (IR locals, globals for module variables, `save` and
//! initialised locals, heap storage for large and automatic arrays),
//! dummies bound to the procedure's parameters, `data` statements, and
//! modules as a whole.

use super::consts::ConstVal;
use super::cx::{ArrVar, Cx, Loc, ModScope, ProcSig, ScalarVar, Shared, Sym, UnitKind, R};
use super::types::{self, FType};
use crate::ast::{self, Attr, Bound, DeclKind};
use crate::{ArrayShape, Intent};
use accjit_ir::{build, BinOp, Diagnostic, ExprKind, FuncSig, Function, Linkage, Span, StmtKind, Type};
use std::collections::HashMap;

/// Everything the specification part says about one name.
#[derive(Clone, Debug, Default)]
pub(crate) struct EntInfo {
    pub name: String,
    /// A second type declaration of the name (an error).
    pub dup: Option<Span>,
    pub span: Span,
    pub ty: Option<ast::TypeSpec>,
    pub char_len: Option<ast::CharLen>,
    pub dims: Option<Vec<ast::DimSpec>>,
    pub parameter: bool,
    pub allocatable: bool,
    pub pointer: bool,
    pub value: bool,
    pub optional: bool,
    pub save: bool,
    pub external: bool,
    pub intrinsic: bool,
    pub intent: Option<Intent>,
    pub init: Option<ast::Init>,
    /// Named in a `data` statement.
    pub data: bool,
}

/// The entities of a specification part, in first-mention order.
pub(crate) fn collect(decls: &[ast::Decl]) -> (Vec<String>, HashMap<String, EntInfo>, bool) {
    let mut order = vec![];
    let mut map: HashMap<String, EntInfo> = HashMap::new();
    let mut save_all = false;
    let get = |name: &ast::Name, order: &mut Vec<String>, map: &mut HashMap<String, EntInfo>| -> String {
        if !map.contains_key(&name.text) {
            order.push(name.text.clone());
            map.insert(name.text.clone(), EntInfo { name: name.text.clone(), span: name.span, ..Default::default() });
        }
        name.text.clone()
    };
    fn apply(e: &mut EntInfo, a: &Attr) {
        match a {
            Attr::Parameter => e.parameter = true,
            Attr::Dimension(d) if e.dims.is_none() => e.dims = Some(d.clone()),
            Attr::Allocatable => e.allocatable = true,
            Attr::Pointer => e.pointer = true,
            Attr::Intent(i) => e.intent = Some(*i),
            Attr::Value => e.value = true,
            Attr::Optional => e.optional = true,
            Attr::Save => e.save = true,
            Attr::External => e.external = true,
            Attr::Intrinsic => e.intrinsic = true,
            _ => {}
        }
    }
    for d in decls {
        match &d.kind {
            DeclKind::TypeDecl(td) => {
                for ent in &td.entities {
                    let k = get(&ent.name, &mut order, &mut map);
                    let e = map.get_mut(&k).unwrap();
                    if e.ty.is_some() && e.dup.is_none() {
                        e.dup = Some(ent.name.span);
                    }
                    e.ty = Some(td.ty.clone());
                    e.span = ent.name.span;
                    for a in &td.attrs {
                        apply(e, a);
                    }
                    if ent.dims.is_some() {
                        e.dims = ent.dims.clone();
                    }
                    if ent.char_len.is_some() {
                        e.char_len = ent.char_len.clone();
                    }
                    if ent.init.is_some() {
                        e.init = ent.init.clone();
                    }
                }
            }
            DeclKind::AttrStmt { attr, entities } => {
                if entities.is_empty() && matches!(attr, Attr::Save) {
                    save_all = true;
                }
                for ent in entities {
                    if ent.name.text.starts_with('/') {
                        continue;
                    }
                    let k = get(&ent.name, &mut order, &mut map);
                    let e = map.get_mut(&k).unwrap();
                    apply(e, attr);
                    if ent.dims.is_some() {
                        e.dims = ent.dims.clone();
                    }
                    if ent.init.is_some() {
                        e.init = ent.init.clone();
                    }
                }
            }
            DeclKind::Parameter(list) => {
                for (n, v) in list {
                    let k = get(n, &mut order, &mut map);
                    let e = map.get_mut(&k).unwrap();
                    e.parameter = true;
                    e.init = Some(ast::Init::Expr(v.clone()));
                }
            }
            DeclKind::Data(sets) => {
                for s in sets {
                    for o in &s.objects {
                        mark_data(o, &mut map);
                    }
                }
            }
            _ => {}
        }
    }
    (order, map, save_all)
}

fn mark_data(o: &ast::DataObject, map: &mut HashMap<String, EntInfo>) {
    match o {
        ast::DataObject::Var(e) => {
            if let Some(n) = root_name(e) {
                if let Some(i) = map.get_mut(&n) {
                    i.data = true;
                }
            }
        }
        ast::DataObject::ImpliedDo(d) => {
            for x in &d.items {
                mark_data(x, map);
            }
        }
    }
}

/// The variable name at the root of a designator (`a`, `a(i)`, `s%x`).
pub(crate) fn root_name(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ast::ExprKind::Name(n) => Some(n.text.clone()),
        ast::ExprKind::Apply { base, .. } => root_name(base),
        ast::ExprKind::Component { base, .. } => root_name(base),
        _ => None,
    }
}

/// How the specification part is processed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SpecMode {
    /// Module variables become globals.
    Module,
    /// Main program or procedure: locals (dummies bound to parameters).
    Body,
}

impl Cx<'_> {
    pub fn err(&self, sp: Span, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(sp, msg)
    }

    /// `use` statements, `implicit`, derived types: what every mode needs first.
    pub fn spec_prelude(&mut self, decls: &[ast::Decl]) -> R<()> {
        for d in decls {
            match &d.kind {
                DeclKind::Use { module, only, renames, .. } => self.use_module(module, only.as_deref(), renames)?,
                DeclKind::ImplicitNone => self.implicit = None,
                DeclKind::Implicit(rules) => {
                    let mut table = self.implicit.clone().unwrap_or_else(super::cx::default_implicit);
                    for r in rules {
                        let t = self.resolve_type(&r.ty, None)?;
                        for (a, b) in &r.letters {
                            for c in *a..=*b {
                                if c.is_ascii_lowercase() {
                                    table[(c as u8 - b'a') as usize] = t.clone();
                                }
                            }
                        }
                    }
                    self.implicit = Some(table);
                }
                // `import` in an interface body: the body sees its host's names anyway.
                DeclKind::Unsupported(what) if what == "import" => {}
                DeclKind::Unsupported(what) => return Err(self.err(d.span, format!("`{what}` is not supported by accjit's Fortran front end"))),
                DeclKind::Interface(_) => {} // explicit interfaces: the definitions are compiled too
                DeclKind::Common(list) => self.common_decls.extend(list.iter().cloned()),
                _ => {}
            }
        }
        Ok(())
    }

    fn use_module(&mut self, module: &ast::Name, only: Option<&[ast::UseItem]>, renames: &[ast::UseItem]) -> R<()> {
        let syms = match super::builtin::module_syms(&module.text) {
            Some(s) => s,
            None => match super::module_scope(self.sh, &module.text) {
                Some(s) => s,
                None => return Err(self.err(module.span, format!("module `{}` not found", module.text))),
            },
        };
        let scope = self.scopes.len() - 1;
        match only {
            Some(items) => {
                for it in items {
                    let Some(s) = syms.get(&it.remote.text) else {
                        return Err(self.err(it.remote.span, format!("module `{}` has no public entity `{}`", module.text, it.remote.text)));
                    };
                    self.scopes[scope].insert(it.local.text.clone(), s.clone());
                }
            }
            None => {
                for (k, s) in &syms {
                    if !renames.iter().any(|r| &r.remote.text == k) {
                        self.scopes[scope].insert(k.clone(), s.clone());
                    }
                }
                for it in renames {
                    let Some(s) = syms.get(&it.remote.text) else {
                        return Err(self.err(it.remote.span, format!("module `{}` has no public entity `{}`", module.text, it.remote.text)));
                    };
                    self.scopes[scope].insert(it.local.text.clone(), s.clone());
                }
            }
        }
        Ok(())
    }

    /// The type a declaration's type spec names.
    pub fn resolve_type(&mut self, spec: &ast::TypeSpec, char_len: Option<&ast::CharLen>) -> R<FType> {
        let kind = |cx: &mut Self, default: u8| -> R<u8> {
            match &spec.kind {
                None => Ok(default),
                Some(e) => match cx.fold(e) {
                    Some((ConstVal::Int(k), _)) => Ok(k as u8),
                    _ => Err(cx.err(e.span, "a kind must be a constant integer expression")),
                },
            }
        };
        let t = match &spec.base {
            ast::BaseType::Integer => FType::Int(kind(self, 4)?),
            ast::BaseType::Real => FType::Real(kind(self, 4)?),
            ast::BaseType::DoublePrecision => FType::Real(8),
            ast::BaseType::Complex => FType::Complex(kind(self, 4)?),
            ast::BaseType::DoubleComplex => FType::Complex(8),
            ast::BaseType::Logical => FType::Logical(kind(self, 4)?),
            ast::BaseType::Character => {
                let len = char_len.or(spec.len.as_ref());
                match len {
                    None => FType::Char(Some(1)),
                    Some(ast::CharLen::Assumed) | Some(ast::CharLen::Deferred) => FType::Char(None),
                    Some(ast::CharLen::Expr(e)) => match self.fold(e) {
                        Some((ConstVal::Int(n), _)) => FType::Char(Some(n.max(0) as u64)),
                        _ => return Err(self.err(e.span, "a character length must be a constant here (accjit supports fixed lengths and len=*)")),
                    },
                }
            }
            ast::BaseType::Derived(n) => return self.derived_ftype(n),
            ast::BaseType::Class(n) => return Err(self.err(n.span, format!("class({}): polymorphism is not supported", n.text))),
        };
        if !types::valid_kind(&t) {
            return Err(self
                .err(spec.span, format!("{} is not a kind accjit supports", t.name()))
                .with_hint("integer kinds 1, 2, 4, 8; real and complex kinds 4, 8"));
        }
        Ok(t)
    }

    /// The implicit type of `name`, or an error under `implicit none`.
    pub fn implicit_type(&self, name: &str, sp: Span) -> R<FType> {
        match &self.implicit {
            Some(t) => {
                let c = name.as_bytes()[0];
                if c.is_ascii_lowercase() {
                    Ok(t[(c - b'a') as usize].clone())
                } else {
                    Ok(FType::REAL)
                }
            }
            None => Err(self.err(sp, format!("`{name}` has no type (implicit none is in effect)")).with_hint(format!("declare it: `integer :: {name}`"))),
        }
    }

    /// The declared (or implicit) type of an entity.
    pub fn entity_type(&mut self, e: &EntInfo) -> R<FType> {
        match &e.ty {
            Some(spec) => self.resolve_type(spec, e.char_len.as_ref()),
            None => self.implicit_type(&e.name, e.span),
        }
    }

    /// `parameter` constants (in declaration order), then the derived
    /// types (whose component bounds may use them).
    pub fn parameters_and_types(&mut self, decls: &[ast::Decl], order: &[String], ents: &HashMap<String, EntInfo>) -> R<()> {
        self.parameters(order, ents)?;
        for d in decls {
            if let DeclKind::DerivedType(t) = &d.kind {
                self.derived_type(t)?;
            }
        }
        Ok(())
    }

    /// `parameter` constants, in declaration order.
    pub fn parameters(&mut self, order: &[String], ents: &HashMap<String, EntInfo>) -> R<()> {
        for name in order {
            if let Some(sp) = ents[name].dup {
                return Err(self.err(sp, format!("`{name}` is declared twice")));
            }
        }
        for name in order {
            let e = &ents[name];
            if !e.parameter {
                continue;
            }
            let t = self.entity_type(e)?;
            let Some(ast::Init::Expr(init)) = &e.init else {
                return Err(self.err(e.span, format!("parameter `{name}` has no value")));
            };
            if let Some(dims) = &e.dims {
                let vals = self.const_array(init)?;
                let mut vals: Vec<ConstVal> = vals.into_iter().map(|(v, _)| v.convert(&t).unwrap_or(v)).collect();
                let mut n = 1i64;
                for d in dims {
                    let lo = d.lower.as_ref().and_then(|l| self.fold(l)).and_then(|v| v.0.as_int()).unwrap_or(1);
                    let hi = match &d.upper {
                        Bound::Expr(x) => self.fold(x).and_then(|v| v.0.as_int()).unwrap_or(lo + vals.len() as i64 - 1),
                        _ => lo + vals.len() as i64 - 1,
                    };
                    n *= (hi - lo + 1).max(0);
                }
                if vals.len() == 1 && n > 1 {
                    vals = vec![vals[0].clone(); n as usize];
                }
                let mut bytes = vec![];
                for v in &vals {
                    bytes.extend(v.bytes(&t));
                }
                let ty = Type::Array(Box::new(t.ir()), Some(vals.len().max(1) as u64));
                if bytes.is_empty() {
                    bytes = vec![0; t.ir_size()];
                }
                let gname = self.sh.global_name(name);
                let g = self.sh.add_global(gname, ty, Some(accjit_ir::GlobalInit { bytes, relocs: vec![] }), true, e.span);
                self.define(name, Sym::ConstArr { vals, ty: t, global: g });
                continue;
            }
            let Some((v, _)) = self.fold(init) else {
                return Err(self.err(init.span, format!("the value of parameter `{name}` must be a constant expression")));
            };
            let t = match (&t, &v) {
                (FType::Char(None), ConstVal::Str(s)) => FType::Char(Some(s.len() as u64)),
                _ => t,
            };
            let Some(v) = v.convert(&t) else {
                return Err(self.err(init.span, format!("parameter `{name}`: this value does not convert to {}", t.name())));
            };
            self.define(name, Sym::Const(v, t));
        }
        Ok(())
    }

    /// The values of a constant array expression (a constructor, possibly
    /// with implied do; or a scalar).
    pub fn const_array(&mut self, e: &ast::Expr) -> R<Vec<(ConstVal, FType)>> {
        match &e.kind {
            ast::ExprKind::ArrayCtor { items, .. } => {
                let mut out = vec![];
                for it in items {
                    self.const_ac_item(it, &mut out)?;
                }
                Ok(out)
            }
            ast::ExprKind::Name(n) => {
                if let Some(Sym::ConstArr { vals, ty, .. }) = self.lookup(&n.text).cloned() {
                    return Ok(vals.into_iter().map(|v| (v, ty.clone())).collect());
                }
                self.fold(e).map(|v| vec![v]).ok_or_else(|| self.err(e.span, "not a constant expression"))
            }
            _ => self.fold(e).map(|v| vec![v]).ok_or_else(|| self.err(e.span, "not a constant expression")),
        }
    }

    fn const_ac_item(&mut self, it: &ast::AcItem, out: &mut Vec<(ConstVal, FType)>) -> R<()> {
        match it {
            ast::AcItem::Expr(e) => out.extend(self.const_array(e)?),
            ast::AcItem::ImpliedDo(d) => {
                let c = &d.control;
                let lo = self.fold(&c.start).and_then(|v| v.0.as_int());
                let hi = self.fold(&c.end).and_then(|v| v.0.as_int());
                let st = match &c.step {
                    None => Some(1),
                    Some(s) => self.fold(s).and_then(|v| v.0.as_int()),
                };
                let (Some(lo), Some(hi), Some(st)) = (lo, hi, st) else {
                    return Err(self.err(d.span, "the bounds of this implied do must be constants"));
                };
                if st == 0 {
                    return Err(self.err(d.span, "an implied do step must not be zero"));
                }
                let saved = self.local_sym(&c.var.text).cloned();
                let mut i = lo;
                while (st > 0 && i <= hi) || (st < 0 && i >= hi) {
                    self.define(&c.var.text, Sym::Const(ConstVal::Int(i), FType::INT));
                    for x in &d.items {
                        self.const_ac_item(x, out)?;
                    }
                    i += st;
                }
                match saved {
                    Some(s) => self.define(&c.var.text, s),
                    None => {
                        self.scopes.last_mut().unwrap().remove(&c.var.text);
                    }
                }
            }
        }
        Ok(())
    }

    /// A constant integer of a bound expression, if it folds.
    fn const_int(&mut self, e: &ast::Expr) -> Option<i64> {
        self.fold(e).and_then(|v| v.0.as_int())
    }

    /// An i64 run-time value of a specification expression.
    fn spec_i64(&mut self, e: &ast::Expr) -> R<accjit_ir::ExprId> {
        let v = self.value(e)?;
        if !v.ty.is_int() {
            return Err(self.err(e.span, "an array bound must be an integer"));
        }
        Ok(self.cast(v.e, Type::I64, e.span))
    }

    /// A location holding `v` for the rest of the procedure: a constant, or a
    /// fresh i64 local.
    fn hold(&mut self, name: &str, v: accjit_ir::ExprId, sp: Span) -> Loc {
        if let Some(c) = build::const_int(&self.f, v) {
            return Loc::Const(c);
        }
        Loc::Local(self.temp(name, v, sp))
    }

    /// Lower bounds and extents of an explicit-shape array (run-time bounds
    /// evaluated now, into locals).
    pub fn explicit_bounds(&mut self, name: &str, dims: &[ast::DimSpec]) -> R<(Vec<Loc>, Vec<Loc>, bool)> {
        let mut lbs = vec![];
        let mut exts = vec![];
        let mut assumed_size = false;
        for (k, d) in dims.iter().enumerate() {
            let sp = d.span;
            let lb = match &d.lower {
                None => Loc::Const(1),
                Some(l) => match self.const_int(l) {
                    Some(c) => Loc::Const(c),
                    None => {
                        let v = self.spec_i64(l)?;
                        self.hold(&format!("{name}.lb{k}"), v, sp)
                    }
                },
            };
            let ext = match &d.upper {
                Bound::Star => {
                    if k + 1 != dims.len() {
                        return Err(self.err(sp, "`*` may only be the last dimension of an assumed-size array"));
                    }
                    assumed_size = true;
                    Loc::Const(1)
                }
                Bound::Colon => return Err(self.err(sp, format!("`{name}`: a deferred-shape dimension needs `allocatable`, `pointer`, or a dummy argument"))),
                Bound::Expr(u) => match (lb, self.const_int(u)) {
                    (Loc::Const(l), Some(u)) => Loc::Const((u - l + 1).max(0)),
                    _ => {
                        let uv = self.spec_i64(u)?;
                        let lv = self.get(lb, sp);
                        let diff = self.bin(BinOp::Sub, uv, lv, Type::I64, sp);
                        let one = self.i64c(1, sp);
                        let n = self.bin(BinOp::Add, diff, one, Type::I64, sp);
                        let zero = self.i64c(0, sp);
                        let pos = build::cmp(&mut self.f, BinOp::Gt, n, zero, sp);
                        let n2 = self.clone_expr(n);
                        let z2 = self.i64c(0, sp);
                        let m = self.mk(ExprKind::Cond(pos, n2, z2), Type::I64, sp);
                        self.hold(&format!("{name}.n{k}"), m, sp)
                    }
                },
            };
            lbs.push(lb);
            exts.push(ext);
        }
        Ok((lbs, exts, assumed_size))
    }

    /// Contiguous column-major strides for extents `exts`.
    pub fn contiguous_strides(&mut self, name: &str, exts: &[Loc], sp: Span) -> Vec<Loc> {
        let mut out = vec![Loc::Const(1)];
        for k in 1..exts.len() {
            let prev = out[k - 1];
            let s = match (prev, exts[k - 1]) {
                (Loc::Const(a), Loc::Const(b)) => Loc::Const(a * b),
                _ => {
                    let a = self.get(prev, sp);
                    let b = self.get(exts[k - 1], sp);
                    let m = self.mul_i64(a, b, sp);
                    self.hold(&format!("{name}.s{k}"), m, sp)
                }
            };
            out.push(s);
        }
        out
    }

    /// `common /blk/ a, b(10)`: each block is one global (as large as the
    /// largest layout any unit gives it), its variables at their offsets in
    /// declaration order (naturally aligned), so units that declare the
    /// same layout share the storage.
    fn commons(&mut self, ents: &HashMap<String, EntInfo>) -> R<()> {
        let decls = std::mem::take(&mut self.common_decls);
        for (bname, es) in decls {
            let key = bname.as_ref().map(|n| n.text.clone()).unwrap_or_else(|| "_blank".into());
            let mut off = 0u64;
            let mut items = vec![];
            for e in &es {
                let info = ents.get(&e.name.text).cloned().unwrap_or_else(|| EntInfo { name: e.name.text.clone(), span: e.name.span, ..Default::default() });
                let ty = self.entity_type(&info)?;
                let dims = e.dims.clone().or(info.dims.clone());
                let mut exts = vec![];
                let mut lbs = vec![];
                for d in dims.iter().flatten() {
                    let lo = match &d.lower {
                        None => 1,
                        Some(l) => self.const_int(l).ok_or_else(|| self.err(d.span, "common array bounds must be constants"))?,
                    };
                    let hi = match &d.upper {
                        Bound::Expr(u) => self.const_int(u).ok_or_else(|| self.err(d.span, "common array bounds must be constants"))?,
                        _ => return Err(self.err(d.span, "common arrays need explicit bounds")),
                    };
                    lbs.push(lo);
                    exts.push((hi - lo + 1).max(0));
                }
                let esz = ty.ir_size() as u64;
                let n: i64 = exts.iter().product();
                let align = esz.clamp(1, 8);
                off = off.div_ceil(align) * align;
                items.push((e.name.text.clone(), ty, lbs, exts, off, e.name.span));
                off += esz * n.max(1) as u64;
            }
            let words = off.div_ceil(8).max(1);
            let g = match self.sh.commons.get(&key) {
                Some(&g) => {
                    let cur = match &self.sh.m.globals[g.index()].ty {
                        Type::Array(_, Some(w)) => *w,
                        _ => 0,
                    };
                    if words > cur {
                        self.sh.m.globals[g.index()].ty = Type::Array(Box::new(Type::I64), Some(words));
                    }
                    g
                }
                None => {
                    let span = bname.as_ref().map(|n| n.span).unwrap_or(Span::DUMMY);
                    let g = self.sh.add_global(format!("common.{key}"), Type::Array(Box::new(Type::I64), Some(words)), None, false, span);
                    self.sh.commons.insert(key.clone(), g);
                    g
                }
            };
            for (name, ty, lbs, exts, off, sp) in items {
                let n: i64 = exts.iter().product();
                let ir = if exts.is_empty() { ty.ir() } else { Type::Array(Box::new(ty.ir()), Some(n.max(1) as u64)) };
                self.sh.common_slots.push(super::cx::CommonSlot { global: g, offset: off, ty: ir });
                let slot = self.sh.common_slots.len() - 1;
                if exts.is_empty() {
                    self.define(&name, Sym::Scalar(ScalarVar { ty, loc: Loc::Common(slot), char_len: None, present: None, span: sp }));
                } else {
                    let ext: Vec<Loc> = exts.iter().map(|e| Loc::Const(*e)).collect();
                    let stride = self.contiguous_strides(&name, &ext, sp);
                    let a = ArrVar {
                        name: name.clone(),
                        ty,
                        base: Loc::CommonArr(slot),
                        lb: lbs.iter().map(|l| Loc::Const(*l)).collect(),
                        ext,
                        stride,
                        allocatable: false,
                        pointer: false,
                        assumed_size: false,
                        present: None,
                        span: sp,
                    };
                    self.define(&name, Sym::Array(a));
                }
            }
        }
        Ok(())
    }

    /// Declare the variables of a specification part (not parameters,
    /// dummies, nor the function result: the caller binds those first).
    pub fn variables(&mut self, order: &[String], ents: &HashMap<String, EntInfo>, mode: SpecMode, save_all: bool) -> R<()> {
        self.commons(ents)?;
        for name in order {
            let e = &ents[name];
            if e.parameter || self.local_sym(name).is_some() {
                continue;
            }
            if e.intent.is_some() || e.value || e.optional {
                return Err(self.err(e.span, format!("`{name}` has a dummy-argument attribute but is not a dummy argument")));
            }
            if e.intrinsic {
                continue;
            }
            // A typed name that is a procedure (`logical :: test1` for an
            // external function), or `external f`.
            let is_proc =
                e.external || (e.dims.is_none() && e.init.is_none() && !e.allocatable && self.sh.procs.contains_key(name) && mode != SpecMode::Module);
            if is_proc {
                let t = match &e.ty {
                    Some(spec) => Some(self.resolve_type(spec, e.char_len.as_ref())?),
                    None => None,
                };
                if self.sh.procs.contains_key(name) {
                    self.define(name, Sym::Proc(name.clone()));
                } else {
                    self.define(name, Sym::External(t));
                }
                continue;
            }
            if e.ty.is_none() && e.dims.is_none() && !e.allocatable && !e.save && !e.data && e.init.is_none() {
                // Only an attribute we do not use (`target`, `public`): implicit on first use.
                continue;
            }
            let ty = self.entity_type(e)?;
            let global = mode == SpecMode::Module || e.save || save_all || e.init.is_some() || e.data;
            self.declare_var(e, ty, global)?;
        }
        Ok(())
    }

    /// One variable.
    pub fn declare_var(&mut self, e: &EntInfo, ty: FType, global: bool) -> R<()> {
        let name = e.name.as_str();
        let sp = e.span;
        if let FType::Char(None) = ty {
            if e.allocatable && e.dims.is_none() && !global {
                // character(len=:), allocatable: heap characters and their
                // length, (re)allocated by assignment.
                let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
                let p = self.f.add_local(name, u8p.clone(), sp);
                let null = self.int(0, u8p, sp);
                self.emit(StmtKind::Decl(p, Some(null)), sp);
                let n = self.f.add_local(format!("{name}.len"), Type::I64, sp);
                let z = self.i64c(0, sp);
                self.emit(StmtKind::Decl(n, Some(z)), sp);
                self.free_at_exit(Loc::Local(p), sp);
                self.deferred_chars.insert(name.to_string());
                self.define(name, Sym::Scalar(ScalarVar { ty, loc: Loc::Local(p), char_len: Some(Loc::Local(n)), present: None, span: sp }));
                return Ok(());
            }
            return Err(self.err(sp, format!("`{name}`: only dummy arguments may have an assumed length (len=*), and deferred-length (len=:) characters must be allocatable local scalars")));
        }
        let ir = ty.ir();
        match &e.dims {
            None => {
                if e.pointer && !global && !ty.is_char() {
                    // A pointer scalar: a local holding the target's address;
                    // the variable is what it points to.
                    let l = self.f.add_local(format!("{name}.ptr"), Type::ptr(ir), sp);
                    let null = self.int(0, Type::ptr(ty.ir()), sp);
                    self.emit(StmtKind::Decl(l, Some(null)), sp);
                    self.define(name, Sym::Scalar(ScalarVar { ty, loc: Loc::Deref(l), char_len: None, present: None, span: sp }));
                    return Ok(());
                }
                if e.allocatable || e.pointer {
                    return Err(self.err(sp, format!("`{name}`: allocatable scalars and module or character pointer scalars are not supported")));
                }
                let loc = if global {
                    let init = match &e.init {
                        Some(ast::Init::Expr(x)) => match self.fold(x) {
                            Some((v, _)) => Some(accjit_ir::GlobalInit { bytes: v.bytes(&ty), relocs: vec![] }),
                            None => return Err(self.err(x.span, format!("the initial value of `{name}` must be a constant expression"))),
                        },
                        _ => None,
                    };
                    let init = match (&init, &ty) {
                        (None, FType::Derived(i, _)) => self.default_bytes(*i).map(|bytes| accjit_ir::GlobalInit { bytes, relocs: vec![] }),
                        _ => init,
                    };
                    let gname = self.sh.global_name(&format!("{}.{name}", self.unit_name));
                    Loc::Global(self.sh.add_global(gname, ir, init, false, sp))
                } else {
                    let l = self.f.add_local(name, ir, sp);
                    self.emit(StmtKind::Decl(l, None), sp);
                    if ty.is_char() || matches!(ty, FType::Derived(..)) {
                        let p = build::local(&mut self.f, l, sp);
                        self.emit(StmtKind::ZeroFill(p), sp);
                    }
                    if let FType::Derived(i, _) = ty {
                        self.default_init(Loc::Local(l), i, sp)?;
                    }
                    Loc::Local(l)
                };
                self.define(name, Sym::Scalar(ScalarVar { ty, loc, char_len: None, present: None, span: sp }));
            }
            Some(dims) => {
                let rank = dims.len();
                let deferred = dims.iter().all(|d| matches!(d.upper, Bound::Colon) && d.lower.is_none());
                if e.allocatable || e.pointer {
                    if !deferred {
                        return Err(self.err(sp, format!("`{name}`: an allocatable or pointer array has a deferred shape: `({})`", vec![":"; rank].join(","))));
                    }
                    let (base, lb, ext, stride) = if global {
                        let g = |cx: &mut Self, what: &str, t: Type| {
                            let gname = cx.sh.global_name(&format!("{}.{name}.{what}", cx.unit_name));
                            Loc::Global(cx.sh.add_global(gname, t, None, false, sp))
                        };
                        let base = g(self, "base", Type::ptr(ir.clone()));
                        let lb = (0..rank).map(|k| g(self, &format!("lb{k}"), Type::I64)).collect();
                        let ext = (0..rank).map(|k| g(self, &format!("n{k}"), Type::I64)).collect();
                        // A pointer may point to a strided section: its first stride too.
                        let stride: Vec<Loc> =
                            (0..rank).map(|k| if k == 0 && !e.pointer { Loc::Const(1) } else { g(self, &format!("s{k}"), Type::I64) }).collect();
                        (base, lb, ext, stride)
                    } else {
                        let l = |cx: &mut Self, what: String, t: Type| {
                            let l = cx.f.add_local(what, t.clone(), sp);
                            let zero = cx.int(0, t, sp);
                            cx.emit(StmtKind::Decl(l, Some(zero)), sp);
                            Loc::Local(l)
                        };
                        let base = l(self, name.to_string(), Type::ptr(ir.clone()));
                        let lb = (0..rank).map(|k| l(self, format!("{name}.lb{k}"), Type::I64)).collect();
                        let ext = (0..rank).map(|k| l(self, format!("{name}.n{k}"), Type::I64)).collect();
                        let stride: Vec<Loc> =
                            (0..rank).map(|k| if k == 0 && !e.pointer { Loc::Const(1) } else { l(self, format!("{name}.s{k}"), Type::I64) }).collect();
                        (base, lb, ext, stride)
                    };
                    if !global && !e.pointer {
                        // An allocatable local is deallocated when the procedure returns.
                        self.free_at_exit(base, sp);
                    }
                    let a = ArrVar {
                        name: name.to_string(),
                        ty,
                        base,
                        lb,
                        ext,
                        stride,
                        allocatable: e.allocatable,
                        pointer: e.pointer,
                        assumed_size: false,
                        present: None,
                        span: sp,
                    };
                    self.define(name, Sym::Array(a));
                    return Ok(());
                }
                let (lb, ext, assumed_size) = self.explicit_bounds(name, dims)?;
                if assumed_size {
                    return Err(self.err(sp, format!("`{name}`: only a dummy argument may have an assumed size `(*)`")));
                }
                let stride = self.contiguous_strides(name, &ext, sp);
                let consts: Option<Vec<i64>> = ext.iter().map(|l| if let Loc::Const(c) = l { Some(*c) } else { None }).collect();
                let elem_bytes = ty.ir_size() as i64;
                let base = match consts {
                    Some(c) if global => {
                        let n: i64 = c.iter().product();
                        let init = self.array_init(e, &ty, n)?;
                        let gname = self.sh.global_name(&format!("{}.{name}", self.unit_name));
                        Loc::GlobalArr(self.sh.add_global(gname, Type::Array(Box::new(ir), Some(n.max(1) as u64)), init, false, sp))
                    }
                    None if global => return Err(self.err(sp, format!("`{name}`: a saved or module array needs constant bounds (or allocatable)"))),
                    Some(c) if c.iter().product::<i64>() * elem_bytes <= 65536 => {
                        let n: i64 = c.iter().product();
                        let l = self.f.add_local(name, Type::Array(Box::new(ir), Some(n.max(1) as u64)), sp);
                        self.emit(StmtKind::Decl(l, None), sp);
                        if matches!(ty, FType::Derived(..)) {
                            let p = build::local(&mut self.f, l, sp);
                            self.emit(StmtKind::ZeroFill(p), sp);
                        }
                        if e.init.is_some() {
                            return Err(self.err(sp, "internal: an initialised local array is saved"));
                        }
                        Loc::LocalArr(l)
                    }
                    _ => {
                        // Large or automatic: on the heap, freed at every return.
                        let mut n = self.i64c(elem_bytes, sp);
                        for x in &ext {
                            let v = self.get(*x, sp);
                            n = self.bin(BinOp::Mul, n, v, Type::I64, sp);
                        }
                        let one = self.i64c(1, sp);
                        let p = self.libc_call("calloc", vec![n, one], Type::ptr(Type::Void), sp);
                        let p = self.cast(p, Type::ptr(ir), sp);
                        let l = self.temp(name, p, sp);
                        self.free_at_exit(Loc::Local(l), sp);
                        Loc::Local(l)
                    }
                };
                let a = ArrVar {
                    name: name.to_string(),
                    ty,
                    base,
                    lb,
                    ext,
                    stride,
                    allocatable: false,
                    pointer: false,
                    assumed_size: false,
                    present: None,
                    span: sp,
                };
                self.define(name, Sym::Array(a));
            }
        }
        Ok(())
    }

    /// `free(*loc)` in the epilogue (every return).
    pub fn free_at_exit(&mut self, loc: Loc, sp: Span) {
        let saved = std::mem::take(&mut self.out);
        let p = self.get(loc, sp);
        let p = self.cast(p, Type::ptr(Type::Void), sp);
        let c = self.libc_call("free", vec![p], Type::Void, sp);
        self.emit_expr(c, sp);
        let stmts = std::mem::replace(&mut self.out, saved);
        // Freed in reverse order of allocation.
        let mut all = stmts;
        all.append(&mut self.epilogue);
        self.epilogue = all;
    }

    /// The initial bytes of a saved array (`= [...]`, `= 0`), or None.
    fn array_init(&mut self, e: &EntInfo, ty: &FType, n: i64) -> R<Option<accjit_ir::GlobalInit>> {
        let Some(ast::Init::Expr(x)) = &e.init else { return Ok(None) };
        let vals = self.const_array(x)?;
        let vals: Vec<ConstVal> = if vals.len() == 1 { vec![vals[0].0.clone(); n as usize] } else { vals.into_iter().map(|v| v.0).collect() };
        if vals.len() as i64 != n {
            return Err(self.err(x.span, format!("`{}` has {n} elements but its initialiser has {}", e.name, vals.len())));
        }
        let mut bytes = vec![];
        for v in &vals {
            bytes.extend(v.bytes(ty));
        }
        Ok(Some(accjit_ir::GlobalInit { bytes, relocs: vec![] }))
    }

    /// `data` statements: stores into the variables' globals' initial bytes.
    pub fn data_stmts(&mut self, decls: &[ast::Decl]) -> R<()> {
        for d in decls {
            if let DeclKind::Data(sets) = &d.kind {
                for s in sets {
                    self.data_set(s)?;
                }
            }
        }
        Ok(())
    }

    pub fn data_set(&mut self, s: &ast::DataSet) -> R<()> {
        let mut vals = vec![];
        for v in &s.values {
            let n = match &v.repeat {
                None => 1,
                Some(r) => self.const_int(r).ok_or_else(|| self.err(r.span, "a repeat count must be a constant"))?,
            };
            let c = self.fold(&v.value).ok_or_else(|| self.err(v.value.span, "a data value must be a constant"))?;
            for _ in 0..n {
                vals.push(c.0.clone());
            }
        }
        let mut targets: Vec<(super::cx::GlobalSlot, FType)> = vec![];
        for o in &s.objects {
            self.data_targets(o, &mut targets)?;
        }
        if targets.len() != vals.len() {
            return Err(self.err(s.span, format!("this data statement has {} objects and {} values", targets.len(), vals.len())));
        }
        for ((slot, ty), v) in targets.into_iter().zip(vals) {
            let bytes = v.bytes(&ty);
            let g = &mut self.sh.m.globals[slot.global.index()];
            let size = accjit_ir::types::size_of(&g.ty, &[]) as usize;
            let init = g.init.get_or_insert_with(|| accjit_ir::GlobalInit { bytes: vec![0; size], relocs: vec![] });
            let at = slot.offset as usize;
            init.bytes[at..at + bytes.len()].copy_from_slice(&bytes);
        }
        Ok(())
    }

    fn data_targets(&mut self, o: &ast::DataObject, out: &mut Vec<(super::cx::GlobalSlot, FType)>) -> R<()> {
        match o {
            ast::DataObject::Var(e) => {
                let Some(name) = root_name(e) else { return Err(self.err(e.span, "a data object must be a variable")) };
                match self.lookup(&name).cloned() {
                    Some(Sym::Scalar(ScalarVar { ty, loc: Loc::Global(g), .. })) => out.push((super::cx::GlobalSlot { global: g, offset: 0 }, ty)),
                    Some(Sym::Array(a)) => {
                        let Loc::GlobalArr(g) = a.base else { return Err(self.err(e.span, format!("`{name}`: data on this array is not supported"))) };
                        let esz = a.ty.ir_size() as u64;
                        let exts: Vec<i64> = a.ext.iter().map(|x| if let Loc::Const(c) = x { *c } else { 0 }).collect();
                        let lbs: Vec<i64> = a.lb.iter().map(|x| if let Loc::Const(c) = x { *c } else { 1 }).collect();
                        match &e.kind {
                            ast::ExprKind::Name(_) => {
                                let n: i64 = exts.iter().product();
                                for i in 0..n {
                                    out.push((super::cx::GlobalSlot { global: g, offset: i as u64 * esz }, a.ty.clone()));
                                }
                            }
                            ast::ExprKind::Apply { args, .. } => {
                                let mut off = 0i64;
                                let mut mult = 1i64;
                                for (k, arg) in args.iter().enumerate() {
                                    let ast::ArgValue::Expr(x) = &arg.value else { return Err(self.err(arg.span, "data on array sections is not supported")) };
                                    let i = self.const_int(x).ok_or_else(|| self.err(x.span, "a data subscript must be a constant"))?;
                                    off += (i - lbs[k]) * mult;
                                    mult *= exts[k];
                                }
                                out.push((super::cx::GlobalSlot { global: g, offset: off as u64 * esz }, a.ty.clone()));
                            }
                            _ => return Err(self.err(e.span, "unsupported data object")),
                        }
                    }
                    _ => return Err(self.err(e.span, format!("`{name}` cannot be initialised by data here"))),
                }
            }
            ast::DataObject::ImpliedDo(d) => {
                let c = &d.control;
                let lo = self.const_int(&c.start);
                let hi = self.const_int(&c.end);
                let st = c.step.as_ref().map(|s| self.const_int(s)).unwrap_or(Some(1));
                let (Some(lo), Some(hi), Some(st)) = (lo, hi, st) else { return Err(self.err(d.span, "data implied-do bounds must be constants")) };
                if st == 0 {
                    return Err(self.err(d.span, "an implied do step must not be zero"));
                }
                let mut i = lo;
                while (st > 0 && i <= hi) || (st < 0 && i >= hi) {
                    self.define(&c.var.text, Sym::Const(ConstVal::Int(i), FType::INT));
                    for x in &d.items {
                        self.data_targets(x, out)?;
                    }
                    i += st;
                }
                self.scopes.last_mut().unwrap().remove(&c.var.text);
            }
        }
        Ok(())
    }
}

/// Compile a module: its variables (globals), then its procedures.
pub(crate) fn compile_module(sh: &mut Shared, u: &ast::ProgramUnit) -> Result<(), accjit_ir::Diagnostics> {
    let name = super::unit_name(u);
    let scratch = Function::new(format!("{name}.spec"), FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, u.span);
    let syms = {
        let mut cx = Cx::new(sh, scratch, UnitKind::Subroutine, name.clone(), HashMap::new());
        let r = (|| -> R<()> {
            cx.spec_prelude(&u.decls)?;
            let (order, ents, _) = collect(&u.decls);
            cx.parameters_and_types(&u.decls, &order, &ents)?;
            cx.variables(&order, &ents, SpecMode::Module, true)?;
            cx.data_stmts(&u.decls)?;
            cx.module_declares(&u.decls)?;
            Ok(())
        })();
        r?;
        let mut all = cx.scopes[0].clone();
        all.extend(cx.scopes[1].clone());
        all
    };
    // Procedures: signatures, then bodies; each sees the module's names.
    let mut scope = syms.clone();
    for c in &u.contains {
        let pname = super::unit_name(c);
        let key = format!("{name}__{pname}");
        scope.insert(pname.clone(), Sym::Proc(key.clone()));
    }
    generics_into(sh, &u.decls, &mut scope)?;
    for c in &u.contains {
        let pname = super::unit_name(c);
        let key = format!("{name}__{pname}");
        super::call::declare_proc(sh, c, &scope, &key, &pname, None)?;
    }
    sh.modules.insert(name.clone(), ModScope { syms: scope.clone() });
    for c in &u.contains {
        let pname = super::unit_name(c);
        let key = format!("{name}__{pname}");
        super::call::define_proc(sh, c, &scope, &key)?;
    }
    let _ = ArrayShape::Assumed;
    let _: Option<&ProcSig> = None;
    Ok(())
}

/// Generic interfaces (`interface name; module procedure a, b; end
/// interface`) of a specification part into `scope`.
pub(crate) fn generics_into(sh: &Shared, decls: &[ast::Decl], scope: &mut HashMap<String, Sym>) -> R<()> {
    for d in decls {
        let DeclKind::Interface(ib) = &d.kind else { continue };
        let Some(g) = &ib.generic else { continue };
        let ast::GenericSpec::Name(gname) = g else {
            return Err(Diagnostic::error(ib.span, "operator and assignment interfaces are not supported"));
        };
        let mut keys = vec![];
        let names = ib.procedures.iter().cloned().chain(ib.bodies.iter().filter_map(|b| b.name.clone()));
        for n in names {
            let key = match scope.get(&n.text) {
                Some(Sym::Proc(k)) => k.clone(),
                _ if sh.procs.contains_key(&n.text) => n.text.clone(),
                _ => {
                    return Err(Diagnostic::error(n.span, format!("`{}` in generic `{}` is not a procedure defined in the files compiled", n.text, gname.text)))
                }
            };
            keys.push(key);
        }
        scope.insert(gname.text.clone(), Sym::Generic(keys));
    }
    Ok(())
}

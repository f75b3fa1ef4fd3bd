//! Declarations (C99 §6.7, §6.9): external declarations, typedefs,
//! function prototypes and definitions, global variables, and block-scope
//! declarations (automatic, `static` locals as internal globals, VLAs with
//! hidden length locals and `Alloca`). Their specifiers and declarators are
//! parsed in `declarator.rs`.

use super::ctype::{ArrLen, CFunc, CType};
use super::declarator::{Declr, Specs, Storage};
use super::expr::{CExpr, Cat};
use super::scope::Sym;
use super::{FnBuilder, FnEntry, PResult, Parser, Reported};
use crate::token::TokenKind;
use accjit_ir::{ExprKind, FuncId, Function, Global, GlobalId, Linkage, LocalId, Span, Stmt, StmtKind, Type};
use std::collections::HashMap;

impl<'a> Parser<'a> {
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
                return Err(Reported);
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
                    return Err(Reported);
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
            return Err(Reported);
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
        if ty.size(&self.m.structs).is_none() && !(specs.storage == Storage::Extern && init.is_none()) && !matches!(ty, CType::Array(_, ArrLen::Incomplete)) {
            let tn = self.tyname(&ty);
            return self.err(nsp, format!("variable '{}' has incomplete type '{}'", name, tn));
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
                return Err(Reported);
            }
            None => None,
        };
        let gid = match existing {
            Some((gid, prev)) => {
                let g = &self.m.globals[gid.index()];
                if g.init.is_some() && init.is_some() {
                    self.push_diag(accjit_ir::Diagnostic::error(nsp, format!("redefinition of '{}'", name)).with_note(prev, "previous definition is here"));
                    return Err(Reported);
                }
                let old_ir = g.ty.clone();
                let new_ir = ty.ir();
                let same = old_ir == new_ir
                    || matches!((&old_ir, &new_ir), (Type::Array(a, None), Type::Array(b, _)) | (Type::Array(a, _), Type::Array(b, None)) if a == b);
                if !same {
                    self.push_diag(
                        accjit_ir::Diagnostic::error(nsp, format!("conflicting types for '{}'", name)).with_note(prev, "previous declaration is here"),
                    );
                    return Err(Reported);
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
        let (name, nsp) = d.name.clone().ok_or(Reported)?;
        let CType::Func(cf) = &d.ty else { return Err(Reported) };
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
        self.fb = Some(FnBuilder {
            f,
            ret: cf.ret.clone(),
            vla: vec![],
            labels: HashMap::new(),
            breakable: 0,
            continuable: 0,
            compute: vec![],
            fn_index: idx,
            va: None,
            switches: vec![],
        });
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
        if cf.variadic {
            let block = self.declare_va_block(nsp);
            if let Some(fb) = self.fb.as_mut() {
                fb.va = Some(block);
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
        let mut fb = self.fb.take().ok_or(Reported)?;
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
            return Err(Reported);
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

fn has_deferred(t: &CType) -> bool {
    match t {
        CType::Ptr(t, _) => has_deferred(t),
        CType::Array(t, l) => matches!(l, ArrLen::Deferred(..)) || has_deferred(t),
        _ => false,
    }
}

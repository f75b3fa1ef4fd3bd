//! Procedures and calls. A procedure's IR parameters follow its dummies
//! (`crate::ParamKind`): a scalar by reference is a pointer (copied into a
//! local at entry and back at every return unless `intent(in)`, so that
//! compute regions see a plain local), `value` scalars by value, arrays
//! as base pointer (+ extents and strides for assumed shape), character
//! dummies as pointer + length. Internal procedures get the host
//! variables their siblings use after the dummies, by reference (host
//! association). Calls match actual to dummy arguments (positional, then
//! keywords; absent optionals pass null) and pass sections as strided
//! views, through a contiguous temporary where the dummy needs one.

use super::cx::{ArrVar, Cx, DummySig, HostArg, Loc, ProcSig, ScalarVar, Shared, Sym, UnitKind, R};
use super::decl::{collect, SpecMode};
use super::types::FType;
use crate::ast::{self, ArgValue, Bound};
use crate::{ArrayShape, Intent, ParamKind, ProcInterface, ProcParam};
use accjit_ir::{build, BinOp, Block, Diagnostics, ExprId, ExprKind, FuncId, FuncSig, Function, Linkage, LocalId, Span, Stmt, StmtKind, Type};
use std::collections::HashMap;

/// The IR parameter types of one dummy.
pub(crate) fn dummy_params(d: &DummySig) -> Vec<Type> {
    if let Some(p) = &d.proc {
        return vec![Type::ptr(Type::Func(Box::new(proc_func_sig(p))))];
    }
    let elem = d.ty.ir();
    if d.rank == 0 {
        if d.ty.is_char() {
            return vec![Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)), Type::I64];
        }
        return vec![if d.by_value { elem } else { Type::ptr(elem) }];
    }
    if d.allocatable {
        // The caller's base pointer, lower bounds, extents and strides, by reference.
        let mut v = vec![Type::ptr(Type::ptr(elem))];
        v.extend((0..2 * d.rank + d.rank - 1).map(|_| Type::ptr(Type::I64)));
        return v;
    }
    let mut v = vec![Type::ptr(elem)];
    if d.shape == ArrayShape::Assumed {
        v.extend((0..d.rank).map(|_| Type::I64));
        v.extend((1..d.rank).map(|_| Type::I64));
    }
    v
}

/// The IR signature of a procedure with these characteristics.
pub(crate) fn proc_func_sig(p: &ProcSig) -> FuncSig {
    let mut params: Vec<Type> = p.dummies.iter().flat_map(dummy_params).collect();
    if let (Some(t), true) = (&p.result, p.result_rank > 0) {
        params.extend(dummy_params(&result_dummy(t, p.result_rank)));
    }
    let ret = p.result.as_ref().filter(|_| p.result_rank == 0).map(|t| t.ir()).unwrap_or(Type::Void);
    FuncSig { params, ret, variadic: false }
}

/// The parts of a host variable passed to an internal procedure: each
/// location that is not a global or a constant.
fn host_parts(sym: &Sym) -> Vec<Loc> {
    let keep = |l: &Loc| matches!(l, Loc::Local(_) | Loc::Deref(_) | Loc::LocalArr(_));
    match sym {
        Sym::Scalar(v) => std::iter::once(v.loc).chain(v.char_len).filter(keep).collect(),
        Sym::Array(a) => {
            std::iter::once(a.base).chain(a.lb.iter().copied()).chain(a.ext.iter().copied()).chain(a.stride.iter().copied()).filter(keep).collect()
        }
        _ => vec![],
    }
}

fn host_part_param(cx_f: &Function, loc: Loc) -> Type {
    match loc {
        Loc::Local(l) => Type::ptr(cx_f.local(l).ty.clone()),
        Loc::Deref(p) => cx_f.local(p).ty.clone(),
        Loc::LocalArr(l) => Type::ptr(super::cx::elem_of(&cx_f.local(l).ty)),
        _ => unreachable!(),
    }
}

/// Characteristics of a procedure's dummies and result, from its
/// specification part.
fn signature(sh: &mut Shared, u: &ast::ProgramUnit, scope: &HashMap<String, Sym>, key: &str) -> R<(Vec<DummySig>, Option<FType>, usize)> {
    let scratch = Function::new(format!("{key}.sig"), FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, u.span);
    let mut cx = Cx::new(sh, scratch, UnitKind::Subroutine, key.to_string(), scope.clone());
    cx.spec_prelude(&u.decls)?;
    let (order, ents, _) = collect(&u.decls);
    cx.parameters_and_types(&u.decls, &order, &ents)?;
    let mut dummies = vec![];
    for a in &u.args {
        if a.text == "*" {
            return Err(cx.err(a.span, "alternate returns are not supported"));
        }
        let e = ents.get(&a.text).cloned().unwrap_or_else(|| super::decl::EntInfo { name: a.text.clone(), span: a.span, ..Default::default() });
        // A dummy procedure: declared by an interface body (or `external`
        // with a type: a function of that type and unknown arguments).
        let body = u.decls.iter().find_map(|d| match &d.kind {
            ast::DeclKind::Interface(ib) if ib.generic.is_none() => ib.bodies.iter().find(|b| b.name.as_ref().is_some_and(|n| n.text == a.text)),
            _ => None,
        });
        if let Some(b) = body {
            let (ds, r, rr) = signature(cx.sh, b, scope, &format!("{key}.{}", a.text))?;
            let ps = ProcSig {
                func: FuncId(0),
                name: a.text.clone(),
                dummies: ds,
                result: r,
                result_rank: rr,
                host_args: vec![],
                elemental: false,
                ext: None,
                span: a.span,
            };
            dummies.push(DummySig {
                name: a.text.clone(),
                ty: FType::INT,
                rank: 0,
                shape: ArrayShape::Explicit,
                by_value: true,
                optional: e.optional,
                intent: Intent::In,
                allocatable: false,
                proc: Some(Box::new(ps)),
            });
            continue;
        }
        if e.external {
            return Err(cx.err(a.span, format!("dummy procedure `{}` needs an interface block describing its arguments", a.text)));
        }
        let ty = cx.entity_type(&e)?;
        let (rank, shape) = match &e.dims {
            None => (0, ArrayShape::Explicit),
            Some(dims) => {
                let shape = if dims.iter().any(|d| matches!(d.upper, Bound::Colon)) {
                    ArrayShape::Assumed
                } else if dims.iter().any(|d| matches!(d.upper, Bound::Star)) {
                    ArrayShape::AssumedSize
                } else {
                    ArrayShape::Explicit
                };
                (dims.len(), shape)
            }
        };
        if rank > 0 && ty.is_char() {
            return Err(cx.err(a.span, "character array dummies are not supported"));
        }
        dummies.push(DummySig {
            name: a.text.clone(),
            ty,
            rank,
            shape,
            by_value: e.value,
            optional: e.optional,
            intent: e.intent.unwrap_or(Intent::Unspecified),
            allocatable: e.allocatable || e.pointer,
            proc: None,
        });
    }
    let mut result_rank = 0;
    let result = if u.kind == ast::UnitKind::Function {
        let fname = super::unit_name(u);
        let rname = u.result.as_ref().map(|r| r.text.clone()).unwrap_or(fname.clone());
        if let Some(e) = ents.get(&rname) {
            result_rank = e.dims.as_ref().map(|d| d.len()).unwrap_or(0);
        }
        let t = match &u.prefix.type_spec {
            Some(ts) => cx.resolve_type(ts, None)?,
            None => match ents.get(&rname) {
                // A character result whose length is computed at entry.
                Some(e) if e.ty.as_ref().is_some_and(|t| t.base == ast::BaseType::Character) && cx.entity_type(e).is_err() => FType::Char(None),
                Some(e) => cx.entity_type(e)?,
                None => cx.implicit_type(&rname, u.head_span)?,
            },
        };
        if t.is_char() && result_rank > 0 {
            return Err(cx.err(u.head_span, "character array functions are not supported"));
        }
        Some(t)
    } else {
        None
    };
    Ok((dummies, result, result_rank))
}

/// The IR callee of a procedure (a C function for `bind(c)` interfaces).
fn callee_of(sig: &ProcSig) -> accjit_ir::Callee {
    match sig.ext {
        Some(e) => accjit_ir::Callee::Extern(e),
        None => accjit_ir::Callee::Func(sig.func),
    }
}

/// `bind(c)` interface bodies of a specification part: C functions,
/// declared as externs and callable by their Fortran names.
pub(crate) fn bind_c_interfaces(cx: &mut Cx, decls: &[ast::Decl]) -> R<()> {
    for d in decls {
        let ast::DeclKind::Interface(ib) = &d.kind else { continue };
        if ib.generic.is_some() {
            continue;
        }
        for b in &ib.bodies {
            let Some(bind) = &b.bind else { continue };
            let fname = super::unit_name(b);
            let cname = bind.clone().unwrap_or_else(|| fname.clone());
            let scope = cx.scopes[0].clone();
            let mut all = scope;
            for (k, v) in cx.scopes.last().unwrap().clone() {
                all.insert(k, v);
            }
            let (dummies, result, rr) = signature(cx.sh, b, &all, &format!("{fname}.bindc"))?;
            let mut sig = ProcSig {
                func: FuncId(0),
                name: fname.clone(),
                dummies,
                result,
                result_rank: rr,
                host_args: vec![],
                elemental: false,
                ext: None,
                span: b.head_span,
            };
            let fsig = proc_func_sig(&sig);
            sig.ext = Some(cx.sh.extern_fn(&cname, fsig));
            let key = format!("{}.bindc.{fname}", cx.unit_name);
            cx.sh.procs.insert(key.clone(), sig);
            cx.define(&fname, Sym::Proc(key));
        }
    }
    Ok(())
}

/// The hidden parameters of a character function's result: where to
/// store the address of the (heap) characters and their length.
fn char_result_params() -> Vec<Type> {
    vec![Type::ptr(Type::ptr(Type::Scalar(accjit_ir::Scalar::U8))), Type::ptr(Type::I64)]
}

/// The hidden dummy carrying an array-valued function's result.
fn result_dummy(t: &FType, rank: usize) -> DummySig {
    DummySig {
        name: String::new(),
        ty: t.clone(),
        rank,
        shape: ArrayShape::Assumed,
        by_value: false,
        optional: false,
        intent: Intent::Out,
        allocatable: true,
        proc: None,
    }
}

/// How Python passes one dummy (`crate::ParamKind`).
fn proc_param(d: &DummySig) -> ProcParam {
    let unsupported = |why: &str| ParamKind::Unsupported { why: why.to_string() };
    let kind = if d.proc.is_some() {
        unsupported("a dummy procedure")
    } else if d.allocatable {
        unsupported("an allocatable or pointer array")
    } else if matches!(d.ty, FType::Derived(..)) {
        unsupported("of a derived type")
    } else if d.ty.is_char() && d.rank > 0 {
        unsupported("a character array")
    } else if let FType::Char(len) = d.ty {
        ParamKind::Char { len }
    } else if d.rank == 0 {
        ParamKind::Scalar { ty: d.ty.ir(), by_value: d.by_value }
    } else {
        ParamKind::Array { elem: d.ty.ir(), rank: d.rank as u8, shape: d.shape }
    };
    ProcParam { name: d.name.clone(), intent: d.intent, optional: d.optional, kind, ftype: d.ty.clone() }
}

/// Declare a procedure: its signature, IR function (body filled by
/// `define_proc`) and `ProcInterface`.
pub(crate) fn declare_proc(
    sh: &mut Shared,
    u: &ast::ProgramUnit,
    scope: &HashMap<String, Sym>,
    key: &str,
    name: &str,
    host: Option<(&Function, &HashMap<String, Sym>, &[String])>,
) -> Result<(), Diagnostics> {
    let (dummies, result, result_rank) = signature(sh, u, scope, key)?;
    let mut params: Vec<Type> = dummies.iter().flat_map(dummy_params).collect();
    if let (Some(t), true) = (&result, result_rank > 0) {
        params.extend(dummy_params(&result_dummy(t, result_rank)));
    }
    if result.as_ref().is_some_and(|t| t.is_char()) {
        params.extend(char_result_params());
    }
    let mut host_args = vec![];
    if let Some((hf, hsyms, names)) = host {
        for n in names {
            if let Some(s) = hsyms.get(n) {
                for p in host_parts(s) {
                    params.push(host_part_param(hf, p));
                }
                host_args.push(HostArg { name: n.clone() });
            }
        }
    }
    let ret = result.as_ref().filter(|t| result_rank == 0 && !t.is_char()).map(|t| t.ir()).unwrap_or(Type::Void);
    let linkage = if host.is_some() { Linkage::Internal } else { Linkage::Export };
    let f = Function::new(key, FuncSig { params, ret: ret.clone(), variadic: false }, linkage, u.span);
    sh.m.functions.push(f);
    let func = FuncId(sh.m.functions.len() as u32 - 1);
    if host.is_none() {
        sh.interfaces.push(ProcInterface {
            name: name.to_string(),
            symbol: key.to_string(),
            params: dummies.iter().map(proc_param).collect(),
            result: result.as_ref().map(|t| if t.is_char() { Type::Scalar(accjit_ir::Scalar::U8) } else { t.ir() }),
            result_ftype: result.clone(),
            result_rank: result_rank as u8,
        });
    }
    sh.procs.insert(
        key.to_string(),
        ProcSig { func, name: name.to_string(), dummies, result, result_rank, host_args, elemental: u.prefix.elemental, ext: None, span: u.head_span },
    );
    Ok(())
}

/// Compile a procedure's body into its IR function.
pub(crate) fn define_proc(sh: &mut Shared, u: &ast::ProgramUnit, scope: &HashMap<String, Sym>, key: &str) -> Result<(), Diagnostics> {
    let sig = sh.procs[key].clone();
    let fsig = sh.m.functions[sig.func.index()].sig.clone();
    let linkage = sh.m.functions[sig.func.index()].linkage;
    let f = Function::new(key, fsig.clone(), linkage, u.span);
    let kind = if sig.result.as_ref().is_some_and(|t| !t.is_char()) && sig.result_rank == 0 { UnitKind::Function } else { UnitKind::Subroutine };
    let (func, internals) = {
        let mut cx = Cx::new(sh, f, kind, key.to_string(), scope.clone());
        // Parameters first, in order.
        let mut plocals: Vec<LocalId> = vec![];
        for (i, t) in fsig.params.iter().enumerate() {
            plocals.push(cx.f.add_local(format!("arg{i}"), t.clone(), u.head_span));
        }
        let r = (|| -> R<Vec<(String, HashMap<String, Sym>)>> {
            cx.spec_prelude(&u.decls)?;
            let (order, ents, save_all) = collect(&u.decls);
            cx.parameters_and_types(&u.decls, &order, &ents)?;
            let mut next = 0;
            // Scalars first: array bounds may use any scalar dummy.
            let mut slots = vec![];
            for d in &sig.dummies {
                let n = dummy_params(d).len();
                slots.push(plocals[next..next + n].to_vec());
                next += n;
            }
            for arrays in [false, true] {
                for (d, ps) in sig.dummies.iter().zip(&slots) {
                    if (d.rank > 0) == arrays {
                        let e = ents.get(&d.name).cloned().unwrap_or_default();
                        cx.bind_dummy(d, ps, &e)?;
                    }
                }
            }
            if let (Some(t), true) = (&sig.result, sig.result_rank > 0) {
                let rd = result_dummy(t, sig.result_rank);
                let n = dummy_params(&rd).len();
                let ps = plocals[next..next + n].to_vec();
                next += n;
                let fname = super::unit_name(u);
                let rname = u.result.as_ref().map(|r| r.text.clone()).unwrap_or(fname.clone());
                let e = ents.get(&rname).cloned().unwrap_or_default();
                let a = cx.alloc_dummy_var(&rname, &rd, &ps, e.span);
                // An explicit-shape result is allocated at entry.
                let dims = e.dims.clone().unwrap_or_default();
                if !e.allocatable && !dims.iter().any(|d| matches!(d.upper, Bound::Colon)) {
                    let (lb, ext, _) = cx.explicit_bounds(&rname, &dims)?;
                    let lbs: Vec<ExprId> = lb.iter().map(|l| cx.get(*l, e.span)).collect();
                    let exts: Vec<ExprId> = ext.iter().map(|l| cx.get(*l, e.span)).collect();
                    cx.allocate_with(&a, &lbs, &exts, e.span);
                }
                if rname == fname {
                    cx.own_names.push(fname.clone());
                }
                cx.define(&rname, Sym::Array(a));
            }
            let char_ps: Option<Vec<LocalId>> = if sig.result.as_ref().is_some_and(|t| t.is_char()) {
                let v = plocals[next..next + 2].to_vec();
                next += 2;
                Some(v)
            } else {
                None
            };
            for h in &sig.host_args {
                let hs = scope.get(&h.name).cloned();
                if let Some(hs) = hs {
                    let parts = host_parts_of_internal(&hs);
                    let n = parts;
                    let ps = plocals[next..next + n].to_vec();
                    next += n;
                    // In the host's scope level: a local declaration hides it.
                    let s = translate_host(&hs, &ps);
                    cx.scopes[0].insert(h.name.clone(), s);
                }
            }
            if let Some(t) = sig.result.clone().filter(|t| t.is_char()) {
                // The result's characters on the heap (the caller frees them).
                let ps = char_ps.clone().unwrap_or_default();
                let fname = super::unit_name(u);
                let rname = u.result.as_ref().map(|r| r.text.clone()).unwrap_or(fname.clone());
                let e = ents.get(&rname).cloned().unwrap_or_default();
                let len = match &e.char_len.clone().or(e.ty.as_ref().and_then(|t| t.len.clone())) {
                    Some(ast::CharLen::Expr(x)) => cx.int_i64(x)?,
                    _ => match t {
                        FType::Char(Some(n)) => cx.i64c(n as i64, u.head_span),
                        _ => return Err(cx.err(u.head_span, "a character function's result needs a length")),
                    },
                };
                let sp = u.head_span;
                let lenp = build::load_local(&mut cx.f, ps[1], sp);
                let lenp = build::deref(&mut cx.f, lenp, sp);
                let a = build::assign(&mut cx.f, lenp, len, sp);
                cx.emit_expr(a, sp);
                let n = cx.get(Loc::Deref(ps[1]), sp);
                let one = cx.i64c(1, sp);
                let buf = cx.libc_call("malloc", vec![n], Type::ptr(Type::Void), sp);
                let _ = one;
                cx.set(Loc::Deref(ps[0]), buf, sp);
                // Blank-filled, as an assignment would leave it.
                let b = cx.get(Loc::Deref(ps[0]), sp);
                let b = cx.cast(b, Type::ptr(Type::Void), sp);
                let blank = cx.int(32, Type::I32, sp);
                let n = cx.get(Loc::Deref(ps[1]), sp);
                let n = cx.cast(n, Type::U64, sp);
                let m = cx.libc_call("memset", vec![b, blank, n], Type::ptr(Type::Void), sp);
                cx.emit_expr(m, sp);
                if rname == fname {
                    cx.own_names.push(fname.clone());
                }
                cx.define(
                    &rname,
                    Sym::Scalar(ScalarVar { ty: FType::Char(None), loc: Loc::Deref(ps[0]), char_len: Some(Loc::Deref(ps[1])), present: None, span: sp }),
                );
            } else if let (Some(t), 0) = (&sig.result, sig.result_rank) {
                let fname = super::unit_name(u);
                let rname = u.result.as_ref().map(|r| r.text.clone()).unwrap_or(fname.clone());
                let l = cx.f.add_local(rname.clone(), t.ir(), u.head_span);
                if let FType::Derived(i, _) = t {
                    cx.emit(StmtKind::Decl(l, None), u.head_span);
                    let p = build::local(&mut cx.f, l, u.head_span);
                    cx.emit(StmtKind::ZeroFill(p), u.head_span);
                    cx.default_init(Loc::Local(l), *i, u.head_span)?;
                } else {
                    let zero = cx.zero_of(t, u.head_span)?;
                    cx.emit(StmtKind::Decl(l, Some(zero)), u.head_span);
                }
                cx.result = Some((l, t.clone()));
                if rname == fname {
                    cx.own_names.push(fname.clone());
                }
                cx.define(&rname, Sym::Scalar(ScalarVar { ty: t.clone(), loc: Loc::Local(l), char_len: None, present: None, span: u.head_span }));
            }
            let mode = SpecMode::Body;
            let mut ents2 = ents.clone();
            for d in &sig.dummies {
                ents2.remove(&d.name);
            }
            if let Some(r) = &u.result {
                ents2.remove(&r.text);
            }
            if sig.result.is_some() {
                ents2.remove(&super::unit_name(u));
            }
            let order2: Vec<String> = order.iter().filter(|n| ents2.contains_key(*n)).cloned().collect();
            cx.variables(&order2, &ents2, mode, save_all)?;
            cx.data_stmts(&u.decls)?;
            cx.spec_directives(&u.decls, &super::unit_name(u))?;
            bind_c_interfaces(&mut cx, &u.decls)?;
            let mut local = cx.scopes.last().unwrap().clone();
            for (k, v) in cx.scopes[0].clone() {
                local.entry(k).or_insert(v);
            }
            super::decl::generics_into(cx.sh, &u.decls, &mut local)?;
            for (k, v) in local {
                if matches!(v, Sym::Generic(_)) {
                    cx.define(&k, v);
                }
            }
            let internals = cx.declare_internals(u)?;
            cx.body(&u.body)?;
            cx.finish_body(u.span);
            Ok(internals)
        })();
        let internals = r?;
        cx.f.routine = cx.routine.take();
        (cx.f, internals)
    };
    sh.m.functions[sig.func.index()] = func;
    for (c, (ikey, iscope)) in u.contains.iter().zip(internals) {
        define_proc(sh, c, &iscope, &ikey)?;
    }
    Ok(())
}

fn host_parts_of_internal(s: &Sym) -> usize {
    // The host sym as the host itself sees it (stored in the internal's
    // scope before translation).
    host_parts(s).len()
}

/// A host variable as an internal procedure sees it, given the parameters
/// carrying its parts.
fn translate_host(s: &Sym, ps: &[LocalId]) -> Sym {
    let mut it = ps.iter();
    let mut tr = |l: Loc| -> Loc {
        match l {
            Loc::Local(_) | Loc::Deref(_) => Loc::Deref(*it.next().unwrap()),
            Loc::LocalArr(_) => Loc::Local(*it.next().unwrap()),
            other => other,
        }
    };
    match s {
        Sym::Scalar(v) => {
            let loc = tr(v.loc);
            let char_len = v.char_len.map(&mut tr);
            Sym::Scalar(ScalarVar { loc, char_len, ..v.clone() })
        }
        Sym::Array(a) => {
            let base = tr(a.base);
            let lb = a.lb.iter().map(|l| tr(*l)).collect();
            let ext = a.ext.iter().map(|l| tr(*l)).collect();
            let stride = a.stride.iter().map(|l| tr(*l)).collect();
            Sym::Array(ArrVar { base, lb, ext, stride, present: None, ..a.clone() })
        }
        other => other.clone(),
    }
}

/// Compile the main program as IR `main` (returns 0; `stop n` exits n).
pub(crate) fn define_program(sh: &mut Shared, u: &ast::ProgramUnit) -> Result<(), Diagnostics> {
    let f = Function::new("main", FuncSig { params: vec![], ret: Type::I32, variadic: false }, Linkage::Export, u.span);
    let (func, internals) = {
        let mut cx = Cx::new(sh, f, UnitKind::Program, super::unit_name(u), HashMap::new());
        let r = (|| -> R<Vec<(String, HashMap<String, Sym>)>> {
            cx.spec_prelude(&u.decls)?;
            let (order, ents, save_all) = collect(&u.decls);
            cx.parameters_and_types(&u.decls, &order, &ents)?;
            cx.variables(&order, &ents, SpecMode::Body, save_all)?;
            cx.data_stmts(&u.decls)?;
            cx.spec_directives(&u.decls, &super::unit_name(u))?;
            bind_c_interfaces(&mut cx, &u.decls)?;
            let mut local = cx.scopes.last().unwrap().clone();
            for (k, v) in cx.scopes[0].clone() {
                local.entry(k).or_insert(v);
            }
            super::decl::generics_into(cx.sh, &u.decls, &mut local)?;
            for (k, v) in local {
                if matches!(v, Sym::Generic(_)) {
                    cx.define(&k, v);
                }
            }
            let internals = cx.declare_internals(u)?;
            cx.body(&u.body)?;
            cx.finish_body(u.span);
            Ok(internals)
        })();
        let internals = r?;
        (cx.f, internals)
    };
    sh.m.functions.push(func);
    for (c, (ikey, iscope)) in u.contains.iter().zip(internals) {
        define_proc(sh, c, &iscope, &ikey)?;
    }
    Ok(())
}

impl Cx<'_> {
    /// The zero of a type (function results start at zero).
    pub fn zero_of(&mut self, t: &FType, sp: Span) -> R<ExprId> {
        let v = match t {
            FType::Real(_) => super::consts::ConstVal::Real(0.0),
            FType::Complex(_) => super::consts::ConstVal::Complex(0.0, 0.0),
            FType::Logical(_) => super::consts::ConstVal::Logical(false),
            _ => super::consts::ConstVal::Int(0),
        };
        Ok(self.const_val(&v, t, sp)?.e)
    }

    /// Bind a dummy to its parameters.
    fn bind_dummy(&mut self, d: &DummySig, ps: &[LocalId], e: &super::decl::EntInfo) -> R<()> {
        let sp = e.span;
        let name = d.name.as_str();
        if let Some(p) = &d.proc {
            self.define(name, Sym::ProcDummy(ps[0], p.clone()));
            return Ok(());
        }
        if d.intent == Intent::In {
            self.intent_in.insert(name.to_string());
        }
        if d.rank == 0 {
            if d.ty.is_char() {
                let len = match d.ty {
                    FType::Char(Some(n)) => Loc::Const(n as i64),
                    _ => Loc::Local(ps[1]),
                };
                self.define(
                    name,
                    Sym::Scalar(ScalarVar { ty: d.ty.clone(), loc: Loc::Local(ps[0]), char_len: Some(len), present: d.optional.then_some(ps[0]), span: sp }),
                );
                return Ok(());
            }
            if d.by_value {
                self.define(name, Sym::Scalar(ScalarVar { ty: d.ty.clone(), loc: Loc::Local(ps[0]), char_len: None, present: None, span: sp }));
                return Ok(());
            }
            // Copy in (when present), and back at every return.
            let p = ps[0];
            let l = self.f.add_local(name, d.ty.ir(), sp);
            self.emit(StmtKind::Decl(l, None), sp);
            let copy_in = self.collect(|cx| {
                let pv = build::load_local(&mut cx.f, p, sp);
                let src = build::deref(&mut cx.f, pv, sp);
                let v = build::load(&mut cx.f, src, sp);
                cx.set(Loc::Local(l), v, sp);
                Ok(())
            })?;
            let guarded = |cx: &mut Self, b: Block| -> Stmt {
                if d.optional {
                    let pv = build::load_local(&mut cx.f, p, sp);
                    let null = cx.int(0, cx.f.local(p).ty.clone(), sp);
                    let c = build::cmp(&mut cx.f, BinOp::Ne, pv, null, sp);
                    Stmt { kind: StmtKind::If(c, b, Block::default()), span: sp }
                } else {
                    Stmt { kind: StmtKind::Block(b), span: sp }
                }
            };
            let s = guarded(self, copy_in);
            self.out.push(s);
            if d.intent != Intent::In {
                let back = self.collect(|cx| {
                    let pv = build::load_local(&mut cx.f, p, sp);
                    let dst = build::deref(&mut cx.f, pv, sp);
                    let v = build::load_local(&mut cx.f, l, sp);
                    let a = build::assign(&mut cx.f, dst, v, sp);
                    cx.emit_expr(a, sp);
                    Ok(())
                })?;
                let s = guarded(self, back);
                self.epilogue.insert(0, s);
            }
            self.define(name, Sym::Scalar(ScalarVar { ty: d.ty.clone(), loc: Loc::Local(l), char_len: None, present: d.optional.then_some(p), span: sp }));
            return Ok(());
        }
        if d.allocatable {
            let a = self.alloc_dummy_var(name, d, ps, sp);
            if d.intent == Intent::Out {
                // intent(out): deallocated on entry.
                let b = self.get(a.base, sp);
                let null = self.int(0, self.loc_type(a.base), sp);
                let c = build::cmp(&mut self.f, BinOp::Ne, b, null, sp);
                let free = self.collect(|cx| {
                    let p = cx.get(a.base, sp);
                    let p = cx.cast(p, Type::ptr(Type::Void), sp);
                    let f = cx.libc_call("free", vec![p], Type::Void, sp);
                    cx.emit_expr(f, sp);
                    let null = cx.int(0, cx.loc_type(a.base), sp);
                    cx.set(a.base, null, sp);
                    Ok(())
                })?;
                self.emit(StmtKind::If(c, free, Block::default()), sp);
            }
            self.define(name, Sym::Array(a));
            return Ok(());
        }
        let dims = e.dims.clone().unwrap_or_default();
        let base = Loc::Local(ps[0]);
        let (lb, ext, stride) = match d.shape {
            ArrayShape::Assumed => {
                let mut lb = vec![];
                for dim in &dims {
                    lb.push(match &dim.lower {
                        None => Loc::Const(1),
                        Some(x) => match self.fold(x).and_then(|v| v.0.as_int()) {
                            Some(c) => Loc::Const(c),
                            None => {
                                let v = self.int_i64(x)?;
                                Loc::Local(self.temp(&format!("{name}.lb"), v, sp))
                            }
                        },
                    });
                }
                let ext: Vec<Loc> = (0..d.rank).map(|k| Loc::Local(ps[1 + k])).collect();
                let mut stride = vec![Loc::Const(1)];
                stride.extend((1..d.rank).map(|k| Loc::Local(ps[d.rank + k])));
                (lb, ext, stride)
            }
            _ => {
                let (lb, ext, _) = self.explicit_bounds(name, &dims)?;
                let stride = self.contiguous_strides(name, &ext, sp);
                (lb, ext, stride)
            }
        };
        let a = ArrVar {
            name: name.to_string(),
            ty: d.ty.clone(),
            base,
            lb,
            ext,
            stride,
            allocatable: false,
            pointer: false,
            assumed_size: d.shape == ArrayShape::AssumedSize,
            present: d.optional.then_some(ps[0]),
            span: sp,
        };
        self.define(name, Sym::Array(a));
        Ok(())
    }

    /// An allocatable array whose base pointer and bounds live behind the
    /// parameters `ps` (an allocatable dummy, an array function's result).
    fn alloc_dummy_var(&mut self, name: &str, d: &DummySig, ps: &[LocalId], sp: Span) -> ArrVar {
        let r = d.rank;
        let mut stride = vec![Loc::Const(1)];
        stride.extend((1..r).map(|k| Loc::Deref(ps[2 * r + k])));
        ArrVar {
            name: name.to_string(),
            ty: d.ty.clone(),
            base: Loc::Deref(ps[0]),
            lb: (0..r).map(|k| Loc::Deref(ps[1 + k])).collect(),
            ext: (0..r).map(|k| Loc::Deref(ps[1 + r + k])).collect(),
            stride,
            allocatable: true,
            pointer: false,
            assumed_size: false,
            present: None,
            span: sp,
        }
    }

    /// Declare the internal procedures of the unit being compiled; returns
    /// (key, scope) for defining each.
    fn declare_internals(&mut self, u: &ast::ProgramUnit) -> R<Vec<(String, HashMap<String, Sym>)>> {
        if u.contains.is_empty() {
            return Ok(vec![]);
        }
        let host = self.unit_name.clone();
        // The host's variables any internal procedure uses.
        let mut used = vec![];
        for c in &u.contains {
            super::walk::names_used(&c.body, &mut used);
            for d in &c.decls {
                decl_names(d, &mut used);
            }
        }
        let locals = self.scopes.last().unwrap().clone();
        let names: Vec<String> = used.into_iter().filter(|n| matches!(locals.get(n), Some(Sym::Scalar(_)) | Some(Sym::Array(_)))).collect();
        // Implicitly typed host variables used only by internal procedures
        // are not in scope yet: nothing to pass (each internal declares its own).
        let mut scope = self.scopes[0].clone();
        for (k, s) in &locals {
            if !matches!(s, Sym::Scalar(_) | Sym::Array(_)) {
                scope.insert(k.clone(), s.clone());
            }
        }
        let keys: Vec<(String, String)> = u.contains.iter().map(|c| (super::unit_name(c), format!("{host}__{}", super::unit_name(c)))).collect();
        for (n, k) in &keys {
            scope.insert(n.clone(), Sym::Proc(k.clone()));
            self.define(n, Sym::Proc(k.clone()));
        }
        let mut out = vec![];
        for (c, (n, k)) in u.contains.iter().zip(&keys) {
            // The internal procedure's own scope holds the host variables as
            // the host sees them; define_proc translates them.
            let mut iscope = scope.clone();
            for hn in &names {
                iscope.insert(hn.clone(), locals[hn].clone());
            }
            let hsyms = locals.clone();
            declare_proc(self.sh, c, &scope, k, n, Some((&self.f, &hsyms, &names))).map_err(first_diag)?;
            out.push((k.clone(), iscope));
        }
        Ok(out)
    }

    /// The end of a procedure body: the epilogue and the return.
    fn finish_body(&mut self, sp: Span) {
        self.ret_stmts(None, sp);
        let mut body = std::mem::take(&mut self.top_decls);
        body.append(&mut self.out);
        self.f.body = Block::new(body);
    }

    /// The epilogue and `return` (of the result, or 0 in the main program).
    pub fn ret_stmts(&mut self, _v: Option<ExprId>, sp: Span) {
        let epi = self.epilogue.clone();
        self.out.extend(epi);
        let v = match self.kind {
            UnitKind::Program => Some(self.int(0, Type::I32, sp)),
            UnitKind::Function => {
                let (l, _) = self.result.clone().unwrap();
                Some(build::load_local(&mut self.f, l, sp))
            }
            UnitKind::Subroutine => None,
        };
        self.emit(StmtKind::Return(v), sp);
    }

    /// A function reference `key(args)`.
    pub fn call_function(&mut self, key: &str, args: &[ast::Arg], sp: Span) -> R<super::expr::Val> {
        let Some(sig) = self.sh.procs.get(key).cloned() else {
            return Err(self.err(sp, format!("unknown procedure `{key}`")));
        };
        let Some(rt) = sig.result.clone() else {
            return Err(self.err(sp, format!("`{}` is a subroutine; call it with `call {}(...)`", sig.name, sig.name)));
        };
        if sig.result_rank > 0 {
            return Err(self.err(sp, format!("`{}` returns an array; a scalar is needed here", sig.name)));
        }
        if rt.is_char() {
            return Err(self.err(sp, format!("`{}` returns characters; they cannot be used here", sig.name)));
        }
        let (ir_args, post) = self.call_args(&sig, args, vec![], sp)?;
        let e = self.mk(ExprKind::Call(callee_of(&sig), ir_args), rt.ir(), sp);
        if !post.is_empty() {
            let t = self.temp("fres", e, sp);
            self.out.extend(post);
            let e = build::load_local(&mut self.f, t, sp);
            return Ok(super::expr::Val { e, ty: rt });
        }
        Ok(super::expr::Val { e, ty: rt })
    }

    /// `call key(args)`.
    pub fn call_subroutine(&mut self, key: &str, args: &[ast::Arg], sp: Span) -> R<()> {
        let Some(sig) = self.sh.procs.get(key).cloned() else {
            return Err(self.err(sp, format!("unknown procedure `{key}`")));
        };
        if sig.result.is_some() {
            return Err(self.err(sp, format!("`{}` is a function; use its value in an expression", sig.name)));
        }
        let array_arg = args.iter().find_map(|a| match &a.value {
            ArgValue::Expr(x) if self.rank_of(x) > 0 => Some(x),
            _ => None,
        });
        if let (true, Some(x)) = (sig.elemental, array_arg) {
            // An elemental subroutine on arrays: one call per element.
            for a in args {
                if let ArgValue::Expr(e) = &a.value {
                    self.materialise(e)?;
                }
            }
            let shape = self.shape_of(x)?;
            return self.nest(&shape, sp, &mut |cx, idx| {
                cx.elem = Some(idx.to_vec());
                let r = cx.call_args(&sig, args, vec![], sp);
                cx.elem = None;
                let (ir_args, post) = r?;
                let e = cx.mk(ExprKind::Call(accjit_ir::Callee::Func(sig.func), ir_args), Type::Void, sp);
                cx.emit_expr(e, sp);
                cx.out.extend(post);
                Ok(())
            });
        }
        let (ir_args, post) = self.call_args(&sig, args, vec![], sp)?;
        let e = self.mk(ExprKind::Call(callee_of(&sig), ir_args), Type::Void, sp);
        self.emit_expr(e, sp);
        self.out.extend(post);
        Ok(())
    }

    /// Match actual arguments to dummies; the IR arguments and statements to
    /// run after the call (copy-out of temporaries).
    /// A reference to a character function: (pointer, length) of its result
    /// (heap characters freed after the statement).
    pub fn call_char_function(&mut self, key: &str, args: &[ast::Arg], sp: Span) -> R<(ExprId, ExprId)> {
        let sig = self.sh.procs.get(key).cloned().ok_or_else(|| self.err(sp, format!("unknown procedure `{key}`")))?;
        let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
        let p = self.new_local("cres", u8p.clone(), sp);
        let z = self.int(0, u8p, sp);
        self.emit(StmtKind::Decl(p, Some(z)), sp);
        let n = self.new_local("cres.n", Type::I64, sp);
        let z = self.i64c(0, sp);
        self.emit(StmtKind::Decl(n, Some(z)), sp);
        let pp = build::local(&mut self.f, p, sp);
        let np = build::local(&mut self.f, n, sp);
        let extra = vec![build::addr_of(&mut self.f, pp, sp), build::addr_of(&mut self.f, np, sp)];
        let saved = self.elem.clone();
        let r = self.call_args(&sig, args, extra, sp);
        self.elem = saved;
        let (ir_args, post) = r?;
        let e = self.mk(ExprKind::Call(accjit_ir::Callee::Func(sig.func), ir_args), Type::Void, sp);
        self.emit_expr(e, sp);
        self.out.extend(post);
        self.stmt_temps.push(Loc::Local(p));
        Ok((build::load_local(&mut self.f, p, sp), build::load_local(&mut self.f, n, sp)))
    }

    /// A reference to an array-valued function: the result in a temporary
    /// array (freed after the statement).
    pub fn call_array_function(&mut self, key: &str, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
        let sig = self.sh.procs.get(key).cloned().ok_or_else(|| self.err(sp, format!("unknown procedure `{key}`")))?;
        let t = sig.result.clone().unwrap();
        let r = sig.result_rank;
        let mk = |cx: &mut Self, name: &str, ty: Type| {
            let l = cx.new_local(name, ty.clone(), sp);
            let z = cx.int(0, ty, sp);
            cx.emit(StmtKind::Decl(l, Some(z)), sp);
            Loc::Local(l)
        };
        let base = mk(self, "fres", Type::ptr(t.ir()));
        let lb: Vec<Loc> = (0..r).map(|_| mk(self, "fres.lb", Type::I64)).collect();
        let ext: Vec<Loc> = (0..r).map(|_| mk(self, "fres.n", Type::I64)).collect();
        let mut stride = vec![Loc::Const(1)];
        stride.extend((1..r).map(|_| mk(self, "fres.s", Type::I64)));
        let a =
            ArrVar { name: sig.name.clone(), ty: t, base, lb, ext, stride, allocatable: true, pointer: false, assumed_size: false, present: None, span: sp };
        let mut extra = vec![];
        for loc in std::iter::once(a.base).chain(a.lb.iter().copied()).chain(a.ext.iter().copied()).chain(a.stride[1..].iter().copied()) {
            let p = self.place(loc, sp);
            extra.push(build::addr_of(&mut self.f, p, sp));
        }
        let saved = self.elem.take();
        let r = self.call_args(&sig, args, extra, sp);
        self.elem = saved;
        let (ir_args, post) = r?;
        let e = self.mk(ExprKind::Call(accjit_ir::Callee::Func(sig.func), ir_args), Type::Void, sp);
        self.emit_expr(e, sp);
        self.out.extend(post);
        self.stmt_temps.push(a.base);
        Ok(a)
    }

    fn call_args(&mut self, sig: &ProcSig, args: &[ast::Arg], extra: Vec<ExprId>, sp: Span) -> R<(Vec<ExprId>, Vec<Stmt>)> {
        let mut slots: Vec<Option<&ast::Arg>> = vec![None; sig.dummies.len()];
        let mut positional = true;
        for (i, a) in args.iter().enumerate() {
            match &a.keyword {
                None => {
                    if !positional {
                        return Err(self.err(a.span, "a positional argument after a keyword argument"));
                    }
                    if i >= slots.len() {
                        return Err(self.err(sp, format!("`{}` takes {} arguments, {} given", sig.name, sig.dummies.len(), args.len())));
                    }
                    slots[i] = Some(a);
                }
                Some(k) => {
                    positional = false;
                    let Some(j) = sig.dummies.iter().position(|d| d.name == k.text) else {
                        return Err(self.err(k.span, format!("`{}` has no argument `{}`", sig.name, k.text)));
                    };
                    if slots[j].is_some() {
                        return Err(self.err(k.span, format!("argument `{}` given twice", k.text)));
                    }
                    slots[j] = Some(a);
                }
            }
        }
        let mut out = vec![];
        let mut post = vec![];
        let saved_elem = self.elem.clone();
        for (d, slot) in sig.dummies.iter().zip(slots) {
            let Some(a) = slot else {
                if !d.optional {
                    return Err(self.err(sp, format!("argument `{}` of `{}` is missing", d.name, sig.name)));
                }
                for t in dummy_params(d) {
                    out.push(self.int(0, t, sp));
                }
                continue;
            };
            let ArgValue::Expr(x) = &a.value else {
                return Err(self.err(a.span, "not an argument"));
            };
            if d.proc.is_some() {
                out.push(self.proc_arg(d, x)?);
                continue;
            }
            if d.rank == 0 {
                self.scalar_arg(d, x, &mut out)?;
            } else {
                self.elem = None;
                let r = self.array_arg(d, x, &mut out, &mut post);
                self.elem = saved_elem.clone();
                r?;
            }
        }
        out.extend(extra);
        // Host association.
        for h in &sig.host_args {
            let s = self.lookup(&h.name).cloned();
            if let Some(s) = s {
                for p in host_parts(&s) {
                    let v = match p {
                        Loc::Local(l) => {
                            let pl = build::local(&mut self.f, l, sp);
                            build::addr_of(&mut self.f, pl, sp)
                        }
                        Loc::Deref(q) => build::load_local(&mut self.f, q, sp),
                        Loc::LocalArr(_) => self.get(p, sp),
                        _ => unreachable!(),
                    };
                    out.push(v);
                }
            }
        }
        Ok((out, post))
    }

    fn scalar_arg(&mut self, d: &DummySig, x: &ast::Expr, out: &mut Vec<ExprId>) -> R<()> {
        let sp = x.span;
        if d.ty.is_char() {
            let (p, n) = self.char_val(x)?;
            out.push(p);
            out.push(n);
            return Ok(());
        }
        if d.by_value {
            let v = self.value(x)?;
            out.push(self.convert(&v, &d.ty, sp)?);
            return Ok(());
        }
        // A variable of the dummy's type: its address (an optional dummy
        // passed on: its pointer, null when absent).
        let is_var =
            matches!(&x.kind, ast::ExprKind::Name(_) | ast::ExprKind::Apply { .. }) && self.type_of_expr(x).as_ref() == Some(&d.ty) && self.is_variable(x);
        if is_var {
            if let ast::ExprKind::Name(n) = &x.kind {
                if let Some(Sym::Scalar(v)) = self.lookup(&n.text).cloned() {
                    if let Some(p) = v.present {
                        // Pass the caller's copy when present (its updates come back
                        // through the caller's epilogue), null when absent.
                        let pv = build::load_local(&mut self.f, p, sp);
                        let null = self.int(0, self.f.local(p).ty.clone(), sp);
                        let c = build::cmp(&mut self.f, BinOp::Ne, pv, null, sp);
                        let place = self.place(v.loc, sp);
                        let a = build::addr_of(&mut self.f, place, sp);
                        let z = self.int(0, Type::ptr(d.ty.ir()), sp);
                        out.push(self.mk(ExprKind::Cond(c, a, z), Type::ptr(d.ty.ir()), sp));
                        return Ok(());
                    }
                }
            }
            let (p, _) = self.place_of(x)?;
            out.push(build::addr_of(&mut self.f, p, sp));
            return Ok(());
        }
        // An expression: its value in a temporary.
        let v = self.value(x)?;
        let v = self.convert(&v, &d.ty, sp)?;
        let t = self.new_local("arg", d.ty.ir(), sp);
        self.emit(StmtKind::Decl(t, Some(v)), sp);
        let pl = build::local(&mut self.f, t, sp);
        out.push(build::addr_of(&mut self.f, pl, sp));
        Ok(())
    }

    /// A procedure passed as an actual argument: its address.
    fn proc_arg(&mut self, d: &DummySig, x: &ast::Expr) -> R<ExprId> {
        let sp = x.span;
        let ast::ExprKind::Name(n) = &x.kind else {
            return Err(self.err(sp, format!("argument `{}` is a procedure: pass a procedure name", d.name)));
        };
        let fty = dummy_params(d).remove(0);
        match self.lookup(&n.text).cloned() {
            Some(Sym::ProcDummy(l, _)) => return Ok(build::load_local(&mut self.f, l, sp)),
            Some(Sym::Proc(k)) => {
                let f = self.sh.procs[&k].func;
                return Ok(self.mk(ExprKind::FuncAddr(accjit_ir::Callee::Func(f)), fty, sp));
            }
            _ => {}
        }
        match self.sh.procs.get(&n.text) {
            Some(p) => {
                let f = p.func;
                Ok(self.mk(ExprKind::FuncAddr(accjit_ir::Callee::Func(f)), fty, sp))
            }
            None => Err(self.err(sp, format!("`{}` is not a procedure defined in the files compiled", n.text))),
        }
    }

    /// A call through a dummy procedure.
    pub fn call_dummy_proc(&mut self, l: LocalId, sig: &ProcSig, args: &[ast::Arg], sp: Span) -> R<Option<super::expr::Val>> {
        if sig.result_rank > 0 {
            return Err(self.err(sp, "array-valued dummy functions are not supported"));
        }
        let (ir_args, post) = self.call_args(sig, args, vec![], sp)?;
        let fp = build::load_local(&mut self.f, l, sp);
        let ret = sig.result.as_ref().map(|t| t.ir()).unwrap_or(Type::Void);
        let e = self.mk(ExprKind::CallIndirect(fp, ir_args), ret, sp);
        match &sig.result {
            Some(t) => {
                let r = self.temp("dres", e, sp);
                self.out.extend(post);
                let v = build::load_local(&mut self.f, r, sp);
                Ok(Some(super::expr::Val { e: v, ty: t.clone() }))
            }
            None => {
                self.emit_expr(e, sp);
                self.out.extend(post);
                Ok(None)
            }
        }
    }

    /// The specific procedure of generic `keys` that `args` select (by
    /// the types and ranks of the actual arguments).
    pub fn resolve_generic(&mut self, name: &str, keys: &[String], args: &[ast::Arg], sp: Span) -> R<String> {
        'cands: for k in keys {
            let Some(sig) = self.sh.procs.get(k).cloned() else { continue };
            if args.len() > sig.dummies.len() {
                continue;
            }
            for (i, a) in args.iter().enumerate() {
                let d = match &a.keyword {
                    Some(kw) => match sig.dummies.iter().find(|d| d.name == kw.text) {
                        Some(d) => d,
                        None => continue 'cands,
                    },
                    None => &sig.dummies[i],
                };
                let ArgValue::Expr(x) = &a.value else { continue 'cands };
                if d.proc.is_some() {
                    continue;
                }
                let rank = self.rank_of(x);
                let t = self.type_of_expr(x);
                let rank_ok = rank == d.rank || (sig.elemental && d.rank == 0);
                if !rank_ok || t.as_ref() != Some(&d.ty) {
                    continue 'cands;
                }
            }
            if sig
                .dummies
                .iter()
                .enumerate()
                .any(|(i, d)| !d.optional && i >= args.len() && !args.iter().any(|a| a.keyword.as_ref().is_some_and(|kw| kw.text == d.name)))
            {
                continue;
            }
            return Ok(k.clone());
        }
        Err(self.err(sp, format!("no specific procedure of generic `{name}` matches these arguments")))
    }

    /// Is `x` a variable (not a constant, not a function call)?
    pub fn is_variable(&self, x: &ast::Expr) -> bool {
        match &x.kind {
            ast::ExprKind::Name(n) => matches!(self.lookup(&n.text), Some(Sym::Scalar(_)) | Some(Sym::Array(_)) | None),
            ast::ExprKind::Apply { base, .. } => {
                matches!(&base.kind, ast::ExprKind::Name(n) if matches!(self.lookup(&n.text), Some(Sym::Array(_))))
                    || matches!(base.kind, ast::ExprKind::Component { .. })
            }
            ast::ExprKind::Component { .. } => true,
            _ => false,
        }
    }

    fn array_arg(&mut self, d: &DummySig, x: &ast::Expr, out: &mut Vec<ExprId>, post: &mut Vec<Stmt>) -> R<()> {
        let sp = x.span;
        if d.allocatable {
            // The actual's own base pointer and bounds, by reference.
            let a = match &x.kind {
                ast::ExprKind::Name(_) | ast::ExprKind::Component { .. } => self.array_of(x)?,
                _ => return Err(self.err(sp, format!("argument `{}` is allocatable: pass an allocatable array variable", d.name))),
            };
            if !a.allocatable || a.rank() != d.rank || a.ty != d.ty {
                return Err(self.err(sp, format!("argument `{}` needs an allocatable {} array of rank {}", d.name, d.ty.name(), d.rank)));
            }
            for loc in std::iter::once(a.base).chain(a.lb.iter().copied()).chain(a.ext.iter().copied()).chain(a.stride[1..].iter().copied()) {
                let p = self.place(loc, sp);
                out.push(build::addr_of(&mut self.f, p, sp));
            }
            return Ok(());
        }
        let ety = d.ty.ir();
        // Sequence association: an element `a(1, j)` passed to an
        // explicit-shape or assumed-size dummy passes its address.
        if d.shape != ArrayShape::Assumed && self.rank_of(x) == 0 {
            if let ast::ExprKind::Apply { .. } = &x.kind {
                if self.is_variable(x) {
                    let (p, t) = self.place_of(x)?;
                    if t != d.ty {
                        return Err(self.err(sp, format!("{} passed for `{}` of type {}", t.name(), d.name, d.ty.name())));
                    }
                    out.push(build::addr_of(&mut self.f, p, sp));
                    return Ok(());
                }
            }
            return Err(self.err(sp, format!("argument `{}` must be an array", d.name)));
        }
        if self.rank_of(x) == 0 {
            return Err(self.err(sp, format!("argument `{}` must be an array", d.name)));
        }
        self.materialise(x)?;
        let v = match self.view_of(x)? {
            Some(v) => v,
            None => {
                // An array expression: evaluated into a temporary.
                let shape = self.shape_of(x)?;
                let t = self.temp_array("argv", &d.ty, &shape, sp);
                self.fill_from(&t, x, sp)?;
                self.whole_view(&t, sp)
            }
        };
        if v.ty != d.ty {
            return Err(self.err(sp, format!("{} array passed for `{}` of type {}", v.ty.name(), d.name, d.ty.name())));
        }
        let rank_ok = d.shape == ArrayShape::AssumedSize || d.shape == ArrayShape::Explicit || v.exts.len() == d.rank;
        if !rank_ok {
            return Err(self.err(sp, format!("a rank-{} array passed for `{}` of rank {}", v.exts.len(), d.name, d.rank)));
        }
        // A contiguous first dimension is needed (and full contiguity for
        // explicit-shape dummies): else a temporary, copied back after.
        let first_unit = build::const_int(&self.f, v.strides[0]) == Some(1);
        let contiguous = v.hull.is_none() || (first_unit && v.exts.len() == 1);
        let needs_copy = if d.shape == ArrayShape::Assumed { !first_unit } else { !contiguous };
        let v = if needs_copy {
            let exts: Vec<ExprId> = v.exts.iter().map(|&e| self.clone_expr(e)).collect();
            let t = self.temp_array("argc", &d.ty, &exts, sp);
            self.copy_view(&t, &v, true, sp)?;
            if d.intent != Intent::In {
                let saved = std::mem::take(&mut self.out);
                self.copy_view(&t, &v, false, sp)?;
                let stmts = std::mem::replace(&mut self.out, saved);
                post.extend(stmts);
            }
            self.whole_view(&t, sp)
        } else {
            v
        };
        let base = self.cast(v.base, Type::ptr(ety), sp);
        out.push(base);
        if d.shape == ArrayShape::Assumed {
            for e in &v.exts {
                out.push(*e);
            }
            for s in &v.strides[1..] {
                out.push(*s);
            }
        }
        Ok(())
    }

    /// Copy between a contiguous temporary `t` and a view (`into_t`: view → t).
    fn copy_view(&mut self, t: &ArrVar, v: &super::array::View, into_t: bool, sp: Span) -> R<()> {
        let exts: Vec<ExprId> = v.exts.iter().map(|&e| self.clone_expr(e)).collect();
        let base = self.settle(v.base, sp);
        let strides: Vec<ExprId> = v.strides.iter().map(|&s| self.settle(s, sp)).collect();
        let t = t.clone();
        self.nest(&exts, sp, &mut |cx, idx| {
            let mut off = cx.i64c(0, sp);
            for (k, s) in idx.iter().zip(&strides) {
                let kv = build::load_local(&mut cx.f, *k, sp);
                let s = cx.clone_expr(*s);
                let m = cx.bin(BinOp::Mul, kv, s, Type::I64, sp);
                off = cx.bin(BinOp::Add, off, m, Type::I64, sp);
            }
            let b = cx.clone_expr(base);
            let bty = cx.ty(b);
            let pa = cx.bin(BinOp::Add, b, off, bty, sp);
            let va = build::deref(&mut cx.f, pa, sp);
            let subs: Vec<ExprId> = idx
                .iter()
                .map(|&k| {
                    let kv = build::load_local(&mut cx.f, k, sp);
                    let one = cx.i64c(1, sp);
                    cx.bin(BinOp::Add, kv, one, Type::I64, sp)
                })
                .collect();
            let tp = cx.elem_place(&t, &subs, sp);
            let (dst, src) = if into_t { (tp, va) } else { (va, tp) };
            let val = build::load(&mut cx.f, src, sp);
            let a = build::assign(&mut cx.f, dst, val, sp);
            cx.emit_expr(a, sp);
            Ok(())
        })
    }

    /// Fill a fresh temporary from an array expression.
    pub fn fill_from(&mut self, t: &ArrVar, x: &ast::Expr, sp: Span) -> R<()> {
        let shape: Vec<ExprId> = t.ext.iter().map(|e| self.get(*e, sp)).collect();
        let t = t.clone();
        self.nest(&shape, sp, &mut |cx, idx| {
            cx.elem = Some(idx.to_vec());
            let v = cx.value(x);
            cx.elem = None;
            let v = v?;
            let v = cx.convert(&v, &t.ty, sp)?;
            let subs: Vec<ExprId> = idx
                .iter()
                .map(|&k| {
                    let kv = build::load_local(&mut cx.f, k, sp);
                    let one = cx.i64c(1, sp);
                    cx.bin(BinOp::Add, kv, one, Type::I64, sp)
                })
                .collect();
            let p = cx.elem_place(&t, &subs, sp);
            let a = build::assign(&mut cx.f, p, v, sp);
            cx.emit_expr(a, sp);
            Ok(())
        })
    }
}

/// The names a declaration's expressions use (bounds, kinds, initialisers).
fn decl_names(d: &ast::Decl, out: &mut Vec<String>) {
    let mut f = |e: &ast::Expr| {
        super::walk::each_subexpr(e, &mut |x| {
            if let ast::ExprKind::Name(n) = &x.kind {
                if !out.contains(&n.text) {
                    out.push(n.text.clone());
                }
            }
            true
        })
    };
    let dims = |ds: &Option<Vec<ast::DimSpec>>, f: &mut dyn FnMut(&ast::Expr)| {
        for d in ds.iter().flatten() {
            if let Some(l) = &d.lower {
                f(l);
            }
            if let Bound::Expr(u) = &d.upper {
                f(u);
            }
        }
    };
    match &d.kind {
        ast::DeclKind::TypeDecl(td) => {
            for a in &td.attrs {
                if let ast::Attr::Dimension(ds) = a {
                    dims(&Some(ds.clone()), &mut f);
                }
            }
            for e in &td.entities {
                dims(&e.dims, &mut f);
            }
        }
        ast::DeclKind::AttrStmt { entities, .. } => {
            for e in entities {
                dims(&e.dims, &mut f);
            }
        }
        _ => {}
    }
}

fn first_diag(d: Diagnostics) -> accjit_ir::Diagnostic {
    d.0.into_iter().next().unwrap_or_else(|| accjit_ir::Diagnostic::error(Span::DUMMY, "error"))
}

//! Whole functions: the request's entry function (its parameter plan,
//! [`crate::Entry`]), the compute-region split of `@acc.parallel/kernels/
//! serial` functions (host prologue, region, host epilogue), `@acc.jit`
//! host functions, and `@acc.routine` functions compiled once per distinct
//! tuple of argument types at their call sites (name-mangled), recursion
//! included.

use crate::cx::{ArrayVar, Cx, EnvItem, FileInfo, FnKind, ParamKey, Ret, RetShape, RoutineDef, Shared, Stride, Val, Var};
use crate::expr::sub;
use crate::tree::{Node, Value};
use crate::types::{dtype_name, parse_dtype, Weak};
use crate::{ArgType, Entry, EntryParam, Layout};
use accjit_ir::{
    build, BinOp, Block, ComputeKind, Diagnostic, ExprId, ExprKind, FuncId, FuncSig, Function, Level, Linkage, LocalId, RoutineInfo, Span, Stmt, StmtKind, Type,
};
use std::collections::{HashMap, HashSet};

type R<T> = Result<T, Diagnostic>;

/// The temporaries receiving a tuple-returning routine's values.
pub(crate) type TupleTemps = Vec<(LocalId, Type)>;

/// The parameter names of a `FunctionDef` (refusing `*args` and `**kwargs`).
fn param_names(file: &FileInfo, func: &Node) -> R<Vec<String>> {
    let args = sub(func, "args")?;
    let err = |n: &Node, m: &str| Diagnostic::error(file.span(n.pos), m.to_string());
    if let Some(v) = args.node("vararg") {
        return Err(err(v, "`*args` parameters are not supported in compiled functions"));
    }
    if let Some(v) = args.node("kwarg") {
        return Err(err(v, "`**kwargs` parameters are not supported in compiled functions"));
    }
    // Defaults and keywords are bound by the dispatcher: every parameter
    // arrives as an argument, keyword-only ones after the others.
    let mut names = vec![];
    for a in args.nodes("posonlyargs").into_iter().chain(args.nodes("args")).chain(args.nodes("kwonlyargs")) {
        names.push(a.str("arg").unwrap_or("").to_string());
    }
    Ok(names)
}

/// The env of a function: its `Const`/`ModuleRef`/`FuncRef`/`Routine`/`Unsupported` items by name.
pub(crate) fn env_of(items: &[&Node]) -> HashMap<String, EnvItem> {
    let mut env = HashMap::new();
    for it in items {
        let Some(name) = it.str("name") else { continue };
        let item = match it.kind.as_str() {
            "Const" => {
                let v = it.get("value").clone();
                let ty = it.str("dtype").and_then(parse_dtype).unwrap_or(match v {
                    Value::Float(_) => Type::F64,
                    Value::Bool(_) => Type::BOOL,
                    Value::Complex(..) => Type::Complex(accjit_ir::Scalar::F64),
                    _ => Type::I64,
                });
                let weak = if it.get("weak") == &Value::Bool(true) {
                    match crate::types::kind(&ty) {
                        crate::types::Kind::Int => Weak::Int,
                        crate::types::Kind::Float => Weak::Float,
                        crate::types::Kind::Complex => Weak::Complex,
                        crate::types::Kind::Bool => Weak::No,
                    }
                } else {
                    Weak::No
                };
                EnvItem::Const { value: v, ty, weak }
            }
            "ModuleRef" => EnvItem::Module(it.str("module").unwrap_or("").to_string()),
            "FuncRef" => EnvItem::Func(it.str("qualname").unwrap_or("").to_string()),
            "Routine" => EnvItem::Routine(it.str("ref").unwrap_or(name).to_string()),
            "Unsupported" => EnvItem::Unsupported(it.str("what").unwrap_or("not supported").to_string()),
            _ => continue,
        };
        env.insert(name.to_string(), item);
    }
    env
}

pub(crate) fn level_of(s: Option<&str>) -> Level {
    match s {
        Some("gang") => Level::Gang,
        Some("worker") => Level::Worker,
        Some("vector") => Level::Vector,
        _ => Level::Seq,
    }
}

/// Collect every routine definition reachable from `env` (by reference).
pub(crate) fn collect_routines(env: &[&Node], out: &mut HashMap<String, RoutineDef>, files: &mut Vec<(String, String)>) {
    for it in env {
        if !it.is("Routine") {
            continue;
        }
        let Some(func) = it.node("func") else { continue };
        let r = it.str("ref").or(it.str("name")).unwrap_or("").to_string();
        if out.contains_key(&r) {
            continue;
        }
        let file = it.str("file").unwrap_or("<unknown>").to_string();
        files.push((file.clone(), it.str("text").unwrap_or("").to_string()));
        let inner = it.nodes("env");
        out.insert(r, RoutineDef { func: func.clone(), env: inner.iter().map(|n| (*n).clone()).collect(), file, level: level_of(it.str("level")) });
        collect_routines(&inner, out, files);
    }
}

/// The IR parameters of one Python parameter described by `key`, declared
/// as locals of `f` (in order), and what the name denotes. Returns the
/// entry-parameter plan for argument `arg` too.
fn declare_param(
    f: &mut Function,
    name: &str,
    key: &ParamKey,
    arg: usize,
    span: Span,
    plan: &mut Vec<EntryParam>,
    sig: &mut Vec<Type>,
) -> (Var, Vec<(usize, Vec<LocalId>)>) {
    match key {
        ParamKey::Scalar(t) => {
            let l = f.add_local(name, t.clone(), span);
            plan.push(EntryParam::Scalar { arg, ty: t.clone() });
            sig.push(t.clone());
            (Var::Scalar { local: l, ty: t.clone() }, vec![])
        }
        ParamKey::Array { elem, ndim, layout, writable, half } => {
            let base = f.add_local(name, Type::ptr(elem.clone()), span);
            plan.push(EntryParam::Base { arg });
            sig.push(Type::ptr(elem.clone()));
            let mut shape = vec![];
            for d in 0..*ndim {
                shape.push(f.add_local(format!("{name}_shape{d}"), Type::I64, span));
                plan.push(EntryParam::Shape { arg, dim: d });
                sig.push(Type::I64);
            }
            let mut strides = vec![];
            let mut computed = vec![];
            match layout {
                Layout::Strided => {
                    for d in 0..*ndim {
                        strides.push(Stride::Local(f.add_local(format!("{name}_stride{d}"), Type::I64, span)));
                        plan.push(EntryParam::Stride { arg, dim: d });
                        sig.push(Type::I64);
                    }
                }
                Layout::C | Layout::F => {
                    // Strides follow from the extents: declared after every
                    // parameter (see `stride_decls`).
                    for d in 0..*ndim as usize {
                        let unit = if *layout == Layout::C { d + 1 == *ndim as usize } else { d == 0 };
                        if unit {
                            strides.push(Stride::One);
                        } else {
                            // C: product of the extents after d; F: before d.
                            let dims: Vec<LocalId> = if *layout == Layout::C { shape[d + 1..].to_vec() } else { shape[..d].to_vec() };
                            strides.push(Stride::Local(LocalId(u32::MAX)));
                            computed.push((d, dims));
                        }
                    }
                }
            }
            let a =
                ArrayVar { name: name.to_string(), base, elem: elem.clone(), ndim: *ndim, shape, strides, layout: *layout, writable: *writable, half: *half };
            (Var::Array(a), computed)
        }
    }
}

/// Declare every parameter of a function (all parameter locals first),
/// then the stride locals of C/F arrays with their initialising statements.
/// `extra` locals (the results buffer, a routine's out pointers) are
/// declared right after the parameters, so that they can become the next
/// parameters; then the stride locals.
fn declare_params(
    cx: &mut Cx,
    names: &[String],
    keys: &[ParamKey],
    extra: &[(&str, Type)],
    span: Span,
) -> (Vec<EntryParam>, Vec<Type>, Vec<Stmt>, Vec<LocalId>) {
    let mut plan = vec![];
    let mut sig = vec![];
    let mut pending = vec![];
    for (i, (name, key)) in names.iter().zip(keys).enumerate() {
        let (var, computed) = declare_param(&mut cx.f, name, key, i, span, &mut plan, &mut sig);
        pending.push((name.clone(), var, computed));
    }
    let extra: Vec<LocalId> = extra.iter().map(|(n, t)| cx.f.add_local(*n, t.clone(), span)).collect();
    let mut stmts = vec![];
    for (name, mut var, computed) in pending {
        if let Var::Array(a) = &mut var {
            for (d, dims) in computed {
                let l = cx.f.add_local(format!("{name}_stride{d}"), Type::I64, span);
                let mut e = build::load_local(&mut cx.f, dims[0], span);
                for &x in &dims[1..] {
                    let xv = build::load_local(&mut cx.f, x, span);
                    e = build::binary(&mut cx.f, BinOp::Mul, e, xv, Type::I64, span);
                }
                stmts.push(Stmt { kind: StmtKind::Decl(l, Some(e)), span });
                a.strides[d] = Stride::Local(l);
            }
        }
        cx.vars.insert(name, var);
    }
    cx.params = names.to_vec();
    (plan, sig, stmts, extra)
}

pub(crate) fn key_of(a: &ArgType) -> ParamKey {
    match a {
        ArgType::Scalar(t) => ParamKey::Scalar(t.clone()),
        ArgType::Array { elem, ndim, layout, writable, half } => {
            ParamKey::Array { elem: elem.clone(), ndim: *ndim, layout: *layout, writable: *writable, half: *half }
        }
    }
}

/// A readable mangling of argument types (`f64`, `a2f32C`).
fn mangle(keys: &[ParamKey]) -> String {
    keys.iter()
        .map(|k| match k {
            ParamKey::Scalar(t) => dtype_name(t),
            ParamKey::Array { elem, ndim, layout, writable, half } => format!(
                "a{}{}{}{}",
                ndim,
                if *half { "float16".to_string() } else { dtype_name(elem) },
                match layout {
                    Layout::C => "C",
                    Layout::F => "F",
                    Layout::Strided => "A",
                },
                if *writable { "" } else { "r" }
            ),
        })
        .collect::<Vec<_>>()
        .join("_")
}

/// The compute-region split of a `@acc.parallel/kernels/serial` body:
/// (prologue, region, final return).
fn split_region<'n>(body: &[&'n Node], params: &[String], env: &HashMap<String, EnvItem>) -> (Vec<&'n Node>, Vec<&'n Node>, Option<&'n Node>) {
    let mut body: Vec<&Node> = body.to_vec();
    let ret = match body.last() {
        Some(r) if r.is("Return") => body.pop(),
        _ => None,
    };
    let mut known: HashSet<String> = params.iter().cloned().collect();
    let mut prologue = vec![];
    let mut i = 0;
    while i < body.len() {
        let s = body[i];
        if s.is("Expr") && s.node("value").map(|v| v.is("Constant")).unwrap_or(false) {
            prologue.push(s); // docstring
            i += 1;
            continue;
        }
        if !s.is("Assign") {
            break;
        }
        let targets = s.nodes("targets");
        let mut names = vec![];
        let ok_targets = targets.iter().all(|t| {
            if t.is("Name") {
                names.push(t.str("id").unwrap_or("").to_string());
                true
            } else if t.is("Tuple") {
                t.nodes("elts").iter().all(|e| {
                    names.push(e.str("id").unwrap_or("").to_string());
                    e.is("Name")
                })
            } else {
                false
            }
        });
        if !ok_targets || names.iter().any(|n| params.contains(n)) || !host_readable(s.node("value"), &known, env) {
            break;
        }
        known.extend(names);
        prologue.push(s);
        i += 1;
    }
    (prologue, body[i..].to_vec(), ret)
}

/// Whether an expression reads only parameters, shapes, constants and
/// `known` names, calling nothing but builtins and math functions.
fn host_readable(n: Option<&Node>, known: &HashSet<String>, env: &HashMap<String, EnvItem>) -> bool {
    let Some(n) = n else { return false };
    match n.kind.as_str() {
        "Name" => {
            let id = n.str("id").unwrap_or("");
            known.contains(id)
                || matches!(env.get(id), Some(EnvItem::Const { .. } | EnvItem::Module(_) | EnvItem::Func(_)))
                || crate::cx::BUILTINS.contains(&id)
        }
        // a.shape[k], and elements of parameter arrays (read on the host
        // before the region: the host copy is current then).
        "Subscript" => host_readable(n.node("value"), known, env) && host_readable(n.node("slice"), known, env),
        "Slice" => false,
        "Call" => {
            let f = n.node("func");
            let callee_ok = match f {
                Some(f) if f.is("Name") => {
                    let id = f.str("id").unwrap_or("");
                    matches!(env.get(id), Some(EnvItem::Func(q)) if !q.starts_with("accjit"))
                        || (crate::cx::BUILTINS.contains(&id) && !env.contains_key(id) && id != "print")
                }
                Some(f) if f.is("Attribute") => !attr_root_is_acc(f, env) && host_readable(Some(f), known, env),
                _ => false,
            };
            callee_ok && n.nodes("args").iter().all(|a| host_readable(Some(a), known, env)) && n.nodes("keywords").is_empty()
        }
        _ => n.fields.iter().all(|(_, v)| match v {
            Value::Node(c) => host_readable(Some(c), known, env),
            Value::List(items) => items.iter().all(|x| match x {
                Value::Node(c) => host_readable(Some(c), known, env),
                _ => true,
            }),
            _ => true,
        }),
    }
}

fn attr_root_is_acc(n: &Node, env: &HashMap<String, EnvItem>) -> bool {
    match n.kind.as_str() {
        "Attribute" => n.node("value").map(|v| attr_root_is_acc(v, env)).unwrap_or(false),
        "Name" => matches!(env.get(n.str("id").unwrap_or("")), Some(EnvItem::Module(m)) if m == "accjit"),
        _ => false,
    }
}

/// Names a `return` statement returns directly (`return s` / `return s, t`).
fn returned_names(ret: Option<&Node>) -> Vec<String> {
    let Some(v) = ret.and_then(|r| r.node("value")) else { return vec![] };
    let items = if v.is("Tuple") { v.nodes("elts") } else { vec![v] };
    items.iter().filter(|i| i.is("Name")).map(|i| i.str("id").unwrap_or("").to_string()).collect()
}

/// Compile the request's function into `sh.m` as its exported entry.
pub(crate) fn compile_entry(sh: &mut Shared, req: &Node, args: &[ArgType]) -> R<Entry> {
    let kind = req.str("kind").unwrap_or("");
    let file_name = req.str("file").unwrap_or("<unknown>");
    let file = sh.files.get(file_name).cloned().ok_or_else(|| Diagnostic::error(Span::DUMMY, "internal: the request's file is not in the source map"))?;
    let func = req.node("func").ok_or_else(|| Diagnostic::error(Span::DUMMY, "malformed request: no `func`"))?;
    let span = file.span(func.pos);
    let name = func.str("name").unwrap_or("kernel").to_string();
    let names = param_names(&file, func)?;
    if names.len() != args.len() {
        return Err(Diagnostic::error(
            span,
            format!("`{name}` takes {} argument{} but {} were given", names.len(), if names.len() == 1 { "" } else { "s" }, args.len()),
        ));
    }
    let keys: Vec<ParamKey> = args.iter().map(key_of).collect();
    let env = env_of(&req.nodes("env"));

    if kind == "routine" {
        // A routine called from Python: a host wrapper around its specialisation.
        let r = req.str("ref").unwrap_or(&name).to_string();
        let entry_fn = Function::new(name.clone(), FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Export, span);
        let mut cx = Cx::new(sh, entry_fn, file.clone(), env, FnKind::Jit, Ret::Buffer { local: None, types: None, first: span });
        let (plan, sig, prelude, extra) = declare_params(&mut cx, &names, &keys, &[("__results", Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)))], span);
        let results = extra[0];
        let (fid, ret) = cx.specialise(&r, &keys, span)?;
        let mut call_args = vec![];
        for p in 0..sig.len() {
            call_args.push(build::load_local(&mut cx.f, LocalId(p as u32), span));
        }
        let mut body = prelude;
        let mut result_types = vec![];
        // The address of results cell k, as a pointer to `t`.
        let cell = |cx: &mut Cx, k: usize, t: &Type| {
            let base = build::load_local(&mut cx.f, results, span);
            let off = cx.i64c(16 * k as i64, span);
            let p = cx.binary(BinOp::Add, base, off, Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)), span);
            build::cast(&mut cx.f, p, Type::ptr(t.clone()), span)
        };
        match ret {
            RetShape::Value(Type::Void) => {
                let call = cx.mk(ExprKind::Call(accjit_ir::Callee::Func(fid), call_args), Type::Void, span);
                body.push(build::expr_stmt(call, span));
            }
            RetShape::Value(t) => {
                let call = cx.mk(ExprKind::Call(accjit_ir::Callee::Func(fid), call_args), t.clone(), span);
                let p = cell(&mut cx, 0, &t);
                let d = build::deref(&mut cx.f, p, span);
                let a = build::assign(&mut cx.f, d, call, span);
                body.push(build::expr_stmt(a, span));
                result_types.push(t);
            }
            RetShape::Tuple(types) => {
                for (k, t) in types.iter().enumerate() {
                    let p = cell(&mut cx, k, t);
                    call_args.push(p);
                }
                let call = cx.mk(ExprKind::Call(accjit_ir::Callee::Func(fid), call_args), Type::Void, span);
                body.push(build::expr_stmt(call, span));
                result_types = types;
            }
        }
        let mut plan = plan;
        let mut sig = sig;
        if !result_types.is_empty() {
            plan.push(EntryParam::Results);
            sig.push(Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)));
        }
        cx.f.sig = FuncSig { params: sig, ret: Type::Void, variadic: false };
        cx.f.body = Block::new(body);
        cx.f.param_const_pointee = const_pointees(&keys);
        let f = std::mem::replace(&mut cx.f, Function::new("", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, span));
        sh.m.functions.push(f);
        return Ok(Entry { name, params: plan, results: result_types });
    }

    let fn_kind = match kind {
        "parallel" => FnKind::Compute(ComputeKind::Parallel),
        "kernels" => FnKind::Compute(ComputeKind::Kernels),
        "serial" => FnKind::Compute(ComputeKind::Serial),
        "jit" => FnKind::Jit,
        other => return Err(Diagnostic::error(span, format!("unknown request kind `{other}`"))),
    };
    let entry_fn = Function::new(name.clone(), FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Export, span);
    let mut cx = Cx::new(sh, entry_fn, file.clone(), env.clone(), fn_kind, Ret::Buffer { local: None, types: None, first: span });
    // The results buffer is the local after the parameters; it becomes a
    // parameter only when the function returns something.
    let (mut plan, mut sig, prelude, extra) = declare_params(&mut cx, &names, &keys, &[("__results", Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)))], span);
    let results = extra[0];
    cx.ret = Ret::Buffer { local: Some(results), types: None, first: span };
    let mut out = prelude;
    let body = func.nodes("body");
    match fn_kind {
        FnKind::Compute(ck) => {
            let (prologue, region, ret) = split_region(&body, &names, &env);
            cx.prologue = prologue
                .iter()
                .flat_map(|s| s.nodes("targets"))
                .flat_map(|t| if t.is("Tuple") { t.nodes("elts") } else { vec![t] })
                .map(|t| t.str("id").unwrap_or("").to_string())
                .collect();
            cx.returned = returned_names(ret);
            for s in &prologue {
                cx.stmt(s, &mut out)?;
            }
            let kws = req.nodes("keywords");
            let st = crate::acc::compute(&mut cx, ck, &kws, func, |cx| cx.compute_body(ck, &region))?;
            // Temporaries of the clauses' expressions come first.
            out.append(&mut cx.pending);
            out.push(st);
            cx.in_epilogue = true;
            if let Some(r) = ret {
                cx.stmt(r, &mut out)?;
            }
        }
        _ => {
            let b = cx.block(&body)?;
            out.extend(b.stmts);
        }
    }
    let result_types = match &cx.ret {
        Ret::Buffer { types: Some(t), .. } => t.clone(),
        _ => vec![],
    };
    if !result_types.is_empty() {
        plan.push(EntryParam::Results);
        sig.push(Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)));
    }
    cx.f.sig = FuncSig { params: sig, ret: Type::Void, variadic: false };
    cx.f.body = Block::new(out);
    cx.f.param_const_pointee = const_pointees(&keys);
    let f = std::mem::replace(&mut cx.f, Function::new("", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, span));
    sh.m.functions.push(f);
    Ok(Entry { name, params: plan, results: result_types })
}

/// Per IR parameter: whether it points to read-only data.
fn const_pointees(keys: &[ParamKey]) -> Vec<bool> {
    let mut out = vec![];
    for k in keys {
        match k {
            ParamKey::Scalar(_) => out.push(false),
            ParamKey::Array { ndim, layout, writable, .. } => {
                out.push(!writable);
                let n = *ndim as usize * if *layout == Layout::Strided { 2 } else { 1 };
                out.extend(std::iter::repeat_n(false, n));
            }
        }
    }
    out
}

/// The first `return` statement of a body in source order (not looking
/// into nested definitions).
fn first_return<'n>(body: &[&'n Node]) -> Option<&'n Node> {
    for s in body {
        if s.is("Return") {
            return Some(s);
        }
        if matches!(s.kind.as_str(), "FunctionDef" | "AsyncFunctionDef" | "ClassDef" | "Lambda") {
            continue;
        }
        for field in ["body", "orelse", "finalbody"] {
            if let Some(r) = first_return(&s.nodes(field)) {
                return Some(r);
            }
        }
    }
    None
}

impl Cx<'_> {
    /// The specialisation of routine `r` for argument types `keys`:
    /// compiled on first use; returns its function and what it returns.
    pub(crate) fn specialise(&mut self, r: &str, keys: &[ParamKey], at: Span) -> R<(FuncId, RetShape)> {
        let key = (r.to_string(), keys.to_vec());
        if let Some(&id) = self.sh.specs.get(&key) {
            return match self.sh.spec_ret.get(&id).cloned().flatten() {
                Some(t) => Ok((id, t)),
                None => Err(Diagnostic::error(at, "this recursive call comes before any `return` fixes the routine's result type")
                    .with_hint("put the base case (`if n < 2: return n`) before the recursive call")),
            };
        }
        let def = self.sh.routines.get(r).cloned().ok_or_else(|| Diagnostic::error(at, format!("internal: routine `{r}` has no definition in the request")))?;
        let file = self.sh.files.get(&def.file).cloned().ok_or_else(|| Diagnostic::error(at, "internal: the routine's file is not in the source map"))?;
        let span = file.span(def.func.pos);
        let base = def.func.str("name").unwrap_or("routine");
        let names = param_names(&file, &def.func)?;
        if names.len() != keys.len() {
            return Err(Diagnostic::error(
                at,
                format!("`{base}` takes {} argument{} but {} were given", names.len(), if names.len() == 1 { "" } else { "s" }, keys.len()),
            )
            .with_note(span, "defined here"));
        }
        // Reserve the function's slot (recursive calls refer to it).
        let placeholder =
            Function::new(format!("{base}__{}", mangle(keys)), FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, span);
        self.sh.m.functions.push(placeholder.clone());
        let id = FuncId(self.sh.m.functions.len() as u32 - 1);
        self.sh.specs.insert(key, id);
        self.sh.spec_ret.insert(id, None);
        let env_nodes: Vec<&Node> = def.env.iter().collect();
        let env = env_of(&env_nodes);
        let body_nodes = def.func.nodes("body");
        // A routine whose first `return` returns a tuple stores its values
        // through pointer parameters after its own.
        let tuple_arity = first_return(&body_nodes).and_then(|r| r.node("value")).filter(|v| v.is("Tuple")).map(|v| v.nodes("elts").len());
        let mut cx = Cx::new(&mut *self.sh, placeholder, file, env, FnKind::Routine(def.level), Ret::Value { func: id, ty: None, first: span });
        // Out pointers, typed when the first `return` fixes the element types.
        let out_names: Vec<String> = (0..tuple_arity.unwrap_or(0)).map(|j| format!("__out{j}")).collect();
        let extra: Vec<(&str, Type)> = out_names.iter().map(|n| (n.as_str(), Type::ptr(Type::Void))).collect();
        let (_, mut sig, prelude, outs) = declare_params(&mut cx, &names, keys, &extra, span);
        if !outs.is_empty() {
            sig.extend(outs.iter().map(|_| Type::ptr(Type::Void)));
            cx.ret = Ret::Outs { func: id, outs, types: None, first: span };
        }
        cx.f.sig = FuncSig { params: sig, ret: Type::Void, variadic: false };
        let mut out = prelude;
        let body = cx.block(&body_nodes)?;
        out.extend(body.stmts);
        let shape = match &cx.ret {
            Ret::Value { ty: Some(t), .. } => RetShape::Value(t.clone()),
            Ret::Outs { types: Some(t), .. } => RetShape::Tuple(t.clone()),
            _ => RetShape::Value(Type::Void),
        };
        cx.sh.spec_ret.insert(id, Some(shape.clone()));
        if let RetShape::Value(t) = &shape {
            cx.f.sig.ret = t.clone();
        }
        cx.f.body = Block::new(out);
        cx.f.routine = Some(RoutineInfo { level: def.level, gang_dim: (def.level == Level::Gang) as u8, bind: None, nohost: false, span });
        cx.f.param_const_pointee = const_pointees(keys);
        let f = std::mem::replace(&mut cx.f, Function::new("", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, span));
        self.sh.m.functions[id.index()] = f;
        Ok((id, shape))
    }

    /// The IR arguments and specialisation key of Python call arguments.
    fn routine_args(&mut self, args: &[&Node], sp: Span) -> R<(Vec<ParamKey>, Vec<ExprId>)> {
        let mut keys = vec![];
        let mut values: Vec<ExprId> = vec![];
        for a in args {
            if a.is("Starred") {
                return Err(self.err(a, "`*` arguments are not supported in compiled code"));
            }
            if let Some(arr) = self.array_named(a) {
                keys.push(ParamKey::Array { elem: arr.elem.clone(), ndim: arr.ndim, layout: arr.layout, writable: arr.writable, half: arr.half });
                values.push(build::load_local(&mut self.f, arr.base, sp));
                for &d in &arr.shape {
                    values.push(build::load_local(&mut self.f, d, sp));
                }
                if arr.layout == Layout::Strided {
                    for s in &arr.strides {
                        if let Stride::Local(l) = s {
                            values.push(build::load_local(&mut self.f, *l, sp));
                        }
                    }
                }
            } else {
                let v = self.value(a)?;
                if !v.ty.is_arith() {
                    return Err(self.err(a, "a routine argument must be a number or an array"));
                }
                let e = self.finish(&v);
                keys.push(ParamKey::Scalar(v.ty.clone()));
                values.push(e);
            }
        }
        Ok((keys, values))
    }

    /// A call of routine `r`: the call expression and, for a routine
    /// returning a tuple, the temporaries that receive its values.
    pub(crate) fn routine_invoke(&mut self, n: &Node, r: &str, args: &[&Node]) -> R<(ExprId, Option<TupleTemps>)> {
        let sp = self.span(n);
        if !n.nodes("keywords").is_empty() {
            return Err(self.err(n, "keyword arguments are not supported in routine calls"));
        }
        let (keys, mut values) = self.routine_args(args, sp)?;
        let (id, shape) = self.specialise(r, &keys, sp)?;
        match shape {
            RetShape::Value(t) => Ok((self.mk(ExprKind::Call(accjit_ir::Callee::Func(id), values), t, sp), None)),
            RetShape::Tuple(types) => {
                let mut temps = vec![];
                for t in &types {
                    let l = self.temp_local("r", t.clone(), sp);
                    let p = build::local(&mut self.f, l, sp);
                    values.push(build::addr_of(&mut self.f, p, sp));
                    temps.push((l, t.clone()));
                }
                Ok((self.mk(ExprKind::Call(accjit_ir::Callee::Func(id), values), Type::Void, sp), Some(temps)))
            }
        }
    }

    /// A call of routine `r` used as a value.
    pub(crate) fn routine_call(&mut self, n: &Node, r: &str, args: &[&Node]) -> R<Val> {
        let (e, temps) = self.routine_invoke(n, r, args)?;
        if temps.is_some() {
            return Err(self.err(n, "this routine returns a tuple: unpack it (`a, b = f(...)`)"));
        }
        let ty = self.type_of(e);
        Ok(Val { e, ty, weak: Weak::No })
    }
}

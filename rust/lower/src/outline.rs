//! Compute constructs → kernels + launches.
//!
//! For one `parallel`/`serial`/`kernels` construct:
//! 1. (`kernels` only) split the body into parts, one per top-level loop nest
//!    and one per run of other statements (`kernels.rs`);
//! 2. find the captures of the region (`capture.rs`) and decide their data
//!    attributes (`implicit.rs`), once for the whole construct;
//! 3. build one kernel per part: parameters for the captures the part uses
//!    (in order of first use), gang-private locals for `private`,
//!    `firstprivate` aggregates and compute reductions (a `KernelReduction`
//!    each), then the body copied through `copy.rs` (acc loops → `AccLoop`);
//!    its gang grid has as many dimensions as `num_gangs` has values or its
//!    highest `gang(dim:d)` loop needs (`Kernel::gang_dims`);
//! 4. in host code: evaluate `if`/`self`, `async` and the clause sections
//!    once, `__accjit_wait` for a `wait` clause, data enters (explicit
//!    whole-variable clauses, implicit clauses, then member/deep sections with
//!    attach), the launches in order (several `num_gangs` values evaluated
//!    once: the total and the grid's extents, `Launch::gang_grid`, use them),
//!    data exits in reverse.
//!
//! `Launch::local_cond` is `!(if) || self`: the runtime then runs the kernel on
//! the local thread, and no data clause acts (the guard skips them).

use crate::build::{self, const_int, i64c, load_local};
use crate::capture::{region_vars, VarKey, VarUse};
use crate::copy::{collect_labels, KernelBuilder, Mapped};
use crate::cx::{void_ptr, Cx};
use crate::data::{self, ClauseOp, FLAG_STRUCTURED};
use crate::implicit::{self, Capture, Mode};
use crate::private::HostCopy;
use accjit_ir::*;
use std::collections::HashSet;

/// Reductions a combined `parallel loop reduction(op:x)` implies on the
/// compute construct (variables not already reduced there).
fn combined_reductions(f: &Function, c: &ComputeConstruct) -> Vec<(RedOp, VarKey)> {
    let mut out = vec![];
    if !c.combined || c.kind == ComputeKind::Kernels {
        return out;
    }
    let Some(Stmt { kind: StmtKind::For { acc: Some(d), .. }, .. }) = crate::capture::single_stmt(&c.body) else { return out };
    let already: Vec<VarKey> = c.reductions.iter().flat_map(|r| r.vars.iter()).filter_map(|v| VarKey::of_place(f, v.root)).collect();
    for r in &d.reductions {
        for v in &r.vars {
            if let Some(k) = VarKey::of_place(f, v.root) {
                if !already.contains(&k) && crate::reduce::is_scalar_var(f, v) {
                    out.push((r.op, k));
                }
            }
        }
    }
    out
}

fn host_place(cx: &Cx, f: &mut Function, key: VarKey, span: Span) -> ExprId {
    match key {
        VarKey::Local(l) => build::local(f, l, span),
        VarKey::Global(g) => {
            let ty = cx.module.globals[g.index()].ty.clone();
            f.add_expr(ExprKind::Global(g), ty, span)
        }
    }
}

/// The launch argument for one capture.
fn host_arg(cx: &Cx, f: &mut Function, cap: &Capture, span: Span) -> ExprId {
    let p = host_place(cx, f, cap.key, span);
    match cap.mode {
        Mode::Value | Mode::PtrValue => build::load(f, p, span),
        _ => build::addr_of(f, p, span),
    }
}

/// Build the kernel for one part of a construct.
#[allow(clippy::too_many_arguments)]
fn build_kernel(
    cx: &mut Cx,
    f: &Function,
    c: &ComputeConstruct,
    tuning: &ComputeTuning,
    part: &Block,
    caps: &[&Capture],
    copies: &[HostCopy],
    name: String,
) -> Kernel {
    let span = c.span;
    let kfn = Function::new(name.clone(), FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, span);
    let mut kb = KernelBuilder::new(cx, f, kfn, c.kind, span);
    crate::capture::collect_decls(part, &mut kb.region_locals);
    collect_labels(part, &mut kb.region_labels);
    kb.vector_length =
        if c.kind == ComputeKind::Serial { Some(1) } else { tuning.vector_length.and_then(|e| const_int(f, e)).and_then(|v| u32::try_from(v).ok()) };
    kb.num_gangs_values = tuning.num_gangs.len();
    // Parameters first (they are the first locals).
    let mut params = vec![];
    let mut param_of = vec![];
    for cap in caps {
        if !cap.has_param() {
            param_of.push(None);
            continue;
        }
        let (ty, kind) = match cap.mode {
            Mode::Value => (cap.ty.clone(), ParamKind::Value),
            Mode::PtrValue => (cap.ty.clone(), ParamKind::DeviceAddr),
            // Copied by every gang: the values at the construct (also under async).
            Mode::FirstprivateAggregate => (Type::ptr(cap.ty.clone()), ParamKind::Snapshot),
            _ => (Type::ptr(cap.ty.clone()), ParamKind::DeviceAddr),
        };
        let p = kb.k.add_local(cap.name.clone(), ty.clone(), cap.span);
        kb.k.sig.params.push(ty.clone());
        params.push(KernelParam { name: cap.name.clone(), ty, kind: kind.clone() });
        param_of.push(Some(p));
        if kind == ParamKind::Snapshot {
            let name = format!("{}.bytes", cap.name);
            kb.k.add_local(name.clone(), Type::I64, cap.span);
            kb.k.sig.params.push(Type::I64);
            params.push(KernelParam { name, ty: Type::I64, kind: ParamKind::Value });
        }
    }
    let private_copies = crate::private::bind_kernel_copies(&mut kb, copies, &mut params);
    // Gang-private copies.
    let mut prelude = vec![];
    let mut reductions = vec![];
    for (i, cap) in caps.iter().enumerate() {
        let sp = cap.span;
        match (&cap.mode, param_of[i]) {
            (Mode::Value | Mode::PtrValue, Some(p)) => kb.env.bind(cap.key, Mapped::Local(p)),
            (Mode::ByRef, Some(p)) => kb.env.bind(cap.key, Mapped::ByRef(p)),
            (Mode::FirstprivateAggregate, Some(p)) => {
                let l = kb.k.add_local(cap.name.clone(), cap.ty.clone(), sp);
                prelude.push(Stmt { kind: StmtKind::Decl(l, None), span: sp });
                let dst = build::local(&mut kb.k, l, sp);
                let pv = load_local(&mut kb.k, p, sp);
                let src = build::deref(&mut kb.k, pv, sp);
                let v = build::load(&mut kb.k, src, sp);
                let a = build::assign(&mut kb.k, dst, v, sp);
                prelude.push(build::expr_stmt(a, sp));
                kb.env.bind(cap.key, Mapped::Local(l));
            }
            (Mode::Private, _) => {
                let l = kb.k.add_local(cap.name.clone(), cap.ty.clone(), sp);
                prelude.push(Stmt { kind: StmtKind::Decl(l, None), span: sp });
                kb.env.bind(cap.key, Mapped::Local(l));
            }
            (Mode::Reduction(op), Some(p)) => {
                // The back end initialises the private copy at gang start.
                let l = kb.k.add_local(cap.name.clone(), cap.ty.clone(), sp);
                kb.env.bind(cap.key, Mapped::Local(l));
                let pv = load_local(&mut kb.k, p, sp);
                let target = kb.k.add_expr(ExprKind::Deref(pv), cap.ty.clone(), sp);
                reductions.push(KernelReduction { op: *op, ty: cap.ty.clone(), form: RedForm::Scalar, private: l, target });
            }
            (Mode::Direct, _) => kb.env.bind(cap.key, Mapped::Direct),
            _ => {}
        }
    }
    reductions.extend(crate::reduce::construct_reductions(&mut kb, c, &mut prelude));
    let body = kb.block(part);
    let KernelBuilder { k: mut func, .. } = kb;
    prelude.extend(body.stmts);
    func.body = Block::new(crate::private::scoped(private_copies, prelude, span));
    let max_gangs = match c.kind {
        ComputeKind::Serial => Some(1),
        _ => tuning
            .num_gangs
            .iter()
            .map(|e| const_int(f, *e))
            .try_fold(1u64, |acc, v| v.and_then(|v| u64::try_from(v).ok()).map(|v| acc * v))
            .filter(|_| !tuning.num_gangs.is_empty()),
    };
    let gang_dims = if c.kind == ComputeKind::Serial { 1 } else { (tuning.num_gangs.len() as u8).max(max_gang_dim(&func.body)).clamp(1, 3) };
    Kernel { name, construct: c.kind, params, func, max_gangs, gang_dims, reductions, exec: Default::default(), span }
}

/// The highest `gang(dim:d)` of the gang loops in a kernel body (0: none).
fn max_gang_dim(b: &Block) -> u8 {
    b.stmts
        .iter()
        .map(|s| match &s.kind {
            StmtKind::AccLoop(l) => (if l.gang { l.gang_dim } else { 0 }).max(max_gang_dim(&l.body)),
            StmtKind::Block(b) | StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Privates(_, b) => max_gang_dim(b),
            StmtKind::If(_, t, e) => max_gang_dim(t).max(max_gang_dim(e)),
            StmtKind::For { body, .. } => max_gang_dim(body),
            StmtKind::Switch(_, cases) => cases.iter().map(|c| max_gang_dim(&c.body)).max().unwrap_or(0),
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Does a kernel body partition a loop across gangs (at its top level, or
/// anywhere when `deep`)?
fn has_gang_loop(b: &Block, deep: bool) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::AccLoop(l) => l.gang || (deep && has_gang_loop(&l.body, deep)),
        StmtKind::Block(b) | StmtKind::Privates(_, b) => has_gang_loop(b, deep),
        StmtKind::If(_, t, e) if deep => has_gang_loop(t, deep) || has_gang_loop(e, deep),
        StmtKind::While(_, b) | StmtKind::DoWhile(b, _) if deep => has_gang_loop(b, deep),
        StmtKind::For { body, .. } if deep => has_gang_loop(body, deep),
        StmtKind::Switch(_, cases) if deep => cases.iter().any(|c| has_gang_loop(&c.body, deep)),
        _ => false,
    })
}

/// Implicit data clause temporaries for the captures that need one.
fn implicit_ops(cx: &Cx, f: &mut Function, caps: &[Capture], out: &mut Vec<Stmt>) -> Vec<ClauseOp> {
    let mut ops = vec![];
    for cap in caps {
        let Some(kind) = cap.implicit else { continue };
        let sp = cap.span;
        let p = host_place(cx, f, cap.key, sp);
        // A pointer (default(present)): the byte it points to; else the variable.
        let (a, size) = if cap.mode == Mode::PtrValue { (build::load(f, p, sp), 1) } else { (build::addr_of(f, p, sp), cx.size_of(&cap.ty) as i64) };
        let a = build::cast(f, a, void_ptr(), sp);
        let (addr, d1) = build::temp(f, "__acc_addr", a, sp);
        let n = i64c(f, size, sp);
        let (bytes, d2) = build::temp(f, "__acc_bytes", n, sp);
        out.push(d1);
        out.push(d2);
        ops.push(ClauseOp { kind, flags: FLAG_STRUCTURED, name: cap.name.clone(), addr, bytes, attach: None, deep: None, span: sp });
    }
    ops
}

/// Lower one compute construct; returns the host statements replacing it.
pub fn lower_compute(cx: &mut Cx, f: &mut Function, mut c: ComputeConstruct, scope: &crate::host::Scope) -> Vec<Stmt> {
    let span = c.span;
    let default = c.default.or(scope.default);
    let device = cx.opts.device_type.clone();
    let tuning = c.tuning.resolve(&device);
    let mut out = vec![];

    // 1. Parts.
    let mut hoisted = HashSet::new();
    let parts: Vec<Block> =
        if c.kind == ComputeKind::Kernels { crate::kernels::split(f, &mut c, &mut out, &mut hoisted) } else { vec![std::mem::take(&mut c.body)] };
    if c.kind != ComputeKind::Kernels {
        c.body = parts[0].clone();
    }

    // 2. Captures and their attributes.
    let extra = combined_reductions(f, &c);
    let whole = Block::new(parts.iter().flat_map(|p| p.stmts.iter().cloned()).collect());
    let mut rv = region_vars(f, &whole, &device);
    let red_keys: Vec<(VarKey, Span)> = c
        .reductions
        .iter()
        .flat_map(|r| r.vars.iter())
        .flat_map(|v| VarKey::of_place(f, v.root).into_iter().chain(crate::capture::bound_vars(f, v)).map(|k| (k, v.span)))
        .chain(extra.iter().map(|(_, k)| (*k, span)))
        .collect();
    for (k, sp) in red_keys {
        if rv.get(k).is_none() {
            rv.uses.push(VarUse { key: k, span: sp, written: true, addr_taken: false, loop_reduction: false });
        }
    }
    // Parameters in a stable order: host locals (parameters first), then globals.
    rv.uses.sort_by_key(|u| u.key);
    let errors_before = cx.diags.len();
    crate::private::check_construct(cx, f, &c);
    let caps = implicit::plan(cx, f, &c, default, &extra, &rv, &hoisted, &scope.data_vars);
    if cx.diags.len() > errors_before {
        return vec![];
    }

    // 3. Kernels (private subarrays evaluated once, before any of them).
    let (copies, copy_ops) = crate::private::prepare_construct(cx, f, &c, &mut out);
    if cx.diags.len() > errors_before {
        return vec![];
    }
    let mut launches = vec![];
    let fname = f.name.clone();
    for part in &parts {
        let used: HashSet<VarKey> =
            if parts.len() == 1 { caps.iter().map(|c| c.key).collect() } else { region_vars(f, part, &device).uses.iter().map(|u| u.key).collect() };
        let part_caps: Vec<&Capture> = caps.iter().filter(|cap| used.contains(&cap.key) || matches!(cap.mode, Mode::Reduction(_))).collect();
        let name = cx.kernel_name(&fname, c.kind);
        let mut k = build_kernel(cx, f, &c, &tuning, part, &part_caps, &copies, name);
        // Serial: one gang. Kernels parts without a gang loop: one gang (their
        // code is not gang-redundant in the source). Parallel with no gang loop
        // anywhere and no num_gangs: the default number of gangs is ours to
        // choose, and more than one would only repeat the same work.
        let single = match c.kind {
            ComputeKind::Serial => true,
            ComputeKind::Kernels => !has_gang_loop(&k.func.body, false),
            ComputeKind::Parallel => tuning.num_gangs.is_empty() && !has_gang_loop(&k.func.body, true),
        };
        if single {
            k.max_gangs = Some(1);
        }
        cx.module.kernels.push(k);
        let kid = KernelId(cx.module.kernels.len() as u32 - 1);
        let args: Vec<Capture> = part_caps.iter().filter(|c| c.has_param()).map(|c| (*c).clone()).collect();
        launches.push((kid, args, single));
    }

    // 4. Host code.
    let guard = if c.if_cond.is_some() || c.self_cond.is_some() {
        let mut e = match c.if_cond {
            Some(x) => data::truth(f, x, span),
            None => build::i32c(f, 1, span),
        };
        match c.self_cond {
            None => {}
            Some(None) => e = build::i32c(f, 0, span),
            Some(Some(s)) => {
                let t = data::truth(f, s, span);
                let n = f.add_expr(ExprKind::Unary(UnOp::LogNot, t), Type::I32, span);
                e = build::binary(f, BinOp::LogAnd, e, n, Type::I32, span);
            }
        }
        let (l, d) = build::temp(f, "__acc_dev", e, span);
        out.push(d);
        Some(l)
    } else {
        None
    };
    let av = data::async_val(f, &tuning.async_, span, &mut out);
    if let Some(w) = &tuning.wait {
        let a = av.expr(f, span);
        out.extend(build::wait_call(f, cx, w, a, span));
    }
    let whole_clauses: Vec<DataClause> =
        c.data.iter().map(|cl| DataClause { vars: cl.vars.iter().filter(|v| !is_member_section(f, v)).cloned().collect(), ..cl.clone() }).collect();
    let member_clauses: Vec<DataClause> =
        c.data.iter().map(|cl| DataClause { vars: cl.vars.iter().filter(|v| is_member_section(f, v)).cloned().collect(), ..cl.clone() }).collect();
    let mut ops = data::prepare_clauses(cx, f, &whole_clauses, FLAG_STRUCTURED, &mut out);
    ops.extend(implicit_ops(cx, f, &caps, &mut out));
    ops.extend(copy_ops);
    ops.extend(member_ops(cx, f, &member_clauses, &mut out));
    let enters = data::enter_stmts(f, cx, &ops, av);
    out.extend(data::guarded(f, guard, enters, span));
    // `num_gangs(a, b, c)`: each value evaluated once (the total and the
    // grid's extents both use them).
    let gang_values: Vec<LocalId> = if tuning.num_gangs.len() > 1 {
        tuning
            .num_gangs
            .iter()
            .map(|e| {
                let v = build::cast(f, *e, Type::I64, span);
                let (l, d) = build::temp(f, "__acc_gangs", v, span);
                out.push(d);
                l
            })
            .collect()
    } else {
        vec![]
    };
    for (kid, caps_of_launch, single) in launches {
        let mut args: Vec<ExprId> = vec![];
        for cap in &caps_of_launch {
            args.push(host_arg(cx, f, cap, span));
            if cap.mode == Mode::FirstprivateAggregate {
                // The snapshot's byte count follows it.
                args.push(i64c(f, cx.size_of(&cap.ty) as i64, span));
            }
        }
        args.extend(crate::private::host_args(f, &copies));
        let (num_gangs, num_workers, vector_length) = if single {
            let (g, w, v) = (i64c(f, 1, span), i64c(f, 1, span), if c.kind == ComputeKind::Serial { Some(i64c(f, 1, span)) } else { None });
            (Some(g), if c.kind == ComputeKind::Serial { Some(w) } else { None }, v)
        } else {
            let mut g = None;
            for (i, e) in tuning.num_gangs.iter().enumerate() {
                let e = match gang_values.get(i) {
                    Some(l) => load_local(f, *l, span),
                    None => build::cast(f, *e, Type::I64, span),
                };
                g = Some(match g {
                    None => e,
                    Some(prev) => build::binary(f, BinOp::Mul, prev, e, Type::I64, span),
                });
            }
            let w = tuning.num_workers.map(|e| build::cast(f, e, Type::I64, span));
            let v = tuning.vector_length.map(|e| build::cast(f, e, Type::I64, span));
            (g, w, v)
        };
        // The extents of the grid's dimensions below its last: the given
        // values, 1 for dimensions `num_gangs` leaves out.
        let dims = cx.module.kernels[kid.index()].gang_dims as usize;
        let gang_grid: Vec<ExprId> = if single {
            vec![]
        } else {
            (0..dims.saturating_sub(1))
                .map(|d| match gang_values.get(d) {
                    Some(l) => load_local(f, *l, span),
                    None => i64c(f, 1, span),
                })
                .collect()
        };
        let async_queue = av.launch_queue(f, span);
        let local_cond = guard.map(|g| {
            let v = load_local(f, g, span);
            let z = build::i32c(f, 0, span);
            build::cmp(f, BinOp::Eq, v, z, span)
        });
        let loc = Some(build::loc(f, cx, span));
        out.push(Stmt {
            kind: StmtKind::Launch(Box::new(Launch {
                kernel: kid,
                args,
                num_gangs,
                gang_grid,
                num_workers,
                vector_length,
                async_queue,
                wait: None,
                local_cond,
                loc,
            })),
            span,
        });
    }
    let exits = data::exit_stmts(f, cx, &ops, av);
    out.extend(data::guarded(f, guard, exits, span));
    out
}

/// The data ops of clauses on members of structs (`sp->total`,
/// `s.peak[0:4]`): members of one struct object named with the same clause
/// kind become ONE device copy spanning them (from the first member's first
/// byte to the last one's end), as GCC maps struct members: a kernel reaches
/// every member through the struct's one pointer, which the launcher
/// translates through a single present entry. (The implied `copy` of a
/// combined construct's `reduction(+:sp->total) reduction(max:sp->peak[0:4])`
/// made two copies, and `sp->peak` read past the first on discrete devices.)
fn member_ops(cx: &mut Cx, f: &mut Function, clauses: &[DataClause], out: &mut Vec<Stmt>) -> Vec<ClauseOp> {
    let mut pairs: Vec<(Option<ExprId>, ClauseOp)> = vec![];
    for c in clauses {
        for v in &c.vars {
            let one = DataClause { vars: vec![v.clone()], ..c.clone() };
            let object = if v.deep { None } else { struct_object(f, v.base) };
            pairs.extend(data::prepare_clauses(cx, f, &[one], FLAG_STRUCTURED, out).into_iter().map(|op| (object, op)));
        }
    }
    let mut ops: Vec<ClauseOp> = vec![];
    let mut merged = vec![false; pairs.len()];
    for i in 0..pairs.len() {
        if merged[i] {
            continue;
        }
        let (obj, op) = &pairs[i];
        let group: Vec<usize> = match obj {
            Some(o) if op.attach.is_none() && op.deep.is_none() => (i..pairs.len())
                .filter(|&j| {
                    let (oj, pj) = &pairs[j];
                    !merged[j]
                        && pj.attach.is_none()
                        && pj.deep.is_none()
                        && pj.kind == op.kind
                        && pj.flags == op.flags
                        && oj.is_some_and(|x| accjit_ir::walk::same_expr(f, x, *o))
                })
                .collect(),
            _ => vec![i],
        };
        if group.len() == 1 {
            ops.push(op.clone());
            continue;
        }
        let sp = op.span;
        // lo = min(addr), hi = max(addr + bytes), as i64.
        let addr_of = |f: &mut Function, j: usize| {
            let a = load_local(f, pairs[j].1.addr, sp);
            build::cast(f, a, Type::I64, sp)
        };
        let end_of = |f: &mut Function, j: usize| {
            let a = addr_of(f, j);
            let b = load_local(f, pairs[j].1.bytes, sp);
            build::binary(f, BinOp::Add, a, b, Type::I64, sp)
        };
        let mut lo = addr_of(f, group[0]);
        let mut hi = end_of(f, group[0]);
        for &j in &group[1..] {
            let a = addr_of(f, j);
            let c = build::binary(f, BinOp::Lt, a, lo, Type::I32, sp);
            let a2 = addr_of(f, j);
            lo = f.add_expr(ExprKind::Cond(c, a2, lo), Type::I64, sp);
            let e = end_of(f, j);
            let c = build::binary(f, BinOp::Gt, e, hi, Type::I32, sp);
            let e2 = end_of(f, j);
            hi = f.add_expr(ExprKind::Cond(c, e2, hi), Type::I64, sp);
        }
        let (lo_l, d1) = build::temp(f, "__acc_lo", lo, sp);
        out.push(d1);
        let lo_v = load_local(f, lo_l, sp);
        let bytes = build::binary(f, BinOp::Sub, hi, lo_v, Type::I64, sp);
        let (bytes_l, d2) = build::temp(f, "__acc_bytes", bytes, sp);
        out.push(d2);
        let lo_v = load_local(f, lo_l, sp);
        let lo_p = build::cast(f, lo_v, void_ptr(), sp);
        let (addr_l, d3) = build::temp(f, "__acc_addr", lo_p, sp);
        out.push(d3);
        let name = group.iter().map(|&j| pairs[j].1.name.as_str()).collect::<Vec<_>>().join(", ");
        for &j in &group {
            merged[j] = true;
        }
        ops.push(ClauseOp { name, addr: addr_l, bytes: bytes_l, ..op.clone() });
    }
    ops
}

/// The struct object a member clause variable lies in (`*sp` for
/// `sp->total` and `sp->peak[0:4]`, `s` for `s.a`), if it is one.
fn struct_object(f: &Function, base: ExprId) -> Option<ExprId> {
    match &f.expr(base).kind {
        ExprKind::Member(x, _) => Some(*x),
        _ => None,
    }
}

fn is_member_section(f: &Function, v: &VarRef) -> bool {
    v.deep || (v.base != v.root && VarKey::of_place(f, v.base).is_none())
}

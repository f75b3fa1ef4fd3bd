//! `!$acc` directives → the `accjit_ir::acc` structures the C front end
//! builds for the equivalent C: compute constructs (combined ones split
//! between construct and loop as §2.11 says: reductions on the loop with an
//! implied `copy`), loops on DO loops, data/host_data constructs,
//! executable directives, `atomic` in its Fortran forms, `declare` in
//! modules (on the globals) and procedures, `routine`. Variables in
//! clauses become `VarRef`s as C's on pointer sections: an array is the
//! section `base[lo:len]` over its contiguous column-major hull (the whole
//! array unless sectioned), a scalar the variable itself. Arrays a compute
//! construct uses without a clause get an implicit `copy` (`copyin` when
//! the region never writes them) of the whole array, as C's fixed arrays do.

use super::byref::data_clause_names;
use super::cx::{ArrVar, Cx, Loc, Region, Sym, R};
use super::types::FType;
use crate::ast::{self, AccClauseKind as C, AccKind, AccRedOp, ArgValue};
use accjit_ir::{
    acc::*, build, BinOp, Block, ComputeKind, DataClause, DataClauseKind, DeviceTyped, ExprId, ExprKind, Level, RedOp, Reduction, RoutineInfo, Section, Span,
    StmtKind, Type, VarRef,
};

/// The clauses of one directive, gathered.
#[derive(Default)]
struct Clauses {
    compute: DeviceTyped<ComputeTuning>,
    loop_: DeviceTyped<LoopTuning>,
    /// The current device_type group (0: default).
    group: usize,
    if_cond: Option<ExprId>,
    self_cond: Option<Option<ExprId>>,
    default: Option<DefaultKind>,
    data: Vec<DataClause>,
    private: Vec<VarRef>,
    firstprivate: Vec<VarRef>,
    reductions: Vec<Reduction>,
    /// Reduction variables as written (combined constructs copy them).
    reduction_exprs: Vec<(ast::Expr, Span)>,
    async_: AsyncClause,
    wait: Option<WaitArgs>,
    finalize: bool,
    if_present: bool,
    device_num: Option<ExprId>,
    default_async: Option<ExprId>,
    device_types: Vec<String>,
    bind: Option<String>,
    nohost: bool,
    level: Option<Level>,
    gang_dim: u8,
}

impl Clauses {
    fn ctune(&mut self) -> &mut ComputeTuning {
        if self.group == 0 {
            &mut self.compute.default
        } else {
            &mut self.compute.per_type[self.group - 1].1
        }
    }
    fn ltune(&mut self) -> &mut LoopTuning {
        if self.group == 0 {
            &mut self.loop_.default
        } else {
            &mut self.loop_.per_type[self.group - 1].1
        }
    }
}

fn red_op(op: AccRedOp) -> Option<RedOp> {
    Some(match op {
        AccRedOp::Add => RedOp::Add,
        AccRedOp::Mul => RedOp::Mul,
        AccRedOp::Max => RedOp::Max,
        AccRedOp::Min => RedOp::Min,
        AccRedOp::Iand => RedOp::BitAnd,
        AccRedOp::Ior => RedOp::BitOr,
        AccRedOp::Ieor => RedOp::BitXor,
        AccRedOp::And => RedOp::LogAnd,
        AccRedOp::Or => RedOp::LogOr,
        AccRedOp::Neqv => RedOp::BitXor,
        // On 0/1 values a eqv b = a xor b xor 1: a chain of n eqv's from x0
        // is x0 xor (xor of the values) xor (n mod 2), which is what private
        // copies starting at .false. and combined with xor compute, whatever
        // the split.
        AccRedOp::Eqv => RedOp::BitXor,
    })
}

impl Cx<'_> {
    fn clauses(&mut self, d: &ast::AccDirective) -> R<Clauses> {
        let mut c = Clauses::default();
        let serial = matches!(d.kind, AccKind::Serial | AccKind::SerialLoop);
        // Per device_type group: the level clauses seen (seq excludes the others).
        let mut levels: Vec<(&'static str, Span)> = vec![];
        for cl in &d.clauses {
            let sp = cl.span;
            let level = match &cl.kind {
                C::Gang { .. } => Some("gang"),
                C::Worker(_) => Some("worker"),
                C::Vector(_) => Some("vector"),
                C::Seq => Some("seq"),
                C::DeviceType(_) => {
                    levels.clear();
                    None
                }
                _ => None,
            };
            if let Some(l) = level {
                if let Some((other, _)) = levels.iter().find(|(o, _)| (*o == "seq") != (l == "seq")) {
                    return Err(self.err(sp, format!("`{l}` and `{other}` cannot both appear on a loop")));
                }
                levels.push((l, sp));
            }
            if serial && matches!(cl.kind, C::NumGangs(_) | C::NumWorkers(_) | C::VectorLength(_)) {
                let what = match cl.kind {
                    C::NumGangs(_) => "num_gangs",
                    C::NumWorkers(_) => "num_workers",
                    _ => "vector_length",
                };
                return Err(self.err(sp, format!("`{what}` is not allowed on a serial construct")));
            }
            match &cl.kind {
                C::DeviceType(names) => {
                    c.compute.per_type.push((names.clone(), ComputeTuning::default()));
                    c.loop_.per_type.push((names.clone(), LoopTuning::default()));
                    c.group = c.compute.per_type.len();
                    if matches!(d.kind, AccKind::Init | AccKind::Shutdown | AccKind::Set) {
                        c.device_types.extend(names.iter().cloned());
                    }
                }
                C::Data { kind, readonly, zero, vars } => {
                    let mut refs = vec![];
                    for v in vars {
                        if matches!(kind, DataClauseKind::Attach | DataClauseKind::Detach) {
                            refs.push(self.pointer_ref(v)?);
                        } else {
                            refs.push(self.var_ref(v)?);
                        }
                    }
                    c.data.push(DataClause { kind: *kind, readonly: *readonly, zero: *zero, vars: refs, span: sp });
                }
                C::Private(vars) => {
                    for v in vars {
                        let r = self.var_ref(v)?;
                        c.private.push(r);
                    }
                }
                C::FirstPrivate(vars) => {
                    for v in vars {
                        let r = self.var_ref(v)?;
                        c.firstprivate.push(r);
                    }
                }
                C::Reduction { op, vars } => {
                    let Some(rop) = red_op(*op) else {
                        return Err(self
                            .err(sp, "reduction(.eqv.:...) is not supported by accjit")
                            .with_hint("use .neqv. on the negated values, or .and./.or."));
                    };
                    let mut refs = vec![];
                    for v in vars {
                        refs.push(self.var_ref(v)?);
                        c.reduction_exprs.push((v.clone(), sp));
                    }
                    c.reductions.push(Reduction { op: rop, vars: refs, span: sp });
                }
                C::If(e) => c.if_cond = Some(self.cond(e)?),
                C::SelfCond(e) => {
                    c.self_cond = Some(match e {
                        Some(e) => Some(self.cond(e)?),
                        None => None,
                    })
                }
                C::Default(k) => c.default = Some(*k),
                C::Async(e) => {
                    let v = match e {
                        Some(e) => Some(self.int_i64(e)?),
                        None => None,
                    };
                    if c.group == 0 {
                        c.async_ = Some(v);
                    }
                    c.ctune().async_ = Some(v);
                }
                C::Wait(w) => {
                    let args = match w {
                        Some(w) => self.wait_args(w)?,
                        None => WaitArgs::default(),
                    };
                    if c.group == 0 {
                        c.wait = Some(args.clone());
                    }
                    c.ctune().wait = Some(args);
                }
                C::NumGangs(v) => {
                    let mut es = vec![];
                    for e in v {
                        es.push(self.int_i64(e)?);
                    }
                    c.ctune().num_gangs = es;
                }
                C::NumWorkers(e) => {
                    let v = self.int_i64(e)?;
                    c.ctune().num_workers = Some(v);
                }
                C::VectorLength(e) => {
                    let v = self.int_i64(e)?;
                    c.ctune().vector_length = Some(v);
                }
                C::Gang { num, static_, dim } => {
                    let num = match num {
                        Some(e) => Some(self.int_i64(e)?),
                        None => None,
                    };
                    let static_ = match static_ {
                        Some(Some(e)) => Some(Some(self.int_i64(e)?)),
                        Some(None) => Some(None),
                        None => None,
                    };
                    let dim = match dim {
                        Some(e) => Some(self.fold(e).and_then(|v| v.0.as_int()).ok_or_else(|| self.err(e.span, "gang(dim:) needs a constant"))? as u32),
                        None => None,
                    };
                    if let Some(d) = dim {
                        c.gang_dim = d as u8;
                    }
                    c.ltune().gang = Some(GangArgs { num, static_, dim, span: sp });
                    c.level = Some(Level::Gang);
                }
                C::Worker(e) => {
                    let v = match e {
                        Some(e) => Some(self.int_i64(e)?),
                        None => None,
                    };
                    c.ltune().worker = Some(v);
                    if c.level.is_none() {
                        c.level = Some(Level::Worker);
                    }
                }
                C::Vector(e) => {
                    let v = match e {
                        Some(e) => Some(self.int_i64(e)?),
                        None => None,
                    };
                    c.ltune().vector = Some(v);
                    if c.level.is_none() {
                        c.level = Some(Level::Vector);
                    }
                }
                C::Seq => {
                    c.ltune().seq = true;
                    if c.level.is_none() {
                        c.level = Some(Level::Seq);
                    }
                }
                C::Auto => c.ltune().auto = true,
                C::Independent => c.ltune().independent = true,
                C::Collapse { count, force } => {
                    let n = self
                        .fold(count)
                        .and_then(|v| v.0.as_int())
                        .filter(|n| *n >= 1)
                        .ok_or_else(|| self.err(count.span, "collapse needs a positive constant"))?;
                    c.ltune().collapse = Some((n as u32, *force));
                }
                C::Tile(v) => {
                    let mut t = vec![];
                    for e in v {
                        t.push(match e {
                            Some(e) => Some(self.int_i64(e)?),
                            None => None,
                        });
                    }
                    c.ltune().tile = t;
                }
                C::Finalize => c.finalize = true,
                C::IfPresent => c.if_present = true,
                C::DeviceNum(e) => c.device_num = Some(self.int_i64(e)?),
                C::DefaultAsync(e) => c.default_async = Some(self.int_i64(e)?),
                C::Bind(n) => c.bind = Some(n.clone()),
                C::Nohost => c.nohost = true,
            }
        }
        Ok(c)
    }

    fn wait_args(&mut self, w: &ast::AccWaitArgs) -> R<WaitArgs> {
        let devnum = match &w.devnum {
            Some(e) => Some(self.int_i64(e)?),
            None => None,
        };
        let mut queues = vec![];
        for q in &w.queues {
            queues.push(self.int_i64(q)?);
        }
        Ok(WaitArgs { devnum, queues })
    }

    /// A variable, element or section named in a clause.
    pub fn var_ref(&mut self, e: &ast::Expr) -> R<VarRef> {
        let sp = e.span;
        let text = clause_text(e);
        let saved = self.elem.take();
        let r = (|| match &e.kind {
            ast::ExprKind::Name(n) => match self.lookup(&n.text).cloned() {
                Some(Sym::Scalar(v)) => {
                    let root = match v.loc {
                        Loc::Local(_) | Loc::Global(_) => self.place(v.loc, sp),
                        // A common-block variable: captured through its block.
                        Loc::Common(i) => self.common_root(i, sp),
                        // Host-associated, a pointer scalar, or a common variable
                        // a compute construct shares (byref.rs): its pointer.
                        Loc::Deref(p) => build::local(&mut self.f, p, sp),
                        _ => return Err(self.err(sp, format!("`{}` cannot be named in a clause here", n.text))),
                    };
                    let root_loc = v.loc;
                    let base = self.place(root_loc, sp);
                    let p = self.place(root_loc, sp);
                    let addr = build::addr_of(&mut self.f, p, sp);
                    let bytes = self.i64c(v.ty.ir_size() as i64, sp);
                    Ok(VarRef { text: text.clone(), root, base, addr, bytes, sections: vec![], elem_ty: v.ty.ir(), deep: false, span: sp })
                }
                Some(Sym::Array(a)) => {
                    if a.assumed_size {
                        return Err(self.err(sp, format!("`{}` is assumed-size: name a section with an upper bound", n.text)));
                    }
                    let (lo, len) = if a.pointer || a.stride.iter().any(|s| !matches!(s, Loc::Const(_))) {
                        // The hull of a pointer or an assumed-shape dummy (it may
                        // be a strided section: its element count is not its span).
                        let v = self.whole_view(&a, sp);
                        let mut span_len = self.i64c(1, sp);
                        for (x, s) in v.exts.iter().zip(&v.strides) {
                            let x = self.clone_expr(*x);
                            let one = self.i64c(1, sp);
                            let xm = self.bin(BinOp::Sub, x, one, Type::I64, sp);
                            let s = self.clone_expr(*s);
                            let t = self.bin(BinOp::Mul, xm, s, Type::I64, sp);
                            span_len = self.bin(BinOp::Add, span_len, t, Type::I64, sp);
                        }
                        (self.i64c(0, sp), self.settle(span_len, sp))
                    } else {
                        (self.i64c(0, sp), self.arr_size(&a, sp))
                    };
                    self.section_ref(&a, text.clone(), lo, len, sp)
                }
                Some(_) => Err(self.err(sp, format!("`{}` is not a variable", n.text))),
                None => {
                    // An implicitly typed scalar first named here.
                    let s = self.lookup_or_implicit(&n.text, sp)?;
                    let _ = s;
                    self.var_ref(e)
                }
            },
            ast::ExprKind::Component { .. } => {
                let root = self.root_place(e)?;
                if let Some(a) = self.comp_array(e)? {
                    let lo = self.i64c(0, sp);
                    let len = self.arr_size(&a, sp);
                    return self.section_ref_at(&a, root, text.clone(), lo, len, sp);
                }
                let (place, ty) = self.place_of(e)?;
                let p2 = self.clone_expr(place);
                let addr = build::addr_of(&mut self.f, p2, sp);
                let bytes = self.i64c(ty.ir_size() as i64, sp);
                Ok(VarRef { text: text.clone(), root, base: place, addr, bytes, sections: vec![], elem_ty: ty.ir(), deep: false, span: sp })
            }
            ast::ExprKind::Apply { base, args } if matches!(base.kind, ast::ExprKind::Component { .. }) => {
                let root = self.root_place(e)?;
                let a = self.array_of(base)?;
                if args.iter().any(|a| matches!(a.value, ArgValue::Range { .. })) {
                    let v = self.view_of(e)?.unwrap();
                    let (first, end) = v.hull.unwrap();
                    let first = self.settle(first, sp);
                    let f2 = self.clone_expr(first);
                    let len = self.bin(BinOp::Sub, end, f2, Type::I64, sp);
                    let len = self.settle(len, sp);
                    return self.section_ref_at(&a, root, text.clone(), first, len, sp);
                }
                let (place, ty) = self.place_of(e)?;
                let p2 = self.clone_expr(place);
                let addr = build::addr_of(&mut self.f, p2, sp);
                let bytes = self.i64c(ty.ir_size() as i64, sp);
                Ok(VarRef { text: text.clone(), root, base: place, addr, bytes, sections: vec![], elem_ty: ty.ir(), deep: false, span: sp })
            }
            ast::ExprKind::Apply { base, args } => {
                let ast::ExprKind::Name(n) = &base.kind else { return Err(self.err(sp, "a clause names variables, elements and sections")) };
                let Some(Sym::Array(a)) = self.lookup(&n.text).cloned() else {
                    return Err(self.err(sp, format!("`{}` is not an array", n.text)));
                };
                if args.iter().any(|a| matches!(a.value, ArgValue::Range { .. })) {
                    let v = self.view_of(e)?.unwrap();
                    let (first, end) = v.hull.unwrap();
                    let first = self.settle(first, sp);
                    let f2 = self.clone_expr(first);
                    let len = self.bin(BinOp::Sub, end, f2, Type::I64, sp);
                    let len = self.settle(len, sp);
                    return self.section_ref(&a, text.clone(), first, len, sp);
                }
                // One element.
                let (place, ty) = self.place_of(e)?;
                let root = self.array_root(&a, sp)?;
                let p2 = self.clone_expr(place);
                let addr = build::addr_of(&mut self.f, p2, sp);
                let bytes = self.i64c(ty.ir_size() as i64, sp);
                Ok(VarRef { text: text.clone(), root, base: place, addr, bytes, sections: vec![], elem_ty: ty.ir(), deep: false, span: sp })
            }
            _ => Err(self.err(sp, "a clause names variables, elements and sections")),
        })();
        self.elem = saved;
        r
    }

    /// An `attach`/`detach` item: the address of a pointer or allocatable
    /// array's base pointer (`o%p`, `p`).
    fn pointer_ref(&mut self, e: &ast::Expr) -> R<VarRef> {
        let sp = e.span;
        let a = self.array_of(e).map_err(|_| self.err(sp, "attach and detach name pointer or allocatable arrays"))?;
        let (Loc::Local(_) | Loc::Global(_) | Loc::Place(_)) = a.base else {
            return Err(self.err(sp, "attach and detach name pointer or allocatable arrays"));
        };
        let root = self.root_place(e)?;
        let base = self.place(a.base, sp);
        let p2 = self.place(a.base, sp);
        let addr = build::addr_of(&mut self.f, p2, sp);
        let bytes = self.i64c(8, sp);
        Ok(VarRef { text: expr_text(e), root, base, addr, bytes, sections: vec![], elem_ty: Type::ptr(a.ty.ir()), deep: false, span: sp })
    }

    /// The place capturing an array: its base pointer variable, or the
    /// fixed array itself.
    fn array_root(&mut self, a: &ArrVar, sp: Span) -> R<ExprId> {
        match a.base {
            Loc::Local(_) | Loc::Global(_) => Ok(self.place(a.base, sp)),
            Loc::LocalArr(l) => Ok(build::local(&mut self.f, l, sp)),
            Loc::GlobalArr(g) => {
                let ty = self.sh.m.globals[g.index()].ty.clone();
                Ok(self.mk(ExprKind::Global(g), ty, sp))
            }
            Loc::CommonArr(i) => Ok(self.common_root(i, sp)),
            _ => Err(self.err(sp, format!("`{}` (a host-associated array) cannot be named in a clause here", a.name))),
        }
    }

    /// The place of the variable at the root of a designator (`s` of `s%a(i)`).
    fn root_place(&mut self, e: &ast::Expr) -> R<ExprId> {
        let sp = e.span;
        let Some(name) = super::decl::root_name(e) else { return Err(self.err(sp, "a clause names variables")) };
        match self.lookup(&name).cloned() {
            Some(Sym::Scalar(v)) if matches!(v.loc, Loc::Local(_) | Loc::Global(_)) => Ok(self.place(v.loc, sp)),
            Some(Sym::Array(a)) => self.array_root(&a, sp),
            _ => Err(self.err(sp, format!("`{name}` cannot be named in a clause here"))),
        }
    }

    /// The section `base[lo:len]` of an array component, captured through `root`.
    fn section_ref_at(&mut self, a: &ArrVar, root: ExprId, text: String, lo: ExprId, len: ExprId, sp: Span) -> R<VarRef> {
        let base = match a.base {
            Loc::Place(p) | Loc::ArrAt(p) => self.clone_expr(p),
            Loc::CommonArr(i) => self.common_place(i, sp),
            _ => self.array_root(a, sp)?,
        };
        let b = self.get(a.base, sp);
        let l2 = self.clone_expr(lo);
        let bty = self.ty(b);
        let addr = self.bin(BinOp::Add, b, l2, bty, sp);
        let n2 = self.clone_expr(len);
        let esz = self.i64c(a.ty.ir_size() as i64, sp);
        let bytes = self.bin(BinOp::Mul, n2, esz, Type::I64, sp);
        Ok(VarRef { text, root, base, addr, bytes, sections: vec![Section { lower: Some(lo), length: Some(len) }], elem_ty: a.ty.ir(), deep: false, span: sp })
    }

    /// The global of a COMMON variable's block (what a clause on it captures
    /// outside compute constructs).
    fn common_root(&mut self, slot: usize, sp: Span) -> ExprId {
        let g = self.sh.common_slots[slot].global;
        let ty = self.sh.m.globals[g.index()].ty.clone();
        self.mk(ExprKind::Global(g), ty, sp)
    }

    /// `base[lo:len]` (elements from the array's first one).
    fn section_ref(&mut self, a: &ArrVar, text: String, lo: ExprId, len: ExprId, sp: Span) -> R<VarRef> {
        let root = self.array_root(a, sp)?;
        let base = self.array_root(a, sp)?;
        let b = self.get(a.base, sp);
        let l2 = self.clone_expr(lo);
        let bty = self.ty(b);
        let addr = self.bin(BinOp::Add, b, l2, bty, sp);
        let n2 = self.clone_expr(len);
        let esz = self.i64c(a.ty.ir_size() as i64, sp);
        let bytes = self.bin(BinOp::Mul, n2, esz, Type::I64, sp);
        Ok(VarRef { text, root, base, addr, bytes, sections: vec![Section { lower: Some(lo), length: Some(len) }], elem_ty: a.ty.ir(), deep: false, span: sp })
    }

    /// A directive in the execution part.
    pub fn acc_stmt(&mut self, d: &ast::AccDirective, body: &[ast::Stmt], sp: Span) -> R<()> {
        match &d.kind {
            AccKind::Parallel | AccKind::Kernels | AccKind::Serial => self.compute(d, body, false),
            AccKind::ParallelLoop | AccKind::KernelsLoop | AccKind::SerialLoop => self.compute(d, body, true),
            AccKind::Loop => {
                let c = self.clauses(d)?;
                let construct = self.region.map(|r| r.kind);
                if construct.is_none() && self.routine.is_none() {
                    return Err(self.err(d.span, "`!$acc loop` must be inside a compute construct or an acc routine"));
                }
                let ld = LoopDirective { tuning: c.loop_, private: c.private, reductions: c.reductions, construct, span: d.span };
                self.loop_with_do(d, body, ld)
            }
            AccKind::Data => {
                if self.region.is_some() {
                    return Err(self.err(d.span, "a data construct inside a compute construct"));
                }
                let c = self.clauses(d)?;
                let depth = self.data_names.len();
                self.data_names.extend(data_clause_names(d));
                let b = self.block(body);
                self.data_names.truncate(depth);
                let b = b?;
                let dc = DataConstruct { if_cond: c.if_cond, default: c.default, tuning: c.compute, data: c.data, body: b, span: d.span };
                self.emit(StmtKind::Data(Box::new(dc)), sp);
                Ok(())
            }
            AccKind::HostData => {
                let c = self.clauses(d)?;
                let use_device: Vec<VarRef> = c.data.into_iter().filter(|x| x.kind == DataClauseKind::UseDevice).flat_map(|x| x.vars).collect();
                let b = self.block(body)?;
                let hd = HostDataConstruct { if_cond: c.if_cond, if_present: c.if_present, use_device, body: b, span: d.span };
                self.emit(StmtKind::HostData(Box::new(hd)), sp);
                Ok(())
            }
            AccKind::EnterData
            | AccKind::ExitData
            | AccKind::Update
            | AccKind::Wait(_)
            | AccKind::Init
            | AccKind::Shutdown
            | AccKind::Set
            | AccKind::Declare => {
                let c = self.clauses(d)?;
                if matches!(d.kind, AccKind::Declare) {
                    self.data_names.extend(data_clause_names(d));
                }
                let kind = match &d.kind {
                    AccKind::EnterData => ExecKind::EnterData,
                    AccKind::ExitData => ExecKind::ExitData { finalize: c.finalize },
                    AccKind::Update => ExecKind::Update { if_present: c.if_present },
                    AccKind::Wait(w) => ExecKind::Wait(match w {
                        Some(w) => self.wait_args(w)?,
                        None => WaitArgs::default(),
                    }),
                    AccKind::Init => ExecKind::Init { device_types: c.device_types.clone(), device_num: c.device_num },
                    AccKind::Shutdown => ExecKind::Shutdown { device_types: c.device_types.clone(), device_num: c.device_num },
                    AccKind::Set => {
                        if c.device_types.is_empty() && c.default_async.is_none() && c.device_num.is_none() {
                            return Err(self.err(d.span, "a set directive needs default_async, device_num or device_type"));
                        }
                        ExecKind::Set { default_async: c.default_async, device_num: c.device_num, device_types: c.device_types.clone() }
                    }
                    _ => ExecKind::Declare,
                };
                if matches!(kind, ExecKind::EnterData | ExecKind::ExitData { .. } | ExecKind::Update { .. } | ExecKind::Declare) && c.data.is_empty() {
                    return Err(self.err(d.span, format!("`{}` needs at least one data clause", d.kind.name())));
                }
                let e = ExecDirective { kind, data: c.data, if_cond: c.if_cond, async_: c.async_, wait: c.wait, span: d.span };
                self.emit(StmtKind::Exec(Box::new(e)), sp);
                Ok(())
            }
            AccKind::Cache { readonly, vars } => {
                let mut refs = vec![];
                for v in vars {
                    refs.push(self.var_ref(v)?);
                }
                let data = vec![DataClause { kind: DataClauseKind::Present, readonly: *readonly, zero: false, vars: refs, span: d.span }];
                let e = ExecDirective { kind: ExecKind::Cache, data, if_cond: None, async_: None, wait: None, span: d.span };
                self.emit(StmtKind::Exec(Box::new(e)), sp);
                Ok(())
            }
            AccKind::Atomic(k) => self.atomic(*k, body, d.span),
            AccKind::Routine(_) => Err(self.err(d.span, "`!$acc routine` belongs in the specification part of the procedure")),
        }
    }

    fn compute(&mut self, d: &ast::AccDirective, body: &[ast::Stmt], combined: bool) -> R<()> {
        if self.region.is_some() {
            return Err(self.err(d.span, "a compute construct inside a compute construct"));
        }
        let kind = match d.kind {
            AccKind::Parallel | AccKind::ParallelLoop => ComputeKind::Parallel,
            AccKind::Kernels | AccKind::KernelsLoop => ComputeKind::Kernels,
            _ => ComputeKind::Serial,
        };
        let depth = self.scopes.len();
        let r = self.compute_in_scope(d, body, combined, kind);
        self.scopes.truncate(depth);
        let cc = r?;
        self.emit(StmtKind::Compute(Box::new(cc)), d.span);
        Ok(())
    }

    fn compute_in_scope(&mut self, d: &ast::AccDirective, body: &[ast::Stmt], combined: bool, kind: ComputeKind) -> R<ComputeConstruct> {
        let shared = self.localize_by_ref(d, body, kind)?;
        let c = self.clauses(d)?;
        self.region = Some(Region { kind });
        let r = (|| -> R<ComputeConstruct> {
            let mut cc = ComputeConstruct {
                kind,
                tuning: c.compute.clone(),
                if_cond: c.if_cond,
                self_cond: c.self_cond,
                default: c.default,
                data: c.data.clone(),
                private: vec![],
                firstprivate: c.firstprivate.clone(),
                reductions: vec![],
                combined,
                body: Block::default(),
                span: d.span,
            };
            if combined {
                for (v, rsp) in &c.reduction_exprs {
                    let text = expr_text(v);
                    let named = cc.data.iter().any(|dc| dc.vars.iter().any(|x| x.text == text));
                    if !named {
                        let r = self.var_ref(v)?;
                        cc.data.push(DataClause { kind: DataClauseKind::Copy, readonly: false, zero: false, vars: vec![r], span: *rsp });
                    }
                }
                let ld = LoopDirective {
                    tuning: c.loop_.clone(),
                    private: c.private.clone(),
                    reductions: c.reductions.clone(),
                    construct: Some(kind),
                    span: d.span,
                };
                cc.body = self.collect(|cx| cx.loop_with_do(d, body, ld))?;
            } else {
                cc.private = c.private.clone();
                cc.reductions = c.reductions.clone();
                cc.body = self.block(body)?;
            }
            self.implicit_clauses(&mut cc, body)?;
            self.implicit_shared_copies(&mut cc, &shared)?;
            Ok(cc)
        })();
        self.region = None;
        r
    }

    /// `copy` of the by-reference scalars the construct shares with the
    /// host that no data clause names (byref.rs).
    fn implicit_shared_copies(&mut self, cc: &mut ComputeConstruct, shared: &[String]) -> R<()> {
        let sp = cc.span;
        let mut vars = vec![];
        for n in shared {
            if cc.data.iter().flat_map(|d| d.vars.iter()).any(|v| root_text(&v.text) == *n) {
                continue;
            }
            let e = ast::Expr { kind: ast::ExprKind::Name(ast::Name { text: n.clone(), span: sp }), span: sp };
            vars.push(self.var_ref(&e)?);
        }
        if !vars.is_empty() {
            cc.data.push(DataClause { kind: DataClauseKind::Copy, readonly: false, zero: false, vars, span: sp });
        }
        Ok(())
    }

    /// The DO loop a loop directive applies to (with its nest for collapse).
    fn loop_with_do(&mut self, d: &ast::AccDirective, body: &[ast::Stmt], ld: LoopDirective) -> R<()> {
        let mut stmts = body.iter().filter(|s| !matches!(s.kind, ast::StmtKind::Continue) || s.label.is_some());
        let Some(s) = stmts.next() else {
            return Err(self.err(d.span, format!("`!$acc {}` must be followed by a do loop", d.kind.name())));
        };
        let ast::StmtKind::Do { name, control, body: dbody, .. } = &s.kind else {
            return Err(self.err(s.span, format!("`!$acc {}` must be followed by a do loop", d.kind.name())));
        };
        if matches!(control, ast::DoControl::While(_) | ast::DoControl::Forever) {
            return Err(self.err(s.span, "an acc loop must be a counted do loop (`do i = a, b`)"));
        }
        self.check_nest_depth(d, s)?;
        if let Some(l) = s.label {
            let id = self.label(l);
            self.emit(StmtKind::Label(id), s.span);
        }
        self.do_loop(name.as_ref().map(|n| n.text.clone()), control, dbody, Some(Box::new(ld)), s.span)?;
        for rest in stmts {
            self.stmt(rest)?;
        }
        Ok(())
    }

    /// `collapse(n)`/`tile(...)` over fewer loops than they associate: the
    /// error at the statement where the missing inner DO should start (as
    /// for C; at the last loop found when its body is empty). Whether a
    /// nest with intervening code is allowed is `lower`'s to judge.
    fn check_nest_depth(&mut self, d: &ast::AccDirective, outer: &ast::Stmt) -> R<()> {
        let mut depth = 1usize;
        let mut what = String::new();
        for cl in &d.clauses {
            match &cl.kind {
                C::Collapse { count, force } => {
                    if let Some(n) = self.fold(count).and_then(|v| v.0.as_int()).filter(|&n| n as usize > depth) {
                        depth = n as usize;
                        what = format!("collapse({}{n})", if *force { "force:" } else { "" });
                    }
                }
                C::Tile(v) if v.len() > depth => {
                    depth = v.len();
                    what = format!("tile with {} sizes", v.len());
                }
                _ => {}
            }
        }
        let mut level = outer;
        for found in 1..depth {
            let ast::StmtKind::Do { body, .. } = &level.kind else { return Ok(()) };
            let mut stmts = body.iter().filter(|s| !matches!(s.kind, ast::StmtKind::Continue) || s.label.is_some());
            let inner = body
                .iter()
                .find(|s| matches!(&s.kind, ast::StmtKind::Do { control, .. } if !matches!(control, ast::DoControl::While(_) | ast::DoControl::Forever)));
            match inner {
                Some(s) => level = s,
                None => {
                    let at = stmts.next().map_or(level.span, |s| s.span);
                    return Err(self.err(at, format!("{what} needs {depth} nested do loops; found {found}: the inner loop should start here")));
                }
            }
        }
        Ok(())
    }

    /// Implicit `copy`/`copyin` (or `present` under default(present)) of
    /// the arrays the region uses with no clause: array variables held
    /// through a pointer (dummies, allocatables, heap locals); fixed-size
    /// arrays are captured by `lower` like C arrays.
    fn implicit_clauses(&mut self, cc: &mut ComputeConstruct, body: &[ast::Stmt]) -> R<()> {
        if cc.default == Some(DefaultKind::None) {
            return Ok(());
        }
        let mut used = vec![];
        super::walk::names_used(body, &mut used);
        let written = written_names(body);
        let named: Vec<String> = cc
            .data
            .iter()
            .flat_map(|d| d.vars.iter())
            .chain(&cc.private)
            .chain(&cc.firstprivate)
            .chain(cc.reductions.iter().flat_map(|r| r.vars.iter()))
            .map(|v| root_text(&v.text))
            .collect();
        let sp = cc.span;
        let mut copy = vec![];
        let mut copyin = vec![];
        let mut present = vec![];
        for n in used {
            let Some(Sym::Array(a)) = self.lookup(&n).cloned() else { continue };
            if !matches!(a.base, Loc::Local(_) | Loc::Global(_)) || named.contains(&n) || a.assumed_size {
                continue;
            }
            let e = ast::Expr { kind: ast::ExprKind::Name(ast::Name { text: n.clone(), span: sp }), span: sp };
            let r = self.var_ref(&e)?;
            if cc.default == Some(DefaultKind::Present) {
                present.push(r);
            } else if written.contains(&n) {
                copy.push(r);
            } else {
                copyin.push(r);
            }
        }
        for (kind, vars) in [(DataClauseKind::Copy, copy), (DataClauseKind::CopyIn, copyin), (DataClauseKind::Present, present)] {
            if !vars.is_empty() {
                cc.data.push(DataClause { kind, readonly: false, zero: false, vars, span: sp });
            }
        }
        Ok(())
    }

    /// `!$acc atomic` and its statement(s).
    fn atomic(&mut self, k: ast::AtomicKind, body: &[ast::Stmt], sp: Span) -> R<()> {
        let assigns: Vec<(&ast::Expr, &ast::Expr, Span)> = body
            .iter()
            .filter_map(|s| match &s.kind {
                ast::StmtKind::Assign { lhs, rhs } => Some((lhs, rhs, s.span)),
                _ => None,
            })
            .collect();
        if assigns.len() != body.len() || assigns.is_empty() {
            return Err(self.err(sp, "`!$acc atomic` applies to assignment statements"));
        }
        let op = match k {
            ast::AtomicKind::Read => {
                let [(v, x, _)] = assigns[..] else { return Err(self.err(sp, "atomic read is one statement `v = x`")) };
                let (xp, _) = self.place_of(x)?;
                let (vp, _) = self.place_of(v)?;
                AtomicOp::Read { v: vp, x: xp }
            }
            ast::AtomicKind::Write => {
                let [(x, e, _)] = assigns[..] else { return Err(self.err(sp, "atomic write is one statement `x = expr`")) };
                let (xp, t) = self.place_of(x)?;
                let v = self.value_as(e, &t)?;
                AtomicOp::Write { x: xp, value: v }
            }
            ast::AtomicKind::Update => {
                let [(x, e, ssp)] = assigns[..] else { return Err(self.err(sp, "atomic update is one statement `x = x op expr`")) };
                let (op, value, reversed) = self.update_form(x, e, ssp)?;
                let (xp, _) = self.place_of(x)?;
                AtomicOp::Update { x: xp, op, value, reversed }
            }
            ast::AtomicKind::Capture => {
                let [(a, b, s1), (c, d, s2)] = assigns[..] else {
                    return Err(self.err(sp, "atomic capture is two statements: `v = x` and `x = x op expr` (either order)"));
                };
                // v = x first (capture the old value), or the update first.
                let (v, x, upd, capture_old) = if super::walk::same_expr(b, c) && !super::walk::same_expr(a, c) {
                    (a, c, (d, s2), true)
                } else if super::walk::same_expr(a, d) {
                    (c, a, (b, s1), false)
                } else {
                    return Err(self.err(sp, "atomic capture is `v = x` with `x = x op expr` on the same x"));
                };
                let (xp, t) = self.place_of(x)?;
                let (vp, _) = self.place_of(v)?;
                // The swap form `v = x; x = expr` has no operator.
                match self.update_form(x, upd.0, upd.1) {
                    Ok((op, value, reversed)) => AtomicOp::Capture { v: vp, x: xp, op: Some(op), value, reversed, capture_old },
                    Err(_) if capture_old => {
                        let value = self.value_as(upd.0, &t)?;
                        AtomicOp::Capture { v: vp, x: xp, op: None, value, reversed: false, capture_old }
                    }
                    Err(e) => return Err(e),
                }
            }
        };
        self.emit(StmtKind::Atomic(Box::new(op)), sp);
        Ok(())
    }

    /// `x = x op e` / `x = e op x` / `x = max(x, e)` / `x = iand(x, e)`.
    fn update_form(&mut self, x: &ast::Expr, e: &ast::Expr, sp: Span) -> R<(AtomicBinOp, ExprId, bool)> {
        let xt = self.type_of_expr(x).ok_or_else(|| self.err(sp, "atomic: unknown type"))?;
        let e = strip_paren(e);
        match &e.kind {
            ast::ExprKind::Binary { op, lhs, rhs } => {
                let aop = match op {
                    ast::BinaryOp::Add => AtomicBinOp::Add,
                    ast::BinaryOp::Sub => AtomicBinOp::Sub,
                    ast::BinaryOp::Mul => AtomicBinOp::Mul,
                    ast::BinaryOp::Div => AtomicBinOp::Div,
                    ast::BinaryOp::And => AtomicBinOp::LogAnd,
                    ast::BinaryOp::Or => AtomicBinOp::LogOr,
                    ast::BinaryOp::Neqv | ast::BinaryOp::Eqv => AtomicBinOp::BitXor,
                    _ => return Err(self.err(sp, "atomic update: the operator must be +, -, *, /, .and., .or., .neqv., or max/min/iand/ior/ieor")),
                };
                let (other, reversed) = if super::walk::same_expr(lhs, x) {
                    (rhs, false)
                } else if super::walk::same_expr(rhs, x) {
                    (lhs, true)
                } else {
                    return Err(self.err(sp, "atomic update must be `x = x op expr` or `x = expr op x`"));
                };
                let mut v = self.value_as(other, &xt)?;
                if *op == ast::BinaryOp::Eqv {
                    // x eqv e = x xor (not e) on 0/1 values.
                    let c = self.cast(v, Type::I32, sp);
                    let n = self.mk(ExprKind::Unary(accjit_ir::UnOp::LogNot, c), Type::I32, sp);
                    v = self.cast(n, xt.ir(), sp);
                }
                Ok((aop, v, reversed))
            }
            ast::ExprKind::Apply { base, args } => {
                let ast::ExprKind::Name(n) = &base.kind else { return Err(self.err(sp, "atomic update form")) };
                let aop = match n.text.as_str() {
                    "max" => AtomicBinOp::Max,
                    "min" => AtomicBinOp::Min,
                    "iand" => AtomicBinOp::BitAnd,
                    "ior" => AtomicBinOp::BitOr,
                    "ieor" => AtomicBinOp::BitXor,
                    _ => return Err(self.err(sp, "atomic update: the intrinsic must be max, min, iand, ior or ieor")),
                };
                let vals: Vec<&ast::Expr> = args.iter().filter_map(|a| if let ArgValue::Expr(x) = &a.value { Some(x) } else { None }).collect();
                if vals.len() != 2 {
                    return Err(self.err(sp, "atomic update with an intrinsic takes x and one expression"));
                }
                let (other, reversed) = if super::walk::same_expr(vals[0], x) {
                    (vals[1], false)
                } else if super::walk::same_expr(vals[1], x) {
                    (vals[0], true)
                } else {
                    return Err(self.err(sp, "atomic update must use x as an argument"));
                };
                let v = self.value_as(other, &xt)?;
                Ok((aop, v, reversed))
            }
            _ => Err(self.err(sp, "atomic update must be `x = x op expr`")),
        }
    }

    /// `!$acc routine` and `!$acc declare` in a specification part.
    pub fn spec_directives(&mut self, decls: &[ast::Decl], unit: &str) -> R<()> {
        for d in decls {
            let ast::DeclKind::Acc(dir) = &d.kind else { continue };
            match &dir.kind {
                AccKind::Routine(name) => {
                    let c = self.clauses(dir)?;
                    let info = RoutineInfo {
                        level: c.level.unwrap_or(Level::Seq),
                        gang_dim: if c.level == Some(Level::Gang) { c.gang_dim.max(1) } else { 0 },
                        bind: c.bind.clone(),
                        nohost: c.nohost,
                        span: dir.span,
                    };
                    match name {
                        None => self.routine = Some(info),
                        Some(n) if n.text == unit => self.routine = Some(info),
                        Some(n) => {
                            let key = match self.lookup(&n.text) {
                                Some(Sym::Proc(k)) => Some(k.clone()),
                                _ => self.sh.procs.contains_key(&n.text).then(|| n.text.clone()),
                            };
                            match key.and_then(|k| self.sh.procs.get(&k).map(|p| p.func)) {
                                Some(f) => self.sh.m.functions[f.index()].routine = Some(info),
                                None => {
                                    return Err(
                                        self.err(n.span, format!("`!$acc routine({})`: no procedure `{}` is defined in the files compiled", n.text, n.text))
                                    )
                                }
                            }
                        }
                    }
                }
                AccKind::Declare => {
                    let c = self.clauses(dir)?;
                    self.data_names.extend(data_clause_names(dir));
                    if c.data.is_empty() {
                        return Err(self.err(dir.span, "`declare` needs at least one data clause"));
                    }
                    let e = ExecDirective { kind: ExecKind::Declare, data: c.data, if_cond: None, async_: None, wait: None, span: dir.span };
                    self.emit(StmtKind::Exec(Box::new(e)), dir.span);
                }
                k => return Err(self.err(dir.span, format!("`!$acc {}` cannot appear in a specification part", k.name()))),
            }
        }
        Ok(())
    }

    /// `!$acc declare` in a module: on the globals.
    pub fn module_declares(&mut self, decls: &[ast::Decl]) -> R<()> {
        for d in decls {
            let ast::DeclKind::Acc(dir) = &d.kind else { continue };
            match &dir.kind {
                AccKind::Declare => {
                    for cl in &dir.clauses {
                        let C::Data { kind, vars, .. } = &cl.kind else { continue };
                        if !matches!(kind, DataClauseKind::Create | DataClauseKind::CopyIn | DataClauseKind::DeviceResident | DataClauseKind::Link) {
                            return Err(self.err(cl.span, format!("clause `{}` is not allowed on a module's declare", kind.name())));
                        }
                        for v in vars {
                            let Some(name) = super::decl::root_name(v) else { return Err(self.err(v.span, "declare names module variables")) };
                            let g = match self.lookup(&name) {
                                Some(Sym::Scalar(s)) => match s.loc {
                                    Loc::Global(g) => g,
                                    _ => return Err(self.err(v.span, "declare names module variables")),
                                },
                                Some(Sym::Array(a)) => match a.base {
                                    Loc::GlobalArr(g) => g,
                                    _ => {
                                        return Err(self
                                            .err(v.span, format!("`{name}`: declare on a module allocatable array is not supported"))
                                            .with_hint("use `!$acc enter data create(...)` after allocating it"))
                                    }
                                },
                                _ => return Err(self.err(v.span, format!("`{name}` is not a module variable"))),
                            };
                            self.sh.m.globals[g.index()].declare = Some(DeclareKind { kind: *kind, range: None, span: cl.span });
                        }
                    }
                }
                AccKind::Routine(_) => {}
                k => return Err(self.err(dir.span, format!("`!$acc {}` cannot appear in a module's specification part", k.name()))),
            }
        }
        Ok(())
    }
}

fn strip_paren(e: &ast::Expr) -> &ast::Expr {
    match &e.kind {
        ast::ExprKind::Paren(x) => strip_paren(x),
        _ => e,
    }
}

/// Names assigned (or possibly written through a call) in a statement list.
pub(crate) fn written_names(stmts: &[ast::Stmt]) -> Vec<String> {
    let mut out = vec![];
    fn go(stmts: &[ast::Stmt], out: &mut Vec<String>) {
        for s in stmts {
            match &s.kind {
                ast::StmtKind::Assign { lhs, .. } => {
                    if let Some(n) = super::decl::root_name(lhs) {
                        out.push(n);
                    }
                }
                ast::StmtKind::Call { args, .. } => {
                    for a in args {
                        if let ArgValue::Expr(x) = &a.value {
                            if let Some(n) = super::decl::root_name(x) {
                                out.push(n);
                            }
                        }
                    }
                }
                ast::StmtKind::Read { items, .. } => {
                    for it in items {
                        if let ast::IoItem::Expr(x) = it {
                            if let Some(n) = super::decl::root_name(x) {
                                out.push(n);
                            }
                        }
                    }
                }
                ast::StmtKind::If { arms, else_body, .. } => {
                    for (_, b) in arms {
                        go(b, out);
                    }
                    if let Some(b) = else_body {
                        go(b, out);
                    }
                }
                ast::StmtKind::LogicalIf { stmt, .. } => go(std::slice::from_ref(stmt), out),
                ast::StmtKind::Do { body, control, .. } => {
                    if let ast::DoControl::Counted(lc) = control {
                        out.push(lc.var.text.clone());
                    }
                    go(body, out)
                }
                ast::StmtKind::Block { body, .. } | ast::StmtKind::Acc { body, .. } | ast::StmtKind::Forall { body, .. } => go(body, out),
                ast::StmtKind::SelectCase { cases, .. } => {
                    for c in cases {
                        go(&c.body, out);
                    }
                }
                ast::StmtKind::Where { arms } => {
                    for (_, b) in arms {
                        go(b, out);
                    }
                }
                _ => {}
            }
        }
    }
    go(stmts, &mut out);
    // Function references with array arguments may write them too.
    super::walk::each_stmt_expr(stmts, &mut |e| {
        if let ast::ExprKind::Apply { args, .. } = &e.kind {
            for a in args {
                if let ArgValue::Expr(ast::Expr { kind: ast::ExprKind::Name(n), .. }) = &a.value {
                    out.push(n.text.clone());
                }
            }
        }
        true
    });
    out
}

/// The variable name at the start of a clause item's text.
fn root_text(t: &str) -> String {
    t.split(['(', '%', '[']).next().unwrap_or("").trim().to_string()
}

/// The Fortran text of a clause item (for messages and profiling).
/// The name a clause variable goes to the runtime with: a section is
/// written `v[21:80]`, as C's, because the runtime reads the variable of a
/// section clause as the text before `[` (how a kernel's use of `v` finds
/// the section its clause made present on a discrete device); other items
/// keep their Fortran text.
fn clause_text(e: &ast::Expr) -> String {
    match &e.kind {
        ast::ExprKind::Apply { base, args } if args.iter().any(|a| matches!(a.value, ArgValue::Range { .. })) => {
            let t = expr_text(e);
            let b = expr_text(base);
            let inner = t.strip_prefix(b.as_str()).and_then(|r| r.strip_prefix('(')).and_then(|r| r.strip_suffix(')')).unwrap_or("");
            format!("{b}[{inner}]")
        }
        _ => expr_text(e),
    }
}

pub(crate) fn expr_text(e: &ast::Expr) -> String {
    match &e.kind {
        ast::ExprKind::Name(n) => n.text.clone(),
        ast::ExprKind::Int { value, .. } => value.to_string(),
        ast::ExprKind::Apply { base, args } => {
            let a: Vec<String> = args
                .iter()
                .map(|a| match &a.value {
                    ArgValue::Expr(x) => expr_text(x),
                    ArgValue::Range { lo, hi, stride } => {
                        let mut s = format!("{}:{}", lo.as_ref().map(expr_text).unwrap_or_default(), hi.as_ref().map(expr_text).unwrap_or_default());
                        if let Some(st) = stride {
                            s += &format!(":{}", expr_text(st));
                        }
                        s
                    }
                    ArgValue::Label(l) => format!("*{l}"),
                })
                .collect();
            format!("{}({})", expr_text(base), a.join(","))
        }
        ast::ExprKind::Binary { op, lhs, rhs } => {
            let o = match op {
                ast::BinaryOp::Add => "+",
                ast::BinaryOp::Sub => "-",
                ast::BinaryOp::Mul => "*",
                ast::BinaryOp::Div => "/",
                _ => "?",
            };
            format!("{}{o}{}", expr_text(lhs), expr_text(rhs))
        }
        ast::ExprKind::Paren(x) => format!("({})", expr_text(x)),
        ast::ExprKind::Component { base, name } => format!("{}%{}", expr_text(base), name.text),
        _ => "...".into(),
    }
}

#[allow(dead_code)]
fn unused(_: FType) {}

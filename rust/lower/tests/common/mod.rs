//! A small builder for hand-made IR modules in tests (over `accjit_ir::build`,
//! numbering spans): one function at a time,
//! with helpers for places, loads, constants, array subscripts, loops, clauses
//! and directives shaped like the C front end's output.
#![allow(dead_code)]

use accjit_ir::*;

pub struct B {
    pub m: Module,
    pub f: Function,
    pub pos: u32,
}

pub fn sp(lo: u32) -> Span {
    Span::new(0, lo, lo + 1)
}

impl B {
    pub fn new(name: &str, params: &[(&str, Type)], ret: Type) -> B {
        let sig = FuncSig { params: params.iter().map(|p| p.1.clone()).collect(), ret, variadic: false };
        let mut f = Function::new(name, sig, Linkage::Export, Span::new(0, 0, 1));
        for (n, t) in params {
            f.add_local(*n, t.clone(), Span::new(0, 0, 1));
        }
        B { m: Module::default(), f, pos: 10 }
    }
    pub fn span(&mut self) -> Span {
        self.pos += 2;
        Span::new(0, self.pos, self.pos + 1)
    }
    pub fn p(&self, i: u32) -> LocalId {
        LocalId(i)
    }
    pub fn local(&mut self, name: &str, ty: Type) -> LocalId {
        let s = self.span();
        self.f.add_local(name, ty, s)
    }
    pub fn e(&mut self, kind: ExprKind, ty: Type) -> ExprId {
        let s = self.span();
        self.f.add_expr(kind, ty, s)
    }
    pub fn place(&mut self, l: LocalId) -> ExprId {
        let s = self.span();
        build::local(&mut self.f, l, s)
    }
    pub fn gplace(&mut self, g: GlobalId) -> ExprId {
        let ty = self.m.globals[g.index()].ty.clone();
        self.e(ExprKind::Global(g), ty)
    }
    pub fn load(&mut self, l: LocalId) -> ExprId {
        let p = self.place(l);
        self.load_place(p)
    }
    pub fn load_place(&mut self, p: ExprId) -> ExprId {
        let s = self.span();
        build::load(&mut self.f, p, s)
    }
    pub fn int(&mut self, v: i64) -> ExprId {
        let s = self.span();
        build::i32c(&mut self.f, v, s)
    }
    pub fn i64(&mut self, v: i64) -> ExprId {
        let s = self.span();
        build::i64c(&mut self.f, v, s)
    }
    pub fn float(&mut self, v: f64, ty: Type) -> ExprId {
        self.e(ExprKind::Float(v), ty)
    }
    pub fn cast(&mut self, e: ExprId, ty: Type) -> ExprId {
        self.e(ExprKind::Cast(e), ty)
    }
    pub fn bin(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        let ty = match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::LogAnd | BinOp::LogOr => Type::I32,
            _ => self.f.expr(a).ty.clone(),
        };
        self.e(ExprKind::Binary(op, a, b), ty)
    }
    /// `ptr[idx]` as a place, for a pointer local.
    pub fn index(&mut self, ptr: LocalId, idx: ExprId) -> ExprId {
        let pv = self.load(ptr);
        self.index_ptr(pv, idx)
    }
    pub fn index_ptr(&mut self, pv: ExprId, idx: ExprId) -> ExprId {
        let pty = self.f.expr(pv).ty.clone();
        let elem = pty.pointee().cloned().unwrap_or(Type::Void);
        let idx = self.cast(idx, Type::I64);
        let a = self.e(ExprKind::Binary(BinOp::Add, pv, idx), pty);
        let s = self.span();
        let place = build::deref(&mut self.f, a, s);
        debug_assert_eq!(self.f.expr(place).ty, elem);
        place
    }
    /// `arr[idx]` for a local array (decay then subscript).
    pub fn index_arr(&mut self, arr: LocalId, idx: ExprId) -> ExprId {
        let elem = match &self.f.local(arr).ty {
            Type::Array(t, _) => (**t).clone(),
            _ => panic!("not an array"),
        };
        let p = self.place(arr);
        let d = self.e(ExprKind::AddrOf(p), Type::ptr(elem));
        self.index_ptr(d, idx)
    }
    pub fn assign(&mut self, place: ExprId, v: ExprId) -> ExprId {
        let s = self.span();
        build::assign(&mut self.f, place, v, s)
    }
    pub fn stmt(&mut self, e: ExprId) -> Stmt {
        let s = self.span();
        Stmt { kind: StmtKind::Expr(e), span: s }
    }
    pub fn assign_stmt(&mut self, place: ExprId, v: ExprId) -> Stmt {
        let a = self.assign(place, v);
        self.stmt(a)
    }
    pub fn sk(&mut self, kind: StmtKind) -> Stmt {
        let s = self.span();
        Stmt { kind, span: s }
    }
    pub fn decl(&mut self, l: LocalId, init: Option<ExprId>) -> Stmt {
        self.sk(StmtKind::Decl(l, init))
    }
    pub fn inc(&mut self, l: LocalId) -> ExprId {
        let p = self.place(l);
        let ty = self.f.local(l).ty.clone();
        self.e(ExprKind::IncDec { place: p, inc: true, prefix: false }, ty)
    }
    pub fn compound(&mut self, op: BinOp, place: ExprId, v: ExprId) -> ExprId {
        let ty = self.f.expr(place).ty.clone();
        self.e(ExprKind::CompoundAssign { op, place, value: v, op_ty: ty.clone() }, ty)
    }
    /// `for (int i = lb; i OP ub; i++) body` with `i` a new i32 local.
    pub fn for_decl(
        &mut self,
        name: &str,
        lb: ExprId,
        op: BinOp,
        ub: ExprId,
        body: impl FnOnce(&mut B, LocalId) -> Vec<Stmt>,
        acc: Option<LoopDirective>,
    ) -> Stmt {
        let i = self.local(name, Type::I32);
        let init = self.decl(i, Some(lb));
        let iv = self.load(i);
        let cond = self.bin(op, iv, ub);
        let step = self.inc(i);
        let body = body(self, i);
        self.sk(StmtKind::For { init: Block::new(vec![init]), cond: Some(cond), step: Some(step), body: Block::new(body), acc: acc.map(Box::new) })
    }
    /// A `for` with explicit init statement, cond and step.
    pub fn for_raw(&mut self, init: Vec<Stmt>, cond: Option<ExprId>, step: Option<ExprId>, body: Vec<Stmt>, acc: Option<LoopDirective>) -> Stmt {
        self.sk(StmtKind::For { init: Block::new(init), cond, step, body: Block::new(body), acc: acc.map(Box::new) })
    }
    /// `name[lo:len]` for pointer local `p` (element type from the pointer).
    pub fn section(&mut self, p: LocalId, lo: i64, len: ExprId) -> VarRef {
        let elem = self.f.local(p).ty.pointee().cloned().unwrap_or(Type::Void);
        let size = size_of(&elem, &self.m.structs) as i64;
        let root = self.place(p);
        let base = self.place(p);
        let lo_e = self.i64(lo);
        let pv = self.load(p);
        let addr = self.e(ExprKind::Binary(BinOp::Add, pv, lo_e), Type::ptr(elem.clone()));
        let len64 = self.cast(len, Type::I64);
        let sz = self.i64(size);
        let bytes = self.e(ExprKind::Binary(BinOp::Mul, len64, sz), Type::I64);
        let lower = self.i64(lo);
        let name = self.f.local(p).name.clone();
        let s = self.span();
        VarRef {
            text: format!("{}[{}:n]", name, lo),
            root,
            base,
            addr,
            bytes,
            sections: vec![Section { lower: Some(lower), length: Some(len64) }],
            elem_ty: elem,
            deep: false,
            span: s,
        }
    }
    /// A whole variable.
    pub fn var(&mut self, l: LocalId) -> VarRef {
        let ty = self.f.local(l).ty.clone();
        let size = size_of(&ty, &self.m.structs) as i64;
        let root = self.place(l);
        let base = self.place(l);
        let p2 = self.place(l);
        let addr = self.e(ExprKind::AddrOf(p2), Type::ptr(ty.clone()));
        let bytes = self.i64(size);
        let s = self.span();
        VarRef { text: self.f.local(l).name.clone(), root, base, addr, bytes, sections: vec![], elem_ty: ty, deep: false, span: s }
    }
    pub fn clause(&mut self, kind: DataClauseKind, vars: Vec<VarRef>) -> DataClause {
        let s = self.span();
        DataClause { kind, readonly: false, zero: false, vars, span: s }
    }
    pub fn finish(mut self) -> Module {
        let f = std::mem::replace(&mut self.f, Function::new("", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, Span::DUMMY));
        self.m.functions.push(f);
        self.m
    }
}

pub fn compute(kind: ComputeKind, body: Vec<Stmt>, span: Span) -> ComputeConstruct {
    ComputeConstruct {
        kind,
        tuning: DeviceTyped::default(),
        if_cond: None,
        self_cond: None,
        default: None,
        data: vec![],
        private: vec![],
        firstprivate: vec![],
        reductions: vec![],
        combined: false,
        body: Block::new(body),
        span,
    }
}

pub fn loop_dir(t: LoopTuning, construct: ComputeKind, span: Span) -> LoopDirective {
    LoopDirective { tuning: DeviceTyped { default: t, per_type: vec![] }, private: vec![], reductions: vec![], construct: Some(construct), span }
}

pub fn plain_loop(construct: ComputeKind, span: Span) -> LoopDirective {
    loop_dir(LoopTuning::default(), construct, span)
}

pub fn opts() -> accjit_lower::LowerOptions {
    accjit_lower::LowerOptions { device_type: "multicore".into() }
}

/// Lower and validate; the printed module.
pub fn lower_ok(mut m: Module) -> (Module, String) {
    validate::validate(&m, validate::Stage::Parsed).expect("input IR valid");
    if let Err(d) = accjit_lower::lower(&mut m, &opts()) {
        panic!("lowering failed: {:?}", d.0.iter().map(|d| d.message.clone()).collect::<Vec<_>>());
    }
    if let Err(d) = validate::validate(&m, validate::Stage::Lowered) {
        panic!("lowered IR invalid: {:?}\n{}", d.0.iter().map(|d| d.message.clone()).collect::<Vec<_>>(), print::module_to_string(&m));
    }
    let text = print::module_to_string(&m);
    (m, text)
}

pub fn lower_err(mut m: Module) -> Vec<Diagnostic> {
    match accjit_lower::lower(&mut m, &opts()) {
        Ok(()) => panic!("expected an error, got:\n{}", print::module_to_string(&m)),
        Err(d) => d.0,
    }
}

pub fn fptr() -> Type {
    Type::ptr(Type::F32)
}

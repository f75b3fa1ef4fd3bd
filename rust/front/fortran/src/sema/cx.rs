//! The lowering context: module-wide state ([`Shared`]: the IR module,
//! extern declarations, string constants, procedure signatures, compiled
//! modules) and the per-procedure context ([`Cx`]: the IR function being
//! built, its scopes, the statements being emitted, the epilogue every
//! `return` runs).
//!
//! Where variables live ([`Loc`]): a scalar is an IR local (dummies are
//! copied in at entry and back at every return, so that compute regions
//! see plain locals they can pass by value), an IR global (module
//! variables, `save`), or behind a pointer (host association: an internal
//! procedure gets its host's variables by reference). An array
//! ([`ArrVar`]) is a base pointer plus per-dimension lower bound, extent
//! and stride in elements, each a `Loc` or a constant; element `a(i, j)`
//! is `base[(i - l1)*s1 + (j - l2)*s2]` with `s1 = 1` for contiguous
//! arrays (column-major).

use super::consts::ConstVal;
use super::types::FType;
pub(crate) use crate::ArrayShape;
use accjit_ir::{
    build, BinOp, Block, Diagnostic, ExprId, ExprKind, ExternFunc, ExternId, FuncId, FuncSig, Function, GlobalId, LocalId, Module, Span, Stmt, StmtKind, Type,
};
use std::collections::HashMap;

pub(crate) type R<T> = Result<T, Diagnostic>;

/// Where a scalar (or one part of an array's description) lives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Loc {
    Local(LocalId),
    Global(GlobalId),
    /// `*p` for the pointer local `p` (host-associated variables).
    Deref(LocalId),
    /// A compile-time integer (array bounds).
    Const(i64),
    /// The decayed address of a fixed-size local array (its base pointer).
    LocalArr(LocalId),
    /// The decayed address of a fixed-size global array.
    GlobalArr(GlobalId),
    /// A place expression (a component of a structure), copied at each use.
    Place(ExprId),
    /// The decayed address of an array-typed place expression (a fixed-size
    /// array component), copied at each use.
    ArrAt(ExprId),
    /// A COMMON-block scalar: its slot in `Shared::common_slots` (built
    /// anew in each function that uses it, internal procedures included).
    Common(usize),
    /// The decayed address of a COMMON-block array: its slot.
    CommonArr(usize),
}

/// A COMMON-block variable: where it lives in its block's global.
#[derive(Clone, Debug)]
pub(crate) struct CommonSlot {
    pub global: GlobalId,
    /// Byte offset in the block.
    pub offset: u64,
    /// The variable's IR type (a fixed-size array for arrays).
    pub ty: Type,
}

/// An array variable.
#[derive(Clone, Debug)]
pub(crate) struct ArrVar {
    pub name: String,
    pub ty: FType,
    /// The address of the first element (`Ptr(elem)`; null when an
    /// allocatable is not allocated).
    pub base: Loc,
    pub lb: Vec<Loc>,
    pub ext: Vec<Loc>,
    /// Strides in elements (the first is `Const(1)` for contiguous arrays).
    pub stride: Vec<Loc>,
    pub allocatable: bool,
    pub pointer: bool,
    pub assumed_size: bool,
    /// The dummy's pointer parameter when `optional`.
    pub present: Option<LocalId>,
    /// The declaration (for messages).
    #[allow(dead_code)]
    pub span: Span,
}

impl ArrVar {
    pub fn rank(&self) -> usize {
        self.ext.len()
    }
}

/// A byte offset into a global (`data` statements).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GlobalSlot {
    pub global: GlobalId,
    pub offset: u64,
}

#[derive(Clone, Debug)]
pub(crate) struct ScalarVar {
    pub ty: FType,
    /// Where the value lives; for a character dummy, where the pointer to
    /// its bytes lives (see `char_len`).
    pub loc: Loc,
    /// A character dummy's length (the bytes are behind the pointer at `loc`).
    pub char_len: Option<Loc>,
    /// The dummy's pointer parameter when `optional` (`present(x)`).
    pub present: Option<LocalId>,
    /// The declaration (for messages).
    #[allow(dead_code)]
    pub span: Span,
}

/// What a name denotes in a scope.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Scalar(ScalarVar),
    Array(ArrVar),
    /// A named constant (`parameter`).
    Const(ConstVal, FType),
    /// A named constant array (`integer, parameter :: p(3) = [1, 2, 3]`):
    /// its values and a constant global holding them.
    ConstArr {
        vals: Vec<ConstVal>,
        ty: FType,
        global: GlobalId,
    },
    /// A procedure, by its key in `Shared::procs`.
    Proc(String),
    /// A name declared `external` or typed as a function result without a
    /// definition seen yet (resolved at the call).
    External(Option<FType>),
    /// A name from a built-in module (`acc_get_num_devices`, `c_loc`):
    /// handled by the call and intrinsic code.
    Builtin(String),
    /// A derived type, by its index in `Shared::dtypes`.
    Type(usize),
    /// A generic name: its specific procedures' keys.
    Generic(Vec<String>),
    /// A dummy procedure: the parameter holding its address, and its
    /// characteristics.
    ProcDummy(LocalId, Box<ProcSig>),
    /// A statement function `f(x, y) = expr`: its dummies, body and type.
    StmtFunc(Vec<String>, Box<crate::ast::Expr>, FType),
}

/// A component of a derived type.
#[derive(Clone, Debug)]
pub(crate) struct Comp {
    pub name: String,
    pub ty: FType,
    /// Field index in the IR struct (the base pointer for allocatable arrays).
    pub field: u32,
    /// Array components: lower bounds and extents (fixed), or `None` for
    /// allocatable ones (whose bounds live in the fields after `field`).
    pub dims: Option<Vec<(i64, i64)>>,
    pub rank: usize,
    pub allocatable: bool,
    /// A pointer component: its first stride is a field too.
    pub pointer: bool,
    /// Default initial value of a scalar component.
    pub init: Option<super::consts::ConstVal>,
}

/// A derived type definition.
#[derive(Clone, Debug)]
pub(crate) struct DType {
    pub name: String,
    pub comps: Vec<Comp>,
}

/// One dummy argument of a procedure.
#[derive(Clone, Debug)]
pub(crate) struct DummySig {
    pub name: String,
    pub ty: FType,
    pub rank: usize,
    pub shape: ArrayShape,
    pub by_value: bool,
    pub optional: bool,
    pub intent: crate::Intent,
    /// Declared `allocatable`/`pointer`: passed by reference to the
    /// caller's base pointer and bounds (the callee may allocate it).
    pub allocatable: bool,
    /// A dummy procedure: its characteristics (the IR parameter is a
    /// function pointer).
    pub proc: Option<Box<ProcSig>>,
}

/// A host variable an internal procedure uses: passed by reference after
/// the dummies.
#[derive(Clone, Debug)]
pub(crate) struct HostArg {
    pub name: String,
}

#[derive(Clone, Debug)]
pub(crate) struct ProcSig {
    pub func: FuncId,
    pub name: String,
    pub dummies: Vec<DummySig>,
    /// Function result type (`None`: subroutine); its element type for an
    /// array-valued function.
    pub result: Option<FType>,
    /// Rank of an array-valued function's result (0: scalar). The result
    /// is passed like an allocatable dummy after the dummies: the callee
    /// allocates it, the caller frees it.
    pub result_rank: usize,
    pub host_args: Vec<HostArg>,
    pub elemental: bool,
    /// A C function declared by a `bind(c)` interface body: called as this extern.
    pub ext: Option<accjit_ir::ExternId>,
    #[allow(dead_code)]
    pub span: Span,
}

/// A compiled module's public names.
#[derive(Clone, Debug, Default)]
pub(crate) struct ModScope {
    pub syms: HashMap<String, Sym>,
}

/// Module-wide state.
#[derive(Default)]
pub(crate) struct Shared {
    pub m: Module,
    pub externs: HashMap<String, ExternId>,
    pub strings: HashMap<Vec<u8>, GlobalId>,
    /// Procedures by key: `name` for external procedures, `host__name` for
    /// internal ones, `module__name` for module procedures.
    pub procs: HashMap<String, ProcSig>,
    pub modules: HashMap<String, ModScope>,
    pub interfaces: Vec<crate::ProcInterface>,
    /// Counter for unique global names.
    pub nglobals: usize,
    /// Derived types (index = IR struct id).
    pub dtypes: Vec<DType>,
    /// Common blocks by name (`_blank` for blank common).
    pub commons: HashMap<String, GlobalId>,
    /// COMMON-block variables (`Loc::Common`, `Loc::CommonArr`).
    pub common_slots: Vec<CommonSlot>,
    /// Derived types by the span of their definition (a specification part
    /// is processed once for a procedure's signature and again for its body).
    pub dtype_at: HashMap<(u32, u32), usize>,
    /// The sources, for `file:line` strings of runtime messages.
    pub sm: accjit_ir::SourceMap,
}

impl Shared {
    /// The extern function `name` with signature `sig`, declared once.
    pub fn extern_fn(&mut self, name: &str, sig: FuncSig) -> ExternId {
        if let Some(&id) = self.externs.get(name) {
            return id;
        }
        self.m.externs.push(ExternFunc { name: name.to_string(), sig, returns_twice: false, span: Span::DUMMY });
        let id = ExternId(self.m.externs.len() as u32 - 1);
        self.externs.insert(name.to_string(), id);
        id
    }

    /// A Fortran runtime entry point, typed from the ABI table.
    pub fn runtime_fn(&mut self, name: &str) -> ExternId {
        let ep = accjit_abi::fortran_entry_point(name).unwrap_or_else(|| panic!("{name} is not in the Fortran ABI table"));
        let ty = |a: accjit_abi::AbiType| match a {
            accjit_abi::AbiType::Void => Type::Void,
            accjit_abi::AbiType::I64 => Type::I64,
            accjit_abi::AbiType::F64 => Type::F64,
            accjit_abi::AbiType::I64Ptr => Type::ptr(Type::I64),
            accjit_abi::AbiType::CStr => Type::ptr(Type::Scalar(accjit_ir::Scalar::I8)),
            accjit_abi::AbiType::Ptr | accjit_abi::AbiType::PtrPtr => Type::ptr(Type::Void),
        };
        let sig = FuncSig { params: ep.params.iter().map(|p| ty(*p)).collect(), ret: ty(ep.ret), variadic: false };
        self.extern_fn(name, sig)
    }

    pub fn add_global(&mut self, name: String, ty: Type, init: Option<accjit_ir::GlobalInit>, is_const: bool, span: Span) -> GlobalId {
        self.m.globals.push(accjit_ir::Global { name, ty, linkage: accjit_ir::Linkage::Internal, init, is_const, declare: None, span });
        GlobalId(self.m.globals.len() as u32 - 1)
    }

    /// A fresh global name based on `base`.
    pub fn global_name(&mut self, base: &str) -> String {
        self.nglobals += 1;
        format!("{base}.{}", self.nglobals)
    }
}

/// What kind of procedure is being compiled.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum UnitKind {
    Program,
    Subroutine,
    Function,
}

/// The compute construct a statement is in, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Region {
    pub kind: accjit_ir::ComputeKind,
}

/// The per-procedure context.
pub(crate) struct Cx<'a> {
    pub sh: &'a mut Shared,
    pub f: Function,
    /// Scopes, innermost last: the host's (or module's) names, then this
    /// procedure's.
    pub scopes: Vec<HashMap<String, Sym>>,
    /// Implicit typing: `None` under `implicit none`, else the type per letter.
    pub implicit: Option<[FType; 26]>,
    /// Statements being emitted (the current block).
    pub out: Vec<Stmt>,
    /// Run before every `return` (dummies copied back, heap arrays freed).
    pub epilogue: Vec<Stmt>,
    pub kind: UnitKind,
    /// The function result's local.
    pub result: Option<(LocalId, FType)>,
    /// Enclosing DO loops: (construct name, is the loop an IR loop whose
    /// `break`/`continue` reach it directly).
    pub loops: Vec<LoopFrame>,
    pub region: Option<Region>,
    /// Element context of an array expression being scalarised: the
    /// 0-based i64 loop variables, one per dimension of the result.
    pub elem: Option<Vec<LocalId>>,
    /// IR name prefix for internal procedures (`host__`).
    pub unit_name: String,
    /// Labels of `goto` targets, by Fortran label.
    pub labels: HashMap<u64, accjit_ir::LabelId>,
    pub ntemps: usize,
    /// Names that denote the function's result variable (the function's
    /// own name when it has no `result(...)`).
    pub own_names: Vec<String>,
    /// Declarations of implicitly typed locals, put at the top of the body.
    pub top_decls: Vec<Stmt>,
    /// Array-valued subexpressions already evaluated into temporaries, by
    /// the address of their AST node.
    pub materialised: HashMap<usize, ArrVar>,
    /// Heap temporaries of the statement being built, freed after it.
    pub stmt_temps: Vec<Loc>,
    /// `!$acc routine` seen for this procedure.
    pub routine: Option<accjit_ir::RoutineInfo>,
    /// `format` statements by label.
    pub formats: HashMap<u64, String>,
    /// Deferred-length allocatable character variables (assignment reallocates).
    pub deferred_chars: std::collections::HashSet<String>,
    /// intent(in) dummies (assignments to them are errors).
    pub intent_in: std::collections::HashSet<String>,
    /// `common` statements of the specification part, for `variables`.
    pub common_decls: Vec<(Option<crate::ast::Name>, Vec<crate::ast::Entity>)>,
    /// Variables the enclosing data constructs (and this procedure's
    /// `declare` directives) name: a compute construct reaches those of
    /// them held by reference through their device copies.
    pub data_names: Vec<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct LoopFrame {
    pub name: Option<String>,
    /// Label placed after the loop (for `exit` of an outer loop).
    pub exit_label: Option<accjit_ir::LabelId>,
    /// Label at the end of the body (for `cycle` of an outer loop).
    pub cycle_label: Option<accjit_ir::LabelId>,
    /// Does `continue` in IR skip to this loop's next iteration (the
    /// body is the IR loop's body; false for loops whose increment lives
    /// in the body).
    pub direct_continue: bool,
    /// Inside a construct whose `break` would not leave the loop.
    pub in_block: bool,
}

impl<'a> Cx<'a> {
    pub fn new(sh: &'a mut Shared, f: Function, kind: UnitKind, unit_name: String, host: HashMap<String, Sym>) -> Cx<'a> {
        Cx {
            sh,
            f,
            scopes: vec![host, HashMap::new()],
            implicit: Some(default_implicit()),
            out: vec![],
            epilogue: vec![],
            kind,
            result: None,
            loops: vec![],
            region: None,
            elem: None,
            unit_name,
            labels: HashMap::new(),
            ntemps: 0,
            own_names: vec![],
            top_decls: vec![],
            materialised: HashMap::new(),
            stmt_temps: vec![],
            routine: None,
            formats: HashMap::new(),
            common_decls: vec![],
            data_names: vec![],
            intent_in: Default::default(),
            deferred_chars: Default::default(),
        }
    }

    pub fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn local_sym(&self, name: &str) -> Option<&Sym> {
        self.scopes.last().and_then(|s| s.get(name))
    }

    pub fn define(&mut self, name: &str, sym: Sym) {
        self.scopes.last_mut().unwrap().insert(name.to_string(), sym);
    }

    pub fn mk(&mut self, kind: ExprKind, ty: Type, sp: Span) -> ExprId {
        self.f.add_expr(kind, ty, sp)
    }

    pub fn ty(&self, e: ExprId) -> Type {
        self.f.expr(e).ty.clone()
    }

    pub fn i64c(&mut self, v: i64, sp: Span) -> ExprId {
        build::i64c(&mut self.f, v, sp)
    }

    pub fn int(&mut self, v: i64, ty: Type, sp: Span) -> ExprId {
        build::int(&mut self.f, v, ty, sp)
    }

    pub fn bin(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: Type, sp: Span) -> ExprId {
        build::binary(&mut self.f, op, a, b, ty, sp)
    }

    pub fn cast(&mut self, e: ExprId, ty: Type, sp: Span) -> ExprId {
        build::cast(&mut self.f, e, ty, sp)
    }

    pub fn emit(&mut self, kind: StmtKind, sp: Span) {
        self.out.push(Stmt { kind, span: sp });
    }

    pub fn emit_expr(&mut self, e: ExprId, sp: Span) {
        self.out.push(build::expr_stmt(e, sp));
    }

    /// A fresh local (declared by the caller or by `temp`).
    pub fn new_local(&mut self, name: &str, ty: Type, sp: Span) -> LocalId {
        self.ntemps += 1;
        self.f.add_local(format!("{name}.{}", self.ntemps), ty, sp)
    }

    /// A fresh local holding `value`, declared now.
    pub fn temp(&mut self, name: &str, value: ExprId, sp: Span) -> LocalId {
        let ty = self.ty(value);
        let l = self.new_local(name, ty, sp);
        self.emit(StmtKind::Decl(l, Some(value)), sp);
        l
    }

    /// `e` when it is a constant or a read of a local, else a temporary
    /// holding its value (so it can be read again).
    pub fn settle(&mut self, e: ExprId, sp: Span) -> ExprId {
        if self.is_simple(e) {
            return e;
        }
        let l = self.temp("t", e, sp);
        build::load_local(&mut self.f, l, sp)
    }

    fn is_simple(&self, e: ExprId) -> bool {
        match &self.f.expr(e).kind {
            ExprKind::Int(_) | ExprKind::Float(_) => true,
            ExprKind::Load(p) => matches!(self.f.expr(*p).kind, ExprKind::Local(_)),
            ExprKind::Cast(a) => self.is_simple(*a),
            _ => false,
        }
    }

    /// A copy of the expression tree `e` (fresh ids).
    pub fn clone_expr(&mut self, e: ExprId) -> ExprId {
        let x = self.f.expr(e).clone();
        let kids: Vec<ExprId> = x.kind.children().into_iter().map(|c| self.clone_expr(c)).collect();
        let kind = x.kind.with_children(&kids);
        self.f.add_expr(kind, x.ty, x.span)
    }

    // ---- locations ----

    pub fn loc_type(&self, loc: Loc) -> Type {
        match loc {
            Loc::Local(l) => self.f.local(l).ty.clone(),
            Loc::Global(g) => self.sh.m.globals[g.index()].ty.clone(),
            Loc::Deref(p) => self.f.local(p).ty.pointee().cloned().unwrap_or(Type::Void),
            Loc::Const(_) => Type::I64,
            Loc::LocalArr(l) => Type::ptr(elem_of(&self.f.local(l).ty)),
            Loc::GlobalArr(g) => Type::ptr(elem_of(&self.sh.m.globals[g.index()].ty)),
            Loc::Place(e) => self.f.expr(e).ty.clone(),
            Loc::ArrAt(e) => Type::ptr(elem_of(&self.f.expr(e).ty)),
            Loc::Common(i) => self.sh.common_slots[i].ty.clone(),
            Loc::CommonArr(i) => Type::ptr(elem_of(&self.sh.common_slots[i].ty)),
        }
    }

    /// The place of `loc` (not for constants and fixed arrays).
    pub fn place(&mut self, loc: Loc, sp: Span) -> ExprId {
        match loc {
            Loc::Local(l) => build::local(&mut self.f, l, sp),
            Loc::Global(g) => {
                let ty = self.sh.m.globals[g.index()].ty.clone();
                self.mk(ExprKind::Global(g), ty, sp)
            }
            Loc::Deref(p) => {
                let v = build::load_local(&mut self.f, p, sp);
                build::deref(&mut self.f, v, sp)
            }
            Loc::Place(e) => self.clone_expr(e),
            Loc::Common(i) => self.common_place(i, sp),
            Loc::Const(_) | Loc::LocalArr(_) | Loc::GlobalArr(_) | Loc::ArrAt(_) | Loc::CommonArr(_) => panic!("no place for {loc:?}"),
        }
    }

    /// `*(T *)((char *)&block + offset)`: a COMMON variable's place.
    pub fn common_place(&mut self, slot: usize, sp: Span) -> ExprId {
        let CommonSlot { global, offset, ty } = self.sh.common_slots[slot].clone();
        let gty = self.sh.m.globals[global.index()].ty.clone();
        let g = self.mk(ExprKind::Global(global), gty, sp);
        let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
        let a = self.mk(ExprKind::AddrOf(g), Type::ptr(Type::I64), sp);
        let a = self.cast(a, u8p.clone(), sp);
        let o = self.i64c(offset as i64, sp);
        let at = self.bin(BinOp::Add, a, o, u8p, sp);
        let p = self.cast(at, Type::ptr(ty), sp);
        build::deref(&mut self.f, p, sp)
    }

    /// The value at `loc`.
    pub fn get(&mut self, loc: Loc, sp: Span) -> ExprId {
        match loc {
            Loc::Const(v) => self.i64c(v, sp),
            Loc::LocalArr(l) => build::first_elem(&mut self.f, l, sp),
            Loc::GlobalArr(g) => {
                let ty = self.sh.m.globals[g.index()].ty.clone();
                let elem = elem_of(&ty);
                let p = self.mk(ExprKind::Global(g), ty, sp);
                self.mk(ExprKind::AddrOf(p), Type::ptr(elem), sp)
            }
            Loc::ArrAt(e) => {
                let p = self.clone_expr(e);
                let elem = elem_of(&self.f.expr(e).ty);
                self.mk(ExprKind::AddrOf(p), Type::ptr(elem), sp)
            }
            Loc::CommonArr(i) => {
                let p = self.common_place(i, sp);
                let elem = elem_of(&self.sh.common_slots[i].ty);
                self.mk(ExprKind::AddrOf(p), Type::ptr(elem), sp)
            }
            _ => {
                let p = self.place(loc, sp);
                build::load(&mut self.f, p, sp)
            }
        }
    }

    /// Store `v` (converted to the location's type) at `loc`.
    pub fn set(&mut self, loc: Loc, v: ExprId, sp: Span) {
        let ty = self.loc_type(loc);
        let v = self.cast(v, ty, sp);
        let p = self.place(loc, sp);
        let a = build::assign(&mut self.f, p, v, sp);
        self.emit_expr(a, sp);
    }

    // ---- arrays ----

    /// The 0-based linear element offset of `a(idx...)` (subscripts as i64).
    pub fn elem_offset(&mut self, a: &ArrVar, idx: &[ExprId], sp: Span) -> ExprId {
        let mut off: Option<ExprId> = None;
        for (d, &i) in idx.iter().enumerate() {
            let lb = self.get(a.lb[d], sp);
            let mut t = self.bin(BinOp::Sub, i, lb, Type::I64, sp);
            if a.stride[d] != Loc::Const(1) {
                let s = self.get(a.stride[d], sp);
                t = self.bin(BinOp::Mul, t, s, Type::I64, sp);
            }
            off = Some(match off {
                None => t,
                Some(o) => self.bin(BinOp::Add, o, t, Type::I64, sp),
            });
        }
        off.unwrap_or_else(|| self.i64c(0, sp))
    }

    /// The address of element `off` (0-based, in elements) of `a`.
    pub fn elem_addr(&mut self, a: &ArrVar, off: ExprId, sp: Span) -> ExprId {
        let base = self.get(a.base, sp);
        let pty = self.ty(base);
        self.bin(BinOp::Add, base, off, pty, sp)
    }

    /// The place `a(idx...)`.
    pub fn elem_place(&mut self, a: &ArrVar, idx: &[ExprId], sp: Span) -> ExprId {
        let off = self.elem_offset(a, idx, sp);
        let p = self.elem_addr(a, off, sp);
        build::deref(&mut self.f, p, sp)
    }

    /// Total number of elements (i64).
    pub fn arr_size(&mut self, a: &ArrVar, sp: Span) -> ExprId {
        let mut n: Option<ExprId> = None;
        for d in 0..a.rank() {
            let e = self.get(a.ext[d], sp);
            n = Some(match n {
                None => e,
                Some(x) => self.bin(BinOp::Mul, x, e, Type::I64, sp),
            });
        }
        n.unwrap_or_else(|| self.i64c(1, sp))
    }

    // ---- loops ----

    /// The expression `k += 1` on the i64 local `k` (loop steps, counters).
    /// `k + 1`: the 1-based Fortran index of the 0-based i64 counter `k`.
    pub fn one_based_i64(&mut self, k: LocalId, sp: Span) -> ExprId {
        let kv = build::load_local(&mut self.f, k, sp);
        let one = self.i64c(1, sp);
        self.bin(BinOp::Add, kv, one, Type::I64, sp)
    }

    pub fn incr_i64(&mut self, k: LocalId, sp: Span) -> ExprId {
        let kp = build::local(&mut self.f, k, sp);
        let one = self.i64c(1, sp);
        self.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: kp, value: one, op_ty: Type::I64 }, Type::I64, sp)
    }

    /// `for (k = 0; k < n; k++) body` over a fresh i64 local `k`; `body`
    /// builds the loop body with `k`.
    pub fn counted_loop(&mut self, n: ExprId, sp: Span, body: impl FnOnce(&mut Self, LocalId) -> R<()>) -> R<()> {
        let k = self.new_local("k", Type::I64, sp);
        let zero = self.i64c(0, sp);
        let init = Block::new(vec![Stmt { kind: StmtKind::Decl(k, Some(zero)), span: sp }]);
        let kv = build::load_local(&mut self.f, k, sp);
        let cond = build::cmp(&mut self.f, BinOp::Lt, kv, n, sp);
        let step = self.incr_i64(k, sp);
        let saved = std::mem::take(&mut self.out);
        let r = body(self, k);
        let stmts = std::mem::replace(&mut self.out, saved);
        r?;
        self.emit(StmtKind::For { init, cond: Some(cond), step: Some(step), body: Block::new(stmts), acc: None }, sp);
        Ok(())
    }

    /// A loop nest over `exts` (first dimension innermost, column-major),
    /// `body` called with the 0-based index locals (first dimension first).
    pub fn nest(&mut self, exts: &[ExprId], sp: Span, body: &mut dyn FnMut(&mut Self, &[LocalId]) -> R<()>) -> R<()> {
        fn go<'b, 'a>(cx: &'b mut Cx<'a>, exts: &[ExprId], got: &mut Vec<LocalId>, sp: Span, body: &mut dyn FnMut(&mut Cx<'a>, &[LocalId]) -> R<()>) -> R<()> {
            if got.len() == exts.len() {
                let mut idx = got.clone();
                idx.reverse();
                return body(cx, &idx);
            }
            let d = exts.len() - 1 - got.len();
            cx.counted_loop(exts[d], sp, |cx, k| {
                got.push(k);
                let r = go(cx, exts, got, sp, body);
                got.pop();
                r
            })
        }
        // Extents are read once, before the loops.
        let exts: Vec<ExprId> = exts.iter().map(|&e| self.settle(e, sp)).collect();
        go(self, &exts, &mut vec![], sp, body)
    }

    /// Run `f` collecting the statements it emits into a block.
    pub fn collect(&mut self, f: impl FnOnce(&mut Self) -> R<()>) -> R<Block> {
        let saved = std::mem::take(&mut self.out);
        let r = f(self);
        let stmts = std::mem::replace(&mut self.out, saved);
        r?;
        Ok(Block::new(stmts))
    }

    /// A NUL-terminated string constant, as a `char *` value.
    pub fn c_string(&mut self, text: &[u8], sp: Span) -> ExprId {
        let mut bytes = text.to_vec();
        bytes.push(0);
        self.byte_string(&bytes, sp)
    }

    /// A constant byte string (not terminated), as a `char *` value.
    pub fn byte_string(&mut self, bytes: &[u8], sp: Span) -> ExprId {
        let i8t = Type::Scalar(accjit_ir::Scalar::I8);
        let arr_ty = Type::Array(Box::new(i8t.clone()), Some(bytes.len().max(1) as u64));
        let gid = match self.sh.strings.get(bytes) {
            Some(&g) => g,
            None => {
                let n = self.sh.m.globals.len();
                let mut data = bytes.to_vec();
                if data.is_empty() {
                    data.push(0);
                }
                let g = self.sh.add_global(format!(".str.{n}"), arr_ty.clone(), Some(accjit_ir::GlobalInit { bytes: data, relocs: vec![] }), true, sp);
                self.sh.strings.insert(bytes.to_vec(), g);
                g
            }
        };
        let place = self.mk(ExprKind::Global(gid), arr_ty, sp);
        self.mk(ExprKind::AddrOf(place), Type::ptr(i8t), sp)
    }

    /// A call of runtime entry point `name`.
    pub fn rt_call(&mut self, name: &str, args: Vec<ExprId>, sp: Span) -> ExprId {
        let id = self.sh.runtime_fn(name);
        let sig = self.sh.m.externs[id.index()].sig.clone();
        let args: Vec<ExprId> = args.into_iter().zip(&sig.params).map(|(a, t)| self.cast(a, t.clone(), sp)).collect();
        self.mk(ExprKind::Call(accjit_ir::Callee::Extern(id), args), sig.ret, sp)
    }

    /// A call of libc/libm function `name`.
    pub fn libc_call(&mut self, name: &str, args: Vec<ExprId>, ret: Type, sp: Span) -> ExprId {
        let params = args.iter().map(|a| self.ty(*a)).collect();
        let id = self.sh.extern_fn(name, FuncSig { params, ret: ret.clone(), variadic: false });
        self.mk(ExprKind::Call(accjit_ir::Callee::Extern(id), args), ret, sp)
    }
}

pub(crate) fn elem_of(t: &Type) -> Type {
    match t {
        Type::Array(e, _) => (**e).clone(),
        Type::Ptr(e) => (**e).clone(),
        t => t.clone(),
    }
}

pub(crate) fn default_implicit() -> [FType; 26] {
    std::array::from_fn(|i| if (8..=13).contains(&i) { FType::INT } else { FType::REAL })
}

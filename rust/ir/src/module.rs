//! Modules, functions, expressions and structured statements.
//!
//! Expressions live in a per-function arena (`Function::exprs`) and are referred
//! to by [`ExprId`]; every expression has its type and span. Statements form a
//! tree of [`Block`]s (structured control flow plus `goto`/labels, which C
//! needs). The IR distinguishes *places* (lvalues: `Local`, `Global`, `Deref`,
//! `Member`, `DescElem`) from values: a place is read with `Load`, its address
//! taken with `AddrOf`, written with `Assign`/`CompoundAssign`/`IncDec`.
//! Array-typed places never appear as values: the front end decays them with
//! `AddrOf` (whose type is then a pointer to the element type).

use crate::acc::{AccLoop, AtomicOp, ComputeConstruct, DataConstruct, ExecDirective, HostDataConstruct, LoopDirective};
use crate::span::Span;
use crate::types::{FuncSig, StructDef, Type};

macro_rules! id_type {
    ($($(#[$m:meta])* $name:ident),*) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name { pub fn index(self) -> usize { self.0 as usize } }
    )*};
}
id_type!(
    /// An expression in `Function::exprs`.
    ExprId,
    /// A local variable (parameter or automatic) in `Function::locals`.
    LocalId,
    /// A global variable in `Module::globals` (string literals and `static` locals too).
    GlobalId,
    /// A function defined in this module (`Module::functions`).
    FuncId,
    /// A function declared but defined elsewhere (`Module::externs`): libc, libm, the runtime.
    ExternId,
    /// A label in `Function::labels`, target of `goto`.
    LabelId,
    /// An outlined kernel in `Module::kernels` (after lowering).
    KernelId
);

/// A whole translation unit (or a whole program).
#[derive(Clone, Debug, Default)]
pub struct Module {
    pub structs: Vec<StructDef>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    pub externs: Vec<ExternFunc>,
    /// Filled by `lower`: outlined compute regions.
    pub kernels: Vec<Kernel>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    /// Visible to other modules and to the caller (Python, `accjit run`).
    Export,
    /// `static`: this module only.
    Internal,
    /// Declared `extern` and not defined here: resolved by the JIT linker (libc data such as `stdout`).
    Import,
}

#[derive(Clone, Debug)]
pub struct Global {
    pub name: String,
    pub ty: Type,
    pub linkage: Linkage,
    /// Constant initial bytes (zero when `None`); pointers inside are relocations.
    pub init: Option<GlobalInit>,
    pub is_const: bool,
    /// `declare` clauses attached to this global (device residency etc.).
    pub declare: Option<crate::acc::DeclareKind>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct GlobalInit {
    /// `size_of(ty)` bytes, little-endian.
    pub bytes: Vec<u8>,
    /// 8-byte pointers to patch in at link time.
    pub relocs: Vec<Reloc>,
}

#[derive(Clone, Debug)]
pub struct Reloc {
    pub offset: u64,
    pub target: RelocTarget,
    pub addend: i64,
}

#[derive(Clone, Copy, Debug)]
pub enum RelocTarget {
    Global(GlobalId),
    Func(FuncId),
    Extern(ExternId),
}

#[derive(Clone, Debug)]
pub struct ExternFunc {
    pub name: String,
    pub sig: FuncSig,
    /// The function may return twice (`setjmp` and its kind): a caller's
    /// locals must live in memory. Front ends decide this (C knows these
    /// functions by name, as GCC's `special_function_p` does).
    pub returns_twice: bool,
    pub span: Span,
}

/// How an OpenACC `routine` directive marked a function.
#[derive(Clone, Debug, Default)]
pub struct RoutineInfo {
    pub level: crate::acc::Level,
    /// `routine gang(dim:d)`: the highest gang dimension its gang loops may
    /// use (1 for plain `gang`; 0 for other levels). A call must run in
    /// gang-redundant mode in dimensions 1..=d (OpenACC 3.3 §2.15.1).
    pub gang_dim: u8,
    /// `bind(name)` / `bind("name")`.
    pub bind: Option<String>,
    pub nohost: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub sig: FuncSig,
    pub linkage: Linkage,
    /// The first `sig.params.len()` locals are the parameters, in order; in a
    /// variadic function the next three receive its variadic arguments' block
    /// (the extra parameters of [`FuncSig::va_block_form`]).
    pub locals: Vec<Local>,
    pub exprs: Vec<Expr>,
    pub labels: Vec<String>,
    pub body: Block,
    /// `Some` when `#pragma acc routine` applies: callable from compute regions.
    pub routine: Option<RoutineInfo>,
    /// Per parameter: whether a pointer parameter points to `const` data, as
    /// declared (`const float *x`). Callers use it to accept read-only buffers;
    /// empty when the front end has no qualifiers (all writable).
    pub param_const_pointee: Vec<bool>,
    pub span: Span,
}

impl Function {
    pub fn new(name: impl Into<String>, sig: FuncSig, linkage: Linkage, span: Span) -> Function {
        Function {
            name: name.into(),
            sig,
            linkage,
            locals: vec![],
            exprs: vec![],
            labels: vec![],
            body: Block::default(),
            routine: None,
            param_const_pointee: vec![],
            span,
        }
    }
    pub fn add_local(&mut self, name: impl Into<String>, ty: Type, span: Span) -> LocalId {
        self.locals.push(Local { name: name.into(), ty, span });
        LocalId(self.locals.len() as u32 - 1)
    }
    pub fn add_expr(&mut self, kind: ExprKind, ty: Type, span: Span) -> ExprId {
        self.exprs.push(Expr { kind, ty, span });
        ExprId(self.exprs.len() as u32 - 1)
    }
    pub fn expr(&self, id: ExprId) -> &Expr {
        &self.exprs[id.index()]
    }
    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.index()]
    }
    pub fn params(&self) -> impl Iterator<Item = LocalId> {
        (0..self.sig.params.len() as u32).map(LocalId)
    }
}

#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    /// Arithmetic for signed operands, logical for unsigned.
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// Short-circuit `&&` / `||` (operands and result are int-typed truth values).
    LogAnd,
    LogOr,
}

impl BinOp {
    /// The C spelling of the operator.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    /// `~`
    BitNot,
    /// `!` (result `int` 0/1)
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    Func(FuncId),
    Extern(ExternId),
}

/// Values a kernel body can ask its launch for (see `Kernel`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// This gang's index, `0..NumGangs` (i64).
    GangIndex,
    /// Number of gangs executing the kernel (i64).
    NumGangs,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    // ---- values ----
    /// Integer constant; the expression's type gives width and signedness (also
    /// used for null pointers, with a pointer type and value 0).
    Int(i64),
    Float(f64),
    /// Read the value stored at a place.
    Load(ExprId),
    /// The address of a place (also array-to-pointer decay and `&func` via `FuncAddr`).
    AddrOf(ExprId),
    FuncAddr(Callee),
    /// Arithmetic, comparison and logical operators. Pointer ± integer is scaled
    /// by the pointee size; pointer − pointer gives an element count (i64).
    /// Comparison results are `int`. Complex operands work for + - * / == !=.
    Binary(BinOp, ExprId, ExprId),
    Unary(UnOp, ExprId),
    /// Conversion to the expression's type (int↔float, widening, narrowing,
    /// pointer↔integer, pointer↔pointer, real↔complex, to bool: != 0).
    Cast(ExprId),
    /// `c ? a : b`; evaluates only the chosen side.
    Cond(ExprId, ExprId, ExprId),
    /// `a, b`: evaluate `a` for effect, yield `b`.
    Comma(ExprId, ExprId),
    Call(Callee, Vec<ExprId>),
    CallIndirect(ExprId, Vec<ExprId>),
    /// `place = value`, yields the stored value. Struct/complex/desc types copy bytes.
    Assign(ExprId, ExprId),
    /// `place op= value`, the operation done in the expression's computation type
    /// `op_ty` and converted back; yields the new value.
    CompoundAssign {
        op: BinOp,
        place: ExprId,
        value: ExprId,
        op_ty: Type,
    },
    /// `++x`, `x--`, … on an integer, float or pointer place.
    IncDec {
        place: ExprId,
        inc: bool,
        prefix: bool,
    },
    /// Real (false) or imaginary (true) part of a complex value.
    ComplexPart(ExprId, bool),
    /// A complex value from its real and imaginary parts.
    MakeComplex(ExprId, ExprId),
    /// Stack memory of `size` bytes (VLAs), live until the function returns.
    Alloca(ExprId),
    /// A kernel launch value (only inside `Kernel` bodies).
    Builtin(Builtin),
    // ---- descriptor values ----
    /// The base pointer of a descriptor value.
    DescBase(ExprId),
    /// Extent of dimension `k` (i64).
    DescShape(ExprId, u8),
    /// Stride of dimension `k` in elements (i64).
    DescStride(ExprId, u8),
    // ---- places (lvalues) ----
    Local(LocalId),
    Global(GlobalId),
    /// `*ptr`
    Deref(ExprId),
    /// Field `index` of a struct/union place.
    Member(ExprId, u32),
    /// Element of a descriptor place: `base[sum(idx_k * stride_k)]` (0-based indices).
    DescElem(ExprId, Vec<ExprId>),
}

impl ExprKind {
    /// The direct sub-expressions, in evaluation order.
    pub fn children(&self) -> Vec<ExprId> {
        use ExprKind::*;
        match self {
            Int(_) | Float(_) | FuncAddr(_) | Builtin(_) | Local(_) | Global(_) => vec![],
            Load(a)
            | AddrOf(a)
            | Unary(_, a)
            | Cast(a)
            | ComplexPart(a, _)
            | Alloca(a)
            | DescBase(a)
            | DescShape(a, _)
            | DescStride(a, _)
            | Deref(a)
            | Member(a, _) => vec![*a],
            Binary(_, a, b) | Comma(a, b) | Assign(a, b) | MakeComplex(a, b) => vec![*a, *b],
            Cond(a, b, c) => vec![*a, *b, *c],
            Call(_, args) => args.clone(),
            CallIndirect(c, args) => std::iter::once(*c).chain(args.iter().copied()).collect(),
            CompoundAssign { place, value, .. } => vec![*place, *value],
            IncDec { place, .. } => vec![*place],
            DescElem(p, idx) => std::iter::once(*p).chain(idx.iter().copied()).collect(),
        }
    }

    /// `self` with its children replaced, in `children` order, by `new`.
    pub fn with_children(&self, new: &[ExprId]) -> ExprKind {
        use ExprKind::*;
        let n = |i: usize| new[i];
        match self {
            Int(_) | Float(_) | FuncAddr(_) | Builtin(_) | Local(_) | Global(_) => self.clone(),
            Load(_) => Load(n(0)),
            AddrOf(_) => AddrOf(n(0)),
            Unary(op, _) => Unary(*op, n(0)),
            Cast(_) => Cast(n(0)),
            ComplexPart(_, im) => ComplexPart(n(0), *im),
            Alloca(_) => Alloca(n(0)),
            DescBase(_) => DescBase(n(0)),
            DescShape(_, d) => DescShape(n(0), *d),
            DescStride(_, d) => DescStride(n(0), *d),
            Deref(_) => Deref(n(0)),
            Member(_, i) => Member(n(0), *i),
            Binary(op, _, _) => Binary(*op, n(0), n(1)),
            Comma(_, _) => Comma(n(0), n(1)),
            Assign(_, _) => Assign(n(0), n(1)),
            MakeComplex(_, _) => MakeComplex(n(0), n(1)),
            Cond(_, _, _) => Cond(n(0), n(1), n(2)),
            Call(c, _) => Call(*c, new.to_vec()),
            CallIndirect(_, _) => CallIndirect(n(0), new[1..].to_vec()),
            CompoundAssign { op, op_ty, .. } => CompoundAssign { op: *op, place: n(0), value: n(1), op_ty: op_ty.clone() },
            IncDec { inc, prefix, .. } => IncDec { place: n(0), inc: *inc, prefix: *prefix },
            DescElem(..) => DescElem(n(0), new[1..].to_vec()),
        }
    }

    pub fn is_place(&self) -> bool {
        matches!(self, ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_) | ExprKind::Member(..) | ExprKind::DescElem(..))
    }
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
}

impl Block {
    pub fn new(stmts: Vec<Stmt>) -> Block {
        Block { stmts }
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct SwitchCase {
    /// `None` is `default:`.
    pub value: Option<i64>,
    pub body: Block,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// Evaluate for effect.
    Expr(ExprId),
    /// A local's declaration point; `init` is stored into it (aggregate
    /// initialisers are expanded by the front end into stores after a `Decl`
    /// with `None`, preceded by a zero fill).
    Decl(LocalId, Option<ExprId>),
    /// Set all bytes of a place to zero.
    ZeroFill(ExprId),
    If(ExprId, Block, Block),
    While(ExprId, Block),
    DoWhile(Block, ExprId),
    /// C `for`. `acc` holds the `#pragma acc loop` (or the loop part of a
    /// combined construct) that applies to this loop, before lowering.
    For {
        init: Block,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: Block,
        acc: Option<Box<LoopDirective>>,
    },
    /// `switch`: cases in source order, falling through to the next case unless they `break`.
    Switch(ExprId, Vec<SwitchCase>),
    Break,
    Continue,
    Return(Option<ExprId>),
    Goto(LabelId),
    Label(LabelId),
    Block(Block),

    // ---- OpenACC, as written (front end output) ----
    Compute(Box<ComputeConstruct>),
    Data(Box<DataConstruct>),
    HostData(Box<HostDataConstruct>),
    /// enter/exit data, update, wait, init, shutdown, set, cache, declare at block scope.
    Exec(Box<ExecDirective>),
    Atomic(Box<AtomicOp>),

    // ---- after lowering ----
    /// A canonical OpenACC loop inside a kernel body (see `AccLoop`).
    AccLoop(Box<AccLoop>),
    /// Run `Block` with run-time-sized private storage (see `PrivateCopy`):
    /// every executor reaching this statement in its current mode makes its
    /// own copies on entry and releases them when the block ends (the
    /// compute construct's `private`/`firstprivate` subarrays: one copy per
    /// gang; a `seq` loop's `private` subarrays). Only in kernel bodies.
    Privates(Vec<crate::acc::PrivateCopy>, Block),
    /// Launch kernel `kernel` with the given argument values (one per
    /// `Kernel::params`), `num_gangs` (None: the device's default), on `queue`
    /// (None: synchronous), after waiting for `wait` queues.
    Launch(Box<Launch>),
}

#[derive(Clone, Debug)]
pub struct Launch {
    pub kernel: KernelId,
    pub args: Vec<ExprId>,
    pub num_gangs: Option<ExprId>,
    /// A multi-dimensional gang grid (`num_gangs(a, b, c)`, OpenACC 3.3): the
    /// extents of the dimensions below the kernel's last (`Kernel::gang_dims`
    /// − 1 values, dimension 1 first, each evaluated once before the launch);
    /// the last dimension has `num_gangs / Π extents` gangs (all the gangs the
    /// device chooses when `num_gangs` is `None`). Empty for a one-dimensional
    /// grid. A GPU back end maps dimensions 1..3 onto grid x/y/z; the
    /// multicore back end numbers gangs linearly and runs gang `g` as
    /// coordinates `(g % a, (g / a) % b, g / (a*b))`.
    pub gang_grid: Vec<ExprId>,
    pub num_workers: Option<ExprId>,
    pub vector_length: Option<ExprId>,
    /// `Some(expr)`: async on that queue (`acc_async_noval` = -1 when no argument).
    pub async_queue: Option<ExprId>,
    /// Queues to wait for first; `Some(vec![])` means "all queues".
    pub wait: Option<Vec<ExprId>>,
    /// `Some(c)`: when `c` (an `int`) is nonzero at run time, the kernel runs on
    /// the local thread instead of the device (`if(false)` or `self(true)` on the
    /// compute construct): bit 0 of `__accjit_launch`'s `flags`. `None`: never.
    /// (Added by lower; additive.)
    pub local_cond: Option<ExprId>,
    /// The construct's source location as a C string (`"file.c:LINE"`), for
    /// runtime messages and profiling; `None`: the back end passes the kernel name.
    pub loc: Option<ExprId>,
}

/// How a kernel receives one captured host value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// The host value itself (firstprivate scalars, loop bounds, pointers used
    /// with `deviceptr`).
    Value,
    /// The argument is a host address (of an array, of a scalar in a data
    /// clause, or a pointer's value); the launcher translates it to the device
    /// address through the present table (identity on shared-memory devices).
    DeviceAddr,
    /// A `DeviceAddr` of data the kernel copies from when its gangs start
    /// (a firstprivate section); the next argument is its byte count (an i64
    /// `Value`). An asynchronous launch on a shared-memory device copies the
    /// bytes when it is enqueued and passes the copy, so that the kernel sees
    /// the values the data had when the construct was encountered (§2.5.14),
    /// not what the host wrote while the launch waited in its queue.
    Snapshot,
}

#[derive(Clone, Debug)]
pub struct KernelParam {
    pub name: String,
    pub ty: Type,
    pub kind: ParamKind,
}

/// An outlined compute region. `func` is an ordinary IR function whose
/// parameters are the captures (in `params` order); its body runs once per
/// gang (gang-redundant mode) and may use `Builtin::GangIndex`/`NumGangs`;
/// `AccLoop`s in it say how iterations are partitioned. Back ends decide how a
/// gang maps to hardware (a thread of the pool, a thread block, a work-group).
#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub construct: crate::acc::ComputeKind,
    pub params: Vec<KernelParam>,
    pub func: Function,
    /// Upper bound on useful gangs if known at lowering (1 for serial).
    pub max_gangs: Option<u64>,
    /// Dimensions of the kernel's gang grid (1..=3): the number of
    /// `num_gangs` values or the highest `gang(dim:d)` of its loops, whichever
    /// is larger. Each launch gives the extents (`Launch::gang_grid`).
    pub gang_dims: u8,
    /// Compute-construct reductions (`parallel reduction(+:x)`, and the one a
    /// combined `parallel loop reduction` implies): each gang's final value of
    /// the gang-private copy is combined into its target when the gang ends
    /// (see `reduce::PrivateReduction`).
    pub reductions: Vec<crate::reduce::KernelReduction>,
    /// Execution modes, locality and broadcast sets of `func`'s body (filled
    /// by `lower` after the kernel is complete; empty in hand-made IR).
    pub exec: crate::exec::ExecInfo,
    pub span: Span,
}

impl Kernel {
    /// Whether every bit of the kernel's work is partitioned over gangs: its
    /// body holds gang loops and declarations whose initialisers call
    /// nothing, and no other statement. Such a kernel does the same work
    /// whatever its gang count (nothing runs gang-redundantly but loop
    /// bounds), so a back end may use more gangs than processors to balance
    /// them.
    pub fn only_gang_loops(&self) -> bool {
        let f = &self.func;
        let calls = |e: ExprId| {
            let mut stack = vec![e];
            while let Some(e) = stack.pop() {
                let Some(x) = f.exprs.get(e.index()) else { return true };
                if matches!(x.kind, ExprKind::Call(..) | ExprKind::CallIndirect(..) | ExprKind::Alloca(_)) {
                    return true;
                }
                stack.extend(x.kind.children());
            }
            false
        };
        let mut loops = 0;
        for s in &f.body.stmts {
            match &s.kind {
                StmtKind::AccLoop(l) if l.gang => loops += 1,
                StmtKind::Decl(_, None) => {}
                StmtKind::Decl(_, Some(e)) if !calls(*e) => {}
                _ => return false,
            }
        }
        loops > 0
    }
}

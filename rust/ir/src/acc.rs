//! OpenACC constructs and clauses as the front ends produce them, plus the
//! canonical loop form (`AccLoop`) that `lower` hands to the back ends.
//!
//! Front ends check the spec's restrictions and fill these typed structures;
//! `device_type` groups are kept (`DeviceTyped`) and resolved by `lower` for
//! the target device type. Every expression referenced here lives in the
//! arena of the function that contains the directive.

use crate::module::{Block, ExprId, LocalId};
use crate::reduce::{LoopReduction, RedOp};
use crate::span::Span;
use crate::types::Type;

/// The parallelism level of a loop or routine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Level {
    Gang,
    Worker,
    Vector,
    #[default]
    Seq,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ComputeKind {
    Parallel,
    Kernels,
    Serial,
}

impl ComputeKind {
    pub fn name(self) -> &'static str {
        match self {
            ComputeKind::Parallel => "parallel",
            ComputeKind::Kernels => "kernels",
            ComputeKind::Serial => "serial",
        }
    }
}

/// Clauses that may follow `device_type(...)`: a default group and per-type
/// groups. `resolve` applies the spec's most-specific-match rule (§2.4).
#[derive(Clone, Debug, Default)]
pub struct DeviceTyped<T> {
    pub default: T,
    /// (device type names as written, lower-cased; `"*"` for `device_type(*)`, clauses).
    pub per_type: Vec<(Vec<String>, T)>,
}

pub trait Overlay: Clone {
    /// `self` with every clause present in `over` replaced by `over`'s.
    fn overlay(&self, over: &Self) -> Self;
}

impl<T: Overlay> DeviceTyped<T> {
    /// The clauses that apply when compiling for `device` (e.g. "multicore",
    /// "host", "nvidia", "opencl"; "acc_device_*" spellings are accepted too).
    pub fn resolve(&self, device: &str) -> T {
        let dev = device.trim_start_matches("acc_device_").to_ascii_lowercase();
        let named = self.per_type.iter().find(|(names, _)| names.iter().any(|n| n.trim_start_matches("acc_device_") == dev));
        let star = self.per_type.iter().find(|(names, _)| names.iter().any(|n| n == "*"));
        match named.or(star) {
            Some((_, t)) => self.default.overlay(t),
            None => self.default.clone(),
        }
    }
}

/// `async`: `Some(None)` is `async` with no argument (acc_async_noval).
pub type AsyncClause = Option<Option<ExprId>>;

/// `wait` clause or directive arguments.
#[derive(Clone, Debug, Default)]
pub struct WaitArgs {
    pub devnum: Option<ExprId>,
    /// Empty: wait for all queues.
    pub queues: Vec<ExprId>,
}

/// Compute-construct clauses that may follow `device_type`.
#[derive(Clone, Debug, Default)]
pub struct ComputeTuning {
    /// Up to 3 expressions (`num_gangs(a, b, c)`).
    pub num_gangs: Vec<ExprId>,
    pub num_workers: Option<ExprId>,
    pub vector_length: Option<ExprId>,
    pub async_: AsyncClause,
    pub wait: Option<WaitArgs>,
}

impl Overlay for ComputeTuning {
    fn overlay(&self, o: &Self) -> Self {
        ComputeTuning {
            num_gangs: if o.num_gangs.is_empty() { self.num_gangs.clone() } else { o.num_gangs.clone() },
            num_workers: o.num_workers.or(self.num_workers),
            vector_length: o.vector_length.or(self.vector_length),
            async_: if o.async_.is_some() { o.async_ } else { self.async_ },
            wait: o.wait.clone().or_else(|| self.wait.clone()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultKind {
    None,
    Present,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DataClauseKind {
    Copy,
    CopyIn,
    CopyOut,
    Create,
    NoCreate,
    Present,
    DevicePtr,
    Attach,
    Detach,
    Delete,
    /// `declare link`
    Link,
    /// `declare device_resident`
    DeviceResident,
    /// `host_data use_device`
    UseDevice,
    /// `update self(...)` / `update host(...)`
    UpdateSelf,
    /// `update device(...)`
    UpdateDevice,
}

impl DataClauseKind {
    pub fn name(self) -> &'static str {
        use DataClauseKind::*;
        match self {
            Copy => "copy",
            CopyIn => "copyin",
            CopyOut => "copyout",
            Create => "create",
            NoCreate => "no_create",
            Present => "present",
            DevicePtr => "deviceptr",
            Attach => "attach",
            Detach => "detach",
            Delete => "delete",
            Link => "link",
            DeviceResident => "device_resident",
            UseDevice => "use_device",
            UpdateSelf => "self",
            UpdateDevice => "device",
        }
    }
}

/// One subscript range `[lower:length]` of an array section (either may be omitted).
#[derive(Clone, Debug)]
pub struct Section {
    pub lower: Option<ExprId>,
    pub length: Option<ExprId>,
}

/// A variable, array element, member or array section named in a clause.
#[derive(Clone, Debug)]
pub struct VarRef {
    /// As written (`a[0:n]`, `s.p[1:3]`), for messages and profiling.
    pub text: String,
    /// The root variable's place (`Local`/`Global`) — what compute regions capture.
    pub root: ExprId,
    /// The place named before any section (`s.p`, `a`), as written.
    pub base: ExprId,
    /// Host start address of the referenced bytes (a pointer value).
    pub addr: ExprId,
    /// Number of bytes referenced (i64), contiguous from `addr`.
    pub bytes: ExprId,
    /// Sections as written, outermost first (empty: the whole variable).
    pub sections: Vec<Section>,
    /// Element type of the innermost section (or the variable's type).
    pub elem_ty: Type,
    /// True when the sections go through pointers below the first level
    /// (`T**` written `a[0:n][0:m]`): a deep copy with attach.
    pub deep: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DataClause {
    pub kind: DataClauseKind,
    /// `copyin(readonly: ...)`, `cache(readonly: ...)`
    pub readonly: bool,
    /// `copyout(zero: ...)`, `create(zero: ...)`
    pub zero: bool,
    pub vars: Vec<VarRef>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Reduction {
    pub op: RedOp,
    pub vars: Vec<VarRef>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ComputeConstruct {
    pub kind: ComputeKind,
    pub tuning: DeviceTyped<ComputeTuning>,
    pub if_cond: Option<ExprId>,
    /// `self` / `self(cond)`: `Some(None)` when given without a condition.
    pub self_cond: Option<Option<ExprId>>,
    pub default: Option<DefaultKind>,
    pub data: Vec<DataClause>,
    pub private: Vec<VarRef>,
    pub firstprivate: Vec<VarRef>,
    pub reductions: Vec<Reduction>,
    /// For a combined construct (`parallel loop`), the body is a single `For`
    /// carrying the loop directive.
    pub combined: bool,
    pub body: Block,
    /// The directive's own span (`#pragma acc parallel ...` line).
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct DataConstruct {
    pub if_cond: Option<ExprId>,
    pub default: Option<DefaultKind>,
    pub tuning: DeviceTyped<ComputeTuning>,
    pub data: Vec<DataClause>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct HostDataConstruct {
    pub if_cond: Option<ExprId>,
    pub if_present: bool,
    /// `use_device` variables: inside `body`, these pointer/array variables
    /// denote device addresses.
    pub use_device: Vec<VarRef>,
    pub body: Block,
    pub span: Span,
}

/// `gang` clause arguments (§2.9.2).
#[derive(Clone, Debug, Default)]
pub struct GangArgs {
    pub num: Option<ExprId>,
    /// `static:*` is `Some(None)`.
    pub static_: Option<Option<ExprId>>,
    /// `dim:` (1–3), a constant.
    pub dim: Option<u32>,
    /// The `gang` clause, for messages (`Span::DUMMY` when synthesised).
    pub span: Span,
}

/// Loop clauses that may follow `device_type`.
#[derive(Clone, Debug, Default)]
pub struct LoopTuning {
    pub gang: Option<GangArgs>,
    /// `worker` / `worker(num)`.
    pub worker: Option<Option<ExprId>>,
    pub vector: Option<Option<ExprId>>,
    pub seq: bool,
    pub auto: bool,
    pub independent: bool,
    /// (count, force)
    pub collapse: Option<(u32, bool)>,
    /// `tile(8, *)`: `None` entries are `*`.
    pub tile: Vec<Option<ExprId>>,
}

impl Overlay for LoopTuning {
    fn overlay(&self, o: &Self) -> Self {
        let level_given = o.gang.is_some() || o.worker.is_some() || o.vector.is_some() || o.seq || o.auto;
        LoopTuning {
            gang: if level_given { o.gang.clone() } else { self.gang.clone() },
            worker: if level_given { o.worker } else { self.worker },
            vector: if level_given { o.vector } else { self.vector },
            seq: if level_given { o.seq } else { self.seq },
            auto: if level_given { o.auto } else { self.auto },
            independent: o.independent || self.independent,
            collapse: o.collapse.or(self.collapse),
            tile: if o.tile.is_empty() { self.tile.clone() } else { o.tile.clone() },
        }
    }
}

/// `#pragma acc loop` as written; attached to the `For` it applies to.
#[derive(Clone, Debug)]
pub struct LoopDirective {
    pub tuning: DeviceTyped<LoopTuning>,
    pub private: Vec<VarRef>,
    pub reductions: Vec<Reduction>,
    /// The compute construct kind this loop is (lexically) inside, if any.
    pub construct: Option<ComputeKind>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExecKind {
    EnterData,
    ExitData {
        finalize: bool,
    },
    Update {
        if_present: bool,
    },
    /// The `wait` directive.
    Wait(WaitArgs),
    Init {
        device_types: Vec<String>,
        device_num: Option<ExprId>,
    },
    Shutdown {
        device_types: Vec<String>,
        device_num: Option<ExprId>,
    },
    /// `device_types`: the names as written (any name: which types exist
    /// and which are available is the runtime's business).
    Set {
        default_async: Option<ExprId>,
        device_num: Option<ExprId>,
        device_types: Vec<String>,
    },
    /// `cache(...)`: a hint; variables in `data`.
    Cache,
    /// `declare` at function scope: clauses in `data`, live until the function returns.
    Declare,
}

#[derive(Clone, Debug)]
pub struct ExecDirective {
    pub kind: ExecKind,
    pub data: Vec<DataClause>,
    pub if_cond: Option<ExprId>,
    pub async_: AsyncClause,
    /// The `wait` clause (not the directive).
    pub wait: Option<WaitArgs>,
    pub span: Span,
}

/// `declare` on a global variable.
#[derive(Clone, Debug)]
pub struct DeclareKind {
    pub kind: DataClauseKind,
    /// A section of the global (`declare copyin(a[2:n])`): its byte offset
    /// and byte count, constants known at compile time (the data is created
    /// before `main` runs). None: the whole variable.
    pub range: Option<(u64, u64)>,
    pub span: Span,
}

/// `#pragma acc atomic` in its structured forms (§2.12). `x` and `v` are places.
#[derive(Clone, Debug)]
pub enum AtomicOp {
    /// `v = x;`
    Read { v: ExprId, x: ExprId },
    /// `x = expr;`
    Write { x: ExprId, value: ExprId },
    /// `x op= expr;`, `x = x op expr;`, `x = expr op x;` (`reversed`), `x++` (op Add, value 1).
    /// Min/Max come from `x = fmax(x, e)`-style forms where a front end allows them.
    Update { x: ExprId, op: AtomicBinOp, value: ExprId, reversed: bool },
    /// Capture: `v = x op= expr;`, `v = x++;`, `{v = x; x op= expr;}`, … and the
    /// swap form `{v = x; x = expr;}` (`op` None). `capture_old`: v gets x's value
    /// before the update.
    Capture { v: ExprId, x: ExprId, op: Option<AtomicBinOp>, value: ExprId, reversed: bool, capture_old: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicBinOp {
    Add,
    Sub,
    Mul,
    Div,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Max,
    Min,
    LogAnd,
    LogOr,
}

impl AtomicBinOp {
    /// The expression operator computing `x op expr` for the operators that
    /// have one; `None` for min, max and the logical operators, which back
    /// ends build from comparisons and truth values.
    pub fn arith(self) -> Option<crate::module::BinOp> {
        use crate::module::BinOp;
        Some(match self {
            AtomicBinOp::Add => BinOp::Add,
            AtomicBinOp::Sub => BinOp::Sub,
            AtomicBinOp::Mul => BinOp::Mul,
            AtomicBinOp::Div => BinOp::Div,
            AtomicBinOp::BitAnd => BinOp::BitAnd,
            AtomicBinOp::BitOr => BinOp::BitOr,
            AtomicBinOp::BitXor => BinOp::BitXor,
            AtomicBinOp::Shl => BinOp::Shl,
            AtomicBinOp::Shr => BinOp::Shr,
            AtomicBinOp::Max | AtomicBinOp::Min | AtomicBinOp::LogAnd | AtomicBinOp::LogOr => return None,
        })
    }
}

// ---------------------------------------------------------------------------
// After lowering
// ---------------------------------------------------------------------------

/// One loop of a canonical nest: the body sees `var = lb + k * step` for
/// `k in 0..trip` (all i64 values computed before the loop).
#[derive(Clone, Debug)]
pub struct LoopDim {
    pub var: LocalId,
    pub lb: ExprId,
    pub step: ExprId,
    pub trip: ExprId,
}

/// A canonical OpenACC loop nest inside a kernel body: `dims.len()` loops
/// collapsed into one iteration space of `prod(trip)` iterations, partitioned
/// across the levels that are set (none set: sequential in every executor).
#[derive(Clone, Debug)]
pub struct AccLoop {
    pub dims: Vec<LoopDim>,
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
    /// `vector_length`/`vector(n)` hint, if constant.
    pub vector_len: Option<u32>,
    pub reductions: Vec<LoopReduction>,
    /// Locals private to each iteration executor (declared fresh per executor).
    pub privates: Vec<LocalId>,
    /// The dimension (1..=3) of the kernel's gang grid (`Kernel::gang_dims`)
    /// that a gang loop partitions (`gang(dim:d)`, OpenACC 3.3 §2.9.2): its
    /// iterations are spread over the grid's coordinate `d`, and gangs with the
    /// same coordinate `d` run the same iterations (redundantly along the other
    /// dimensions). 1 for every other loop.
    pub gang_dim: u8,
    /// For an `auto` loop, and a `kernels` loop without `independent`, what the
    /// dependence test decided (a compile report; the levels above are the
    /// decision itself). `None` for loops whose schedule was written.
    pub auto: Option<AutoChoice>,
    /// Run-time-sized private storage (`private(c[0:n])`), one per executor
    /// of this loop's levels, made before its first iteration and released
    /// after its last.
    pub private_copies: Vec<PrivateCopy>,
    pub body: Block,
    pub span: Span,
}

/// What `lower` chose for a loop whose schedule the compiler decides (§2.9.7).
#[derive(Clone, Debug, PartialEq)]
pub enum AutoChoice {
    /// The dependence test proved the iterations independent.
    Parallel,
    /// A dependence (or something the test cannot analyse) was found: the loop
    /// runs sequentially in each executor. The text names it, for reports.
    Sequential(String),
}

/// Private storage whose size is known only at run time: a `private` or
/// `firstprivate` subarray (`c[0:n]` on a pointer, `a[2:5]` on an array), or
/// the copy of a non-scalar reduction's objects (`RedStorage::Copy`).
///
/// Each executor that makes the copy gets `bytes` bytes of its own, aligned
/// for `elem_ty`, filled as `init` says. `ptr` is then set to the storage's
/// address minus `offset` bytes, so that the variable's own indexing (`c[i]`
/// for `i` in the section) reaches the copy: `ptr` has the variable's type
/// when the variable is a pointer, and is a pointer to the variable when it
/// is an array (the kernel then reads the array through `*ptr`); a
/// reduction's copy has offset 0 and `ptr` is its private `T *` local. The
/// storage lives until the scope that made it ends (`StmtKind::Privates`, the
/// `AccLoop`, or the end of the reduction's executor).
/// `bytes`, `offset` and `init` are evaluated once per copy, where it is made.
#[derive(Clone, Debug)]
pub struct PrivateCopy {
    pub ptr: LocalId,
    /// Size of the storage (i64).
    pub bytes: ExprId,
    /// Byte distance from what `ptr` denotes (`&c[0]`, `&a`) to the section (i64).
    pub offset: ExprId,
    /// Element type of the section (alignment of the storage; the object
    /// type an `Identity` fill stores).
    pub elem_ty: Type,
    pub init: CopyInit,
    pub span: Span,
}

/// What a `PrivateCopy` holds when it is made.
#[derive(Clone, Debug)]
pub enum CopyInit {
    /// `private`: undefined.
    Undefined,
    /// `firstprivate`: the bytes at this (device) address of the original
    /// section, copied in.
    From(ExprId),
    /// A reduction: every `elem_ty` object of the storage holds the
    /// operator's identity (structs member by member).
    Identity(RedOp),
}

impl CopyInit {
    /// The copy-in address, for firstprivate.
    pub fn from(&self) -> Option<ExprId> {
        match self {
            CopyInit::From(e) => Some(*e),
            _ => None,
        }
    }
}

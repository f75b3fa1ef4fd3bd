//! The Fortran abstract syntax tree the parser produces and `sema` lowers.
//!
//! It keeps what was written, structured: program units with their
//! specification and execution parts, block constructs nested (`do`/`end do`,
//! `if`/`end if`, `!$acc parallel`/`!$acc end parallel`), expressions with
//! Fortran's precedence already applied. Names are lower-case (Fortran is
//! case-insensitive); character literals and format text keep their case.
//! Nothing is resolved here: `a(i)` is an [`ExprKind::Apply`] whether `a` is an
//! array, a function or a type, because only `sema` knows which.
//! Every node carries the [`Span`] of its text in the original file.

use accjit_ir::acc::DataClauseKind;
use accjit_ir::Span;
use std::fmt;

pub use crate::Intent;

/// A name as written, lower-cased.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

/// One source file: its program units in order.
#[derive(Clone, Debug)]
pub struct File {
    pub units: Vec<ProgramUnit>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    Program,
    Module,
    Subroutine,
    Function,
    BlockData,
}

/// `pure`, `elemental`, `recursive`, `impure`, `module` and a function's type.
#[derive(Clone, Debug, Default)]
pub struct Prefix {
    pub pure: bool,
    pub impure: bool,
    pub elemental: bool,
    pub recursive: bool,
    /// `module function` / `module subroutine` (separate module procedures).
    pub module: bool,
    /// `real(8) function f(x)`: the result type written in the prefix.
    pub type_spec: Option<TypeSpec>,
}

/// A program, module, subroutine, function or block data, with its
/// contained procedures.
#[derive(Clone, Debug)]
pub struct ProgramUnit {
    pub kind: UnitKind,
    /// None only for a main program without a `program` statement.
    pub name: Option<Name>,
    pub prefix: Prefix,
    /// Dummy arguments in order (subroutines and functions).
    pub args: Vec<Name>,
    /// `result(r)` of a function.
    pub result: Option<Name>,
    /// `bind(c [, name="..."])`: `Some(None)` without a name.
    pub bind: Option<Option<String>>,
    /// The specification part (`use`, `implicit`, declarations, `!$acc
    /// routine`/`declare`, ...), in order.
    pub decls: Vec<Decl>,
    /// The execution part (empty for modules).
    pub body: Vec<Stmt>,
    /// Procedures after `contains` (module or internal procedures).
    pub contains: Vec<ProgramUnit>,
    /// The whole unit, first statement to `end`.
    pub span: Span,
    /// The unit's first statement (`subroutine f(a, b)`), for messages.
    pub head_span: Span,
}

// ---------------------------------------------------------------------------
// Types and declarations
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
pub enum BaseType {
    Integer,
    Real,
    /// `double precision` (kind given by the language: real(8)).
    DoublePrecision,
    Complex,
    /// `double complex`
    DoubleComplex,
    Logical,
    Character,
    /// `type(name)`
    Derived(Name),
    /// `class(name)`; `class(*)` is name `*`.
    Class(Name),
}

/// `character(len=...)`: a length expression, `*` (assumed) or `:` (deferred).
#[derive(Clone, Debug)]
pub enum CharLen {
    Expr(Expr),
    Assumed,
    Deferred,
}

/// A declaration type: `integer`, `real(kind=8)`, `real(dp)`, `character(len=10)`,
/// `type(point)`. Old-style sizes are turned into kinds by the parser: `real*8`
/// is kind 8, `complex*16` kind 8, `character*10` len 10.
#[derive(Clone, Debug)]
pub struct TypeSpec {
    pub base: BaseType,
    pub kind: Option<Expr>,
    pub len: Option<CharLen>,
    pub span: Span,
}

/// One dimension of an array spec: `n`, `l:u`, `:`, `l:`, `*`, `l:*`.
#[derive(Clone, Debug)]
pub struct DimSpec {
    pub lower: Option<Expr>,
    pub upper: Bound,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Bound {
    Expr(Expr),
    /// Nothing after the colon (or a lone `:`): assumed-shape or deferred-shape.
    Colon,
    /// `*`: assumed-size.
    Star,
}

#[derive(Clone, Debug)]
pub enum Attr {
    Parameter,
    Dimension(Vec<DimSpec>),
    Allocatable,
    Pointer,
    Target,
    Intent(Intent),
    Value,
    Optional,
    Save,
    External,
    Intrinsic,
    Public,
    Private,
    Protected,
    Contiguous,
    Volatile,
    Asynchronous,
    /// `bind(c [, name=...])`
    Bind(Option<String>),
}

/// The initialiser of an entity.
#[derive(Clone, Debug)]
pub enum Init {
    /// `= expr`
    Expr(Expr),
    /// `=> null()` or `=> target`
    Pointer(Expr),
    /// `/1, 2/` (old-style initialisation in a type declaration): data values.
    Data(Vec<DataValue>),
}

/// One declared name with its own array spec, length and initialiser:
/// `a(0:n-1, -1:m)`, `s*10`, `x = 1.0`, `p => null()`.
#[derive(Clone, Debug)]
pub struct Entity {
    pub name: Name,
    pub dims: Option<Vec<DimSpec>>,
    pub char_len: Option<CharLen>,
    pub init: Option<Init>,
    pub span: Span,
}

/// `type-spec [, attr]... :: entity, ...`
#[derive(Clone, Debug)]
pub struct TypeDecl {
    pub ty: TypeSpec,
    pub attrs: Vec<Attr>,
    pub entities: Vec<Entity>,
    pub span: Span,
}

/// One item of `use m, only: ...`: a plain name, a rename `local => remote`,
/// or a generic spec (`operator(+)`, `assignment(=)`).
#[derive(Clone, Debug)]
pub struct UseItem {
    /// The name in the using scope (`b` of `b => c`).
    pub local: Name,
    /// The name in the module (`c` of `b => c`; equal to `local` without a rename).
    pub remote: Name,
}

/// One letter range of an `implicit` rule: `a-h` is ('a', 'h'), `x` is ('x', 'x').
#[derive(Clone, Debug)]
pub struct ImplicitRule {
    pub ty: TypeSpec,
    pub letters: Vec<(char, char)>,
    pub span: Span,
}

/// A value of a data statement: `3*0.0` is repeat 3 of 0.0.
#[derive(Clone, Debug)]
pub struct DataValue {
    pub repeat: Option<Expr>,
    pub value: Expr,
    pub span: Span,
}

/// An object of a data statement: a variable / element / section, or an implied do
/// `(a(i), i = 1, n)`.
#[derive(Clone, Debug)]
pub enum DataObject {
    Var(Expr),
    ImpliedDo(Box<ImpliedDo<DataObject>>),
}

/// `objects / values /`
#[derive(Clone, Debug)]
pub struct DataSet {
    pub objects: Vec<DataObject>,
    pub values: Vec<DataValue>,
    pub span: Span,
}

/// A derived type definition.
#[derive(Clone, Debug)]
pub struct DerivedType {
    pub name: Name,
    /// `public`, `private`, `bind(c)`, ... on the `type` statement.
    pub attrs: Vec<Attr>,
    /// `extends(parent)`
    pub extends: Option<Name>,
    pub sequence: bool,
    /// `private` statement among the components.
    pub private_components: bool,
    pub components: Vec<TypeDecl>,
    pub span: Span,
}

/// What an interface block declares.
#[derive(Clone, Debug)]
pub enum GenericSpec {
    Name(Name),
    /// `operator(+)`, `operator(.cross.)`: the operator as written, lower-cased.
    Operator(String, Span),
    /// `assignment(=)`
    Assignment(Span),
}

#[derive(Clone, Debug)]
pub struct InterfaceBlock {
    /// None for a plain `interface` (explicit interfaces of external procedures).
    pub generic: Option<GenericSpec>,
    pub abstract_: bool,
    /// Interface bodies: subroutine/function units with declarations and no body.
    pub bodies: Vec<ProgramUnit>,
    /// `module procedure a, b` / `procedure a, b` inside a generic interface.
    pub procedures: Vec<Name>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Decl {
    pub kind: DeclKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum DeclKind {
    /// `use [, intrinsic ::] m [, renames] [, only: items]`. `only` None: everything
    /// (with `renames` applied).
    Use {
        module: Name,
        intrinsic: bool,
        renames: Vec<UseItem>,
        only: Option<Vec<UseItem>>,
    },
    /// `implicit none`
    ImplicitNone,
    /// `implicit real(8) (a-h, o-z), integer (i-n)`
    Implicit(Vec<ImplicitRule>),
    TypeDecl(TypeDecl),
    /// `parameter (n = 10, m = 2*n)`
    Parameter(Vec<(Name, Expr)>),
    /// An attribute statement: `dimension a(10), b(n)` (attr `Dimension` with no
    /// specs: each entity has its own), `allocatable :: x(:)`,
    /// `save [:: a, b]` (empty entity list: everything), `external f`,
    /// `intrinsic sin`, `intent(in) :: a`, `optional x`, `value n`, `target t`,
    /// `pointer p`, `public/private [:: names]` (empty: the default). A common
    /// block in `save /c/` is an entity named `/c/`.
    AttrStmt {
        attr: Attr,
        entities: Vec<Entity>,
    },
    /// `data a /1, 2/, b(3) /3*0.0/`
    Data(Vec<DataSet>),
    /// `common /name/ a, b(10) [, /other/ c]`; blank common has name None.
    Common(Vec<(Option<Name>, Vec<Entity>)>),
    DerivedType(DerivedType),
    Interface(InterfaceBlock),
    /// Not produced by the parser: a `format` statement in the specification part
    /// goes to the unit's body as `StmtKind::Format`, where its label is kept.
    Format(Format),
    /// `!$acc routine`, `!$acc declare`, or any other directive the parser
    /// met in the specification part (sema diagnoses the misplaced ones).
    Acc(AccDirective),
    /// `sequence`, `contains` inside types etc. are consumed by the parser; statements
    /// the parser recognises but the front end does not implement (`equivalence`,
    /// `namelist`, `procedure(...) ::`): the keyword, for a clear diagnostic in sema.
    Unsupported(String),
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
pub struct Stmt {
    /// The statement label (`10 continue`).
    pub label: Option<u64>,
    pub kind: StmtKind,
    pub span: Span,
}

/// `var = start, end [, step]` of a do loop or an implied do.
#[derive(Clone, Debug)]
pub struct LoopControl {
    pub var: Name,
    pub start: Expr,
    pub end: Expr,
    pub step: Option<Expr>,
}

/// `(items, var = start, end [, step])` in an array constructor, an I/O list or
/// a data statement.
#[derive(Clone, Debug)]
pub struct ImpliedDo<T> {
    pub items: Vec<T>,
    pub control: LoopControl,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum DoControl {
    /// `do` with no control (ends by `exit`).
    Forever,
    Counted(LoopControl),
    While(Expr),
    /// `do concurrent (i = 1:n, j = 1:m:2, mask) [local(x)] [shared(y)]...`
    Concurrent {
        /// (index, lower, upper, step)
        indices: Vec<(Name, Expr, Expr, Option<Expr>)>,
        mask: Option<Expr>,
        /// `integer ::` type spec in the header, if written.
        index_type: Option<TypeSpec>,
        /// Locality specs: ("local" | "local_init" | "shared" | "default", names).
        locality: Vec<(String, Vec<Name>)>,
    },
}

/// `case (1, 3:5, :0, 10:)` / `case default`.
#[derive(Clone, Debug)]
pub enum CaseValue {
    Single(Expr),
    /// `lo:hi`, `:hi`, `lo:`
    Range(Option<Expr>, Option<Expr>),
}

#[derive(Clone, Debug)]
pub struct CaseBlock {
    /// None: `case default`.
    pub values: Option<Vec<CaseValue>>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

/// The unit of an I/O statement.
#[derive(Clone, Debug)]
pub enum IoUnit {
    /// `*`
    Star,
    Expr(Expr),
}

/// The format of an I/O statement.
#[derive(Clone, Debug)]
pub enum FormatSpec {
    /// `*`: list-directed.
    Star,
    /// `100` (label of a `format` statement) or `fmt=100`.
    Label(u64, Span),
    /// A character expression: `'(i5, f8.3)'` or a variable holding a format.
    Expr(Expr),
}

/// Control list of read/write/print (and open/close): unit, format and the
/// other specifiers (`iostat=`, `advance=`, `iomsg=`, `err=`, `end=`, `rec=`,
/// `status=`, `file=`, ...) by lower-case keyword.
#[derive(Clone, Debug, Default)]
pub struct IoControl {
    pub unit: Option<IoUnit>,
    pub format: Option<FormatSpec>,
    pub specs: Vec<(Name, Expr)>,
}

#[derive(Clone, Debug)]
pub enum IoItem {
    Expr(Expr),
    ImpliedDo(Box<ImpliedDo<IoItem>>),
}

/// A `format` statement: its text from the opening parenthesis to the closing
/// one inclusive (`(i5, f8.3)`, as a format string in `write(*, '(i5)')` is
/// written and as the runtime takes it), case kept (it may hold character
/// strings), and its span.
#[derive(Clone, Debug)]
pub struct Format {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `lhs = rhs` (lhs a name, element, section or component).
    Assign {
        lhs: Expr,
        rhs: Expr,
    },
    /// `p => target`
    PointerAssign {
        lhs: Expr,
        rhs: Expr,
    },
    /// `[name:] if (c) then ... else if (c2) then ... else ... end if`
    If {
        name: Option<Name>,
        arms: Vec<(Expr, Vec<Stmt>)>,
        else_body: Option<Vec<Stmt>>,
    },
    /// `if (c) stmt`
    LogicalIf {
        cond: Expr,
        stmt: Box<Stmt>,
    },
    /// `[name:] do [label] [control] ... end do` / labelled `do 10 i = ...` ending at
    /// `10 continue` (the terminating statement is the last of `body`).
    Do {
        name: Option<Name>,
        label: Option<u64>,
        control: DoControl,
        body: Vec<Stmt>,
    },
    Exit(Option<Name>),
    Cycle(Option<Name>),
    /// `[name:] select case (selector) ... end select`
    SelectCase {
        name: Option<Name>,
        selector: Expr,
        cases: Vec<CaseBlock>,
    },
    /// `[name:] block ... end block`
    Block {
        name: Option<Name>,
        decls: Vec<Decl>,
        body: Vec<Stmt>,
    },
    /// `where (mask) a = b` or the construct: arms (mask, body); an `elsewhere` without
    /// a mask is the last arm with mask None.
    Where {
        arms: Vec<(Option<Expr>, Vec<Stmt>)>,
    },
    /// `forall (i = 1:n, mask) stmt` / construct.
    Forall {
        indices: Vec<(Name, Expr, Expr, Option<Expr>)>,
        mask: Option<Expr>,
        body: Vec<Stmt>,
    },
    Goto(u64),
    /// `go to (10, 20, 30) i`
    ComputedGoto {
        labels: Vec<u64>,
        index: Expr,
    },
    /// `call name(args)`; `call a%proc(args)` has a component expression as callee.
    Call {
        callee: Expr,
        args: Vec<Arg>,
    },
    /// `return [expr]`
    Return(Option<Expr>),
    /// `stop [code]`, `error stop [code]` (code an integer or a character expression),
    /// `, quiet = expr`.
    Stop {
        error: bool,
        code: Option<Expr>,
        quiet: Option<Expr>,
    },
    /// `allocate([type-spec ::] a(n, 0:m), b(k) [, stat=s] [, errmsg=m] [, source=x] [, mold=x])`:
    /// each object is an `Apply` whose args are the bounds (`Range` for `0:m`).
    Allocate {
        type_spec: Option<TypeSpec>,
        objects: Vec<Expr>,
        specs: Vec<(Name, Expr)>,
    },
    /// `deallocate(a, b [, stat=s] [, errmsg=m])`
    Deallocate {
        objects: Vec<Expr>,
        specs: Vec<(Name, Expr)>,
    },
    /// `nullify(p, q)`
    Nullify(Vec<Expr>),
    /// `print fmt, items` (unit None).
    Print {
        format: FormatSpec,
        items: Vec<IoItem>,
    },
    /// `write(control) items`
    Write {
        control: IoControl,
        items: Vec<IoItem>,
    },
    /// `read(control) items` / `read fmt, items` (unit None).
    Read {
        control: IoControl,
        items: Vec<IoItem>,
    },
    /// `open(...)`, `close(...)`, `rewind`, `backspace`, `flush`, `inquire`:
    /// the keyword and its control list.
    FileOp {
        op: String,
        control: IoControl,
    },
    /// `format(...)` among executable statements.
    Format(Format),
    /// `data` among executable statements.
    Data(Vec<DataSet>),
    Continue,
    /// An OpenACC directive with the statements it applies to: for `parallel`,
    /// `kernels`, `serial`, `data`, `host_data` the body up to the matching
    /// `!$acc end ...`; for `loop` and the combined `parallel loop` /
    /// `kernels loop` / `serial loop` the following do loop (and the optional
    /// `!$acc end parallel loop` line is consumed); for `atomic` the one
    /// statement (or, for a capture with `!$acc end atomic`, the two);
    /// empty for executable directives (`update`, `enter data`, `wait`, ...).
    Acc {
        dir: AccDirective,
        body: Vec<Stmt>,
        end_span: Option<Span>,
    },
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

/// The kind parameter of a literal: `1_8`, `1.0_dp`.
#[derive(Clone, Debug, PartialEq)]
pub enum KindParam {
    Int(u64),
    Name(Name),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Plus,
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Pow,
    Mul,
    Div,
    Add,
    Sub,
    /// `//`
    Concat,
    /// `==` / `.eq.`
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Eqv,
    Neqv,
}

/// An actual argument or a subscript: `x`, `n = 5` (keyword), `1:n:2`, `:`.
#[derive(Clone, Debug)]
pub struct Arg {
    pub keyword: Option<Name>,
    pub value: ArgValue,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ArgValue {
    Expr(Expr),
    /// A section subscript `lo:hi:stride`, any part omitted.
    Range {
        lo: Option<Expr>,
        hi: Option<Expr>,
        stride: Option<Expr>,
    },
    /// `*10`: an alternate-return label (accepted for a diagnostic).
    Label(u64),
}

/// An item of an array constructor.
#[derive(Clone, Debug)]
pub enum AcItem {
    Expr(Expr),
    ImpliedDo(Box<ImpliedDo<AcItem>>),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal (digits as a value; a minus sign is a `Unary`).
    Int {
        value: u128,
        kind: Option<KindParam>,
    },
    /// A real literal: `text` as written (lower-case, exponent letter kept:
    /// `1.5d0`, `2.5e-3`, `1.`), `value` its f64 value, `double` when the exponent
    /// letter is `d` (double precision), and the `_kind` suffix.
    Real {
        text: String,
        value: f64,
        double: bool,
        kind: Option<KindParam>,
    },
    /// `(re, im)` complex literal (each part a signed int or real literal).
    Complex {
        re: Box<Expr>,
        im: Box<Expr>,
    },
    Logical {
        value: bool,
        kind: Option<KindParam>,
    },
    /// A character literal, quotes removed and doubled quotes undone; `kind_` prefix kept.
    Char {
        value: String,
        kind: Option<KindParam>,
    },
    /// `b'1010'`, `o'17'`, `z'ff'`: the value.
    Boz {
        value: u128,
    },
    Name(Name),
    /// `base(args)`: an array element or section, a function call, a structure
    /// constructor, a type conversion or a substring — `sema` decides which.
    /// A substring of an element (`a(k)(i:j)`) is an `Apply` of an `Apply`.
    Apply {
        base: Box<Expr>,
        args: Vec<Arg>,
    },
    /// `base%name`
    Component {
        base: Box<Expr>,
        name: Name,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A user-defined operator `.op.` (name without dots), unary (lhs None) or binary.
    Defined {
        op: String,
        lhs: Option<Box<Expr>>,
        rhs: Box<Expr>,
    },
    /// `(e)`: kept because parentheses matter in Fortran (evaluation order, and
    /// `(x)` as an actual argument is a value, not a variable).
    Paren(Box<Expr>),
    /// `(/ ... /)` or `[ ... ]`, with an optional `type-spec ::`.
    ArrayCtor {
        type_spec: Option<Box<TypeSpec>>,
        items: Vec<AcItem>,
    },
}

// ---------------------------------------------------------------------------
// OpenACC directives
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicKind {
    Read,
    Write,
    /// Also a bare `!$acc atomic`.
    Update,
    Capture,
}

#[derive(Clone, Debug)]
pub enum AccKind {
    Parallel,
    Kernels,
    Serial,
    ParallelLoop,
    KernelsLoop,
    SerialLoop,
    Loop,
    Data,
    EnterData,
    ExitData,
    HostData,
    Update,
    /// The `wait` directive with its optional argument list.
    Wait(Option<AccWaitArgs>),
    /// `cache([readonly:] list)`
    Cache {
        readonly: bool,
        vars: Vec<Expr>,
    },
    Atomic(AtomicKind),
    Declare,
    /// `routine [(name)]`
    Routine(Option<Name>),
    Init,
    Shutdown,
    Set,
}

impl AccKind {
    /// The directive name as written in `!$acc end <name>` and messages.
    pub fn name(&self) -> &'static str {
        match self {
            AccKind::Parallel => "parallel",
            AccKind::Kernels => "kernels",
            AccKind::Serial => "serial",
            AccKind::ParallelLoop => "parallel loop",
            AccKind::KernelsLoop => "kernels loop",
            AccKind::SerialLoop => "serial loop",
            AccKind::Loop => "loop",
            AccKind::Data => "data",
            AccKind::EnterData => "enter data",
            AccKind::ExitData => "exit data",
            AccKind::HostData => "host_data",
            AccKind::Update => "update",
            AccKind::Wait(_) => "wait",
            AccKind::Cache { .. } => "cache",
            AccKind::Atomic(_) => "atomic",
            AccKind::Declare => "declare",
            AccKind::Routine(_) => "routine",
            AccKind::Init => "init",
            AccKind::Shutdown => "shutdown",
            AccKind::Set => "set",
        }
    }
}

/// `wait([devnum: n :] [queues:] q1, q2)` arguments (clause or directive).
#[derive(Clone, Debug, Default)]
pub struct AccWaitArgs {
    pub devnum: Option<Expr>,
    pub queues: Vec<Expr>,
}

/// Reduction operators as Fortran writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccRedOp {
    Add,
    Mul,
    Max,
    Min,
    Iand,
    Ior,
    Ieor,
    And,
    Or,
    Eqv,
    Neqv,
}

#[derive(Clone, Debug)]
pub struct AccClause {
    pub kind: AccClauseKind,
    pub span: Span,
}

/// A clause. Variables (`AccVar`) are expressions: a name, an element, a
/// section `a(1:n, :)` (an `Apply` with `Range` args) or a component `s%a`.
/// A common block `/blk/` in `declare` is a `Name` whose text is `/blk/`.
#[derive(Clone, Debug)]
pub enum AccClauseKind {
    /// `copy`, `copyin`, `copyout`, `create`, `no_create`, `present`, `deviceptr`,
    /// `attach`, `detach`, `delete`, `link`, `device_resident`, `use_device`,
    /// `self`/`host` and `device` of `update`; the `pcopy`/`present_or_copy`
    /// spellings map onto the plain ones.
    Data {
        kind: DataClauseKind,
        readonly: bool,
        zero: bool,
        vars: Vec<Expr>,
    },
    Private(Vec<Expr>),
    FirstPrivate(Vec<Expr>),
    Reduction {
        op: AccRedOp,
        vars: Vec<Expr>,
    },
    If(Expr),
    /// `self [(cond)]` on compute constructs.
    SelfCond(Option<Expr>),
    Default(accjit_ir::acc::DefaultKind),
    /// `async [(q)]`
    Async(Option<Expr>),
    /// `wait [(args)]`
    Wait(Option<AccWaitArgs>),
    NumGangs(Vec<Expr>),
    NumWorkers(Expr),
    VectorLength(Expr),
    /// `gang [([num:] n, static: s|*, dim: d)]`: static `Some(None)` is `static:*`.
    Gang {
        num: Option<Expr>,
        static_: Option<Option<Expr>>,
        dim: Option<Expr>,
    },
    Worker(Option<Expr>),
    Vector(Option<Expr>),
    Seq,
    Auto,
    Independent,
    Collapse {
        count: Expr,
        force: bool,
    },
    /// `tile(8, *)`: None is `*`.
    Tile(Vec<Option<Expr>>),
    /// `device_type(nvidia, host)` / `dtype(*)`: names lower-case, `*` as "*".
    /// The clauses after it (until the next `device_type`) belong to its group.
    DeviceType(Vec<String>),
    Finalize,
    IfPresent,
    DeviceNum(Expr),
    DefaultAsync(Expr),
    /// `routine ... bind(name)` / `bind("name")`
    Bind(String),
    Nohost,
}

/// One `!$acc` line (with its continuations), clauses in written order.
#[derive(Clone, Debug)]
pub struct AccDirective {
    pub kind: AccKind,
    pub clauses: Vec<AccClause>,
    pub span: Span,
}

// ---------------------------------------------------------------------------
// Printing: expressions in Fortran syntax (for messages and the `text` of
// OpenACC variable references). Parentheses are those written (`Paren`);
// operators print in their symbolic form.
// ---------------------------------------------------------------------------

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Pow => "**",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Concat => "//",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "/=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::And => ".and.",
            BinaryOp::Or => ".or.",
            BinaryOp::Eqv => ".eqv.",
            BinaryOp::Neqv => ".neqv.",
        }
    }
}

impl fmt::Display for KindParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KindParam::Int(v) => write!(f, "_{}", v),
            KindParam::Name(n) => write!(f, "_{}", n.text),
        }
    }
}

fn opt_kind(k: &Option<KindParam>) -> String {
    k.as_ref().map(|k| k.to_string()).unwrap_or_default()
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(k) = &self.keyword {
            write!(f, "{}=", k.text)?;
        }
        match &self.value {
            ArgValue::Expr(e) => write!(f, "{}", e),
            ArgValue::Range { lo, hi, stride } => {
                if let Some(lo) = lo {
                    write!(f, "{}", lo)?;
                }
                write!(f, ":")?;
                if let Some(hi) = hi {
                    write!(f, "{}", hi)?;
                }
                if let Some(st) = stride {
                    write!(f, ":{}", st)?;
                }
                Ok(())
            }
            ArgValue::Label(l) => write!(f, "*{}", l),
        }
    }
}

impl fmt::Display for AcItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AcItem::Expr(e) => write!(f, "{}", e),
            AcItem::ImpliedDo(d) => {
                write!(f, "(")?;
                for it in &d.items {
                    write!(f, "{}, ", it)?;
                }
                let c = &d.control;
                write!(f, "{}={}, {}", c.var.text, c.start, c.end)?;
                if let Some(s) = &c.step {
                    write!(f, ", {}", s)?;
                }
                write!(f, ")")
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Int { value, kind } => write!(f, "{}{}", value, opt_kind(kind)),
            ExprKind::Real { text, kind, .. } => write!(f, "{}{}", text, opt_kind(kind)),
            ExprKind::Complex { re, im } => write!(f, "({}, {})", re, im),
            ExprKind::Logical { value, kind } => write!(f, ".{}.{}", if *value { "true" } else { "false" }, opt_kind(kind)),
            ExprKind::Char { value, .. } => write!(f, "'{}'", value.replace('\'', "''")),
            ExprKind::Boz { value } => write!(f, "z'{:x}'", value),
            ExprKind::Name(n) => write!(f, "{}", n.text),
            ExprKind::Apply { base, args } => {
                write!(f, "{}(", base)?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", a)?;
                }
                write!(f, ")")
            }
            ExprKind::Component { base, name } => write!(f, "{}%{}", base, name.text),
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Plus => write!(f, "+{}", operand),
                UnaryOp::Neg => write!(f, "-{}", operand),
                UnaryOp::Not => write!(f, ".not. {}", operand),
            },
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Pow | BinaryOp::Mul | BinaryOp::Div => write!(f, "{}{}{}", lhs, op.symbol(), rhs),
                _ => write!(f, "{} {} {}", lhs, op.symbol(), rhs),
            },
            ExprKind::Defined { op, lhs, rhs } => match lhs {
                Some(l) => write!(f, "{} .{}. {}", l, op, rhs),
                None => write!(f, ".{}. {}", op, rhs),
            },
            ExprKind::Paren(e) => write!(f, "({})", e),
            ExprKind::ArrayCtor { items, .. } => {
                write!(f, "[")?;
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", it)?;
                }
                write!(f, "]")
            }
        }
    }
}

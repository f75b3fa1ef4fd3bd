//! The per-function lowering context [`Cx`]: the IR function being built,
//! the Python names it knows (parameters, locals, arrays, the globals of
//! its `env`), the compute region it is in, and the module-wide state
//! ([`Shared`]: the module, source files, routine specialisations, extern
//! declarations) shared by every function compiled for one request.
//!
//! Python has one scope per function: a name is a local from its first
//! assignment on, and its type is fixed there. Temporaries an expression
//! needs are declared by statements queued in `pending`, emitted just
//! before the statement being built (as the C front end does for compound
//! literals), so that inside an acc loop they are private to an iteration.
//!
//! The OpenACC spelling (acc.loop, clauses, data constructs, atomics) is in
//! `acc/` and uses this context through the methods below.

use crate::tree::{Node, Value};
use crate::types::{dtype_name, Weak};
use crate::Layout;
use accjit_ir::{
    build, BinOp, ComputeKind, Diagnostic, ExprId, ExprKind, ExternFunc, ExternId, FuncId, FuncSig, Function, Level, LocalId, Module, Span, Stmt, StmtKind,
    Type,
};
use std::collections::HashMap;

/// A source file a request's trees point into, with its line starts for
/// turning `ast` positions (line, byte column) into byte offsets.
#[derive(Clone, Debug)]
pub(crate) struct FileInfo {
    pub id: u32,
    pub line_starts: Vec<u32>,
    pub len: u32,
}

impl FileInfo {
    pub fn new(id: u32, text: &str) -> FileInfo {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        FileInfo { id, line_starts, len: text.len() as u32 }
    }
    fn offset(&self, line: u32, col: u32) -> u32 {
        match self.line_starts.get((line as usize).wrapping_sub(1)) {
            Some(&s) => (s + col).min(self.len),
            None => self.len,
        }
    }
    pub fn span(&self, pos: (u32, u32, u32, u32)) -> Span {
        if pos.0 == 0 {
            return Span::new(self.id, 0, 0);
        }
        let lo = self.offset(pos.0, pos.1);
        let hi = if pos.2 == 0 { lo } else { self.offset(pos.2, pos.3).max(lo) };
        Span::new(self.id, lo, hi)
    }
}

/// What a global (or closure) name used by a function denotes: one item
/// of the function's `env` (see `lib.rs`).
#[derive(Clone, Debug)]
pub(crate) enum EnvItem {
    /// A frozen constant: its value, type and NEP 50 weakness (a Python
    /// `int`/`float`/`complex` is weak, a NumPy scalar is not).
    Const { value: Value, ty: Type, weak: Weak },
    /// `math`, `cmath`, `numpy`, `accjit`.
    Module(String),
    /// A function imported by name, by its qualified name (`math.sqrt`).
    Func(String),
    /// An `@acc.routine` function, by its reference (qualified name).
    Routine(String),
    /// A name that cannot be used, and why.
    Unsupported(String),
}

/// The source of an `@acc.routine` function: its `FunctionDef`, `env`,
/// file and level.
#[derive(Clone, Debug)]
pub(crate) struct RoutineDef {
    pub func: Node,
    pub env: Vec<Node>,
    pub file: String,
    pub level: Level,
}

/// How a routine is specialised: the types of its arguments at a call site.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ParamKey {
    Scalar(Type),
    Array { elem: Type, ndim: u8, layout: Layout, writable: bool, half: bool },
}

/// Module-wide state for one request.
#[derive(Default)]
pub(crate) struct Shared {
    pub m: Module,
    pub files: HashMap<String, FileInfo>,
    pub routines: HashMap<String, RoutineDef>,
    /// Routine specialisations made so far, by (reference, argument types).
    pub specs: HashMap<(String, Vec<ParamKey>), FuncId>,
    /// The results of a specialisation once its first `return` fixed them
    /// (`None` while still unknown: a recursive call then cannot be typed).
    pub spec_ret: HashMap<FuncId, Option<RetShape>>,
    pub externs: HashMap<String, ExternId>,
    /// Helper functions built in IR (`__py_ipow`), by name.
    pub helpers: HashMap<String, FuncId>,
    /// String constants (`print`'s formats), by their bytes.
    pub strings: HashMap<Vec<u8>, accjit_ir::GlobalId>,
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
}

/// Stride of one array dimension, in elements.
#[derive(Clone, Debug, PartialEq)]
pub enum Stride {
    /// The contiguous dimension of a C/F array.
    One,
    /// An i64 local holding the stride (a parameter for strided arrays, a
    /// product of extents computed at function entry for C/F arrays).
    Local(LocalId),
}

/// An array the function can index: a NumPy array argument unpacked into
/// its base pointer, extents and strides.
#[derive(Clone, Debug)]
pub struct ArrayVar {
    /// The Python name of the array (the argument's name).
    pub name: String,
    /// `Ptr(elem)` local: the address of the first element.
    pub base: LocalId,
    pub elem: Type,
    pub ndim: u8,
    /// i64 locals: the extents.
    pub shape: Vec<LocalId>,
    pub strides: Vec<Stride>,
    pub layout: Layout,
    pub writable: bool,
    /// A float16 array: `elem` is `u16` (the bit patterns); see `half.rs`.
    pub half: bool,
}

/// What a Python name denotes inside the function.
#[derive(Clone, Debug)]
pub enum Var {
    /// A scalar local (or parameter) of this type.
    Scalar {
        local: LocalId,
        ty: Type,
    },
    Array(ArrayVar),
    /// A tuple held in one local per element (`t = (a, b)`, `s = a.shape`).
    Tuple(Vec<(LocalId, Type)>),
}

/// A value usable more than once (see [`Cx::dup`]).
#[derive(Clone, Debug)]
pub struct Dup(DupKind);

impl Dup {
    /// Whether the value went into a temporary (its first expression stores it).
    pub fn stored(&self) -> bool {
        matches!(self.0, DupKind::Temp(_))
    }
}

#[derive(Clone, Debug)]
enum DupKind {
    Temp(LocalId),
    Copy(ExprId),
}

/// What a called expression denotes (see [`Cx::resolve_call`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// `acc.loop`, `acc.parallel`, `acc.atomic.add`, `acc.update_self`, …:
    /// the name after `acc.`.
    Acc(String),
    /// A math function (`math.sqrt`, `np.sqrt`, `sqrt` imported by name):
    /// its NumPy/math name.
    Math(String),
    /// A cast to a NumPy scalar type (`np.float32(x)`).
    Cast(Type),
    /// An `@acc.routine` function, by its reference.
    Routine(String),
    /// A Python builtin the front end knows (`range`, `len`, `min`, `abs`, …).
    Builtin(String),
    Unknown,
}

/// The kind of function being compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnKind {
    /// `@acc.parallel/kernels/serial`: prologue, region, epilogue.
    Compute(ComputeKind),
    /// `@acc.jit`: host code with regions in `with` blocks.
    Jit,
    /// An `@acc.routine` specialisation (a device-callable function).
    Routine(Level),
}

/// What a routine returns: one value (or `Void`), or a tuple, which it
/// stores through pointer parameters after its own (one per element).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RetShape {
    Value(Type),
    Tuple(Vec<Type>),
}

/// Where `return` puts values.
#[derive(Clone, Debug)]
pub(crate) enum Ret {
    /// The entry function's results buffer (`EntryParam::Results`): types
    /// fixed by the first `return`, and where it is.
    Buffer { local: Option<LocalId>, types: Option<Vec<Type>>, first: Span },
    /// A routine's return value.
    Value { func: FuncId, ty: Option<Type>, first: Span },
    /// A routine returning a tuple: its pointer parameters, one per element
    /// (typed when the first `return` fixes the element types).
    Outs { func: FuncId, outs: Vec<LocalId>, types: Option<Vec<Type>>, first: Span },
}

/// An rvalue while it is being typed: its expression, its Python type
/// (which differs from the IR type only for truth values: comparisons are
/// IR `int` but Python `bool`), and its NEP 50 weakness.
#[derive(Clone, Debug)]
pub(crate) struct Val {
    pub e: ExprId,
    pub ty: Type,
    pub weak: Weak,
}

/// The per-function lowering context.
pub struct Cx<'a> {
    pub(crate) sh: &'a mut Shared,
    /// The function being built.
    pub f: Function,
    pub(crate) file: FileInfo,
    pub(crate) env: HashMap<String, EnvItem>,
    pub(crate) vars: HashMap<String, Var>,
    /// Where each local was first assigned (for messages) and whether that
    /// was inside the compute region.
    pub(crate) first_assigned: HashMap<String, (Span, bool)>,
    /// Declarations of temporaries for the statement being built.
    pub(crate) pending: Vec<Stmt>,
    pub(crate) region: Option<ComputeKind>,
    pub kind: FnKind,
    pub(crate) loops: u32,
    pub(crate) ret: Ret,
    /// In a compute-region function: the prologue's names, in order.
    pub prologue: Vec<String>,
    /// In a compute-region function: the names its final `return` returns.
    pub returned: Vec<String>,
    /// True while compiling the epilogue (after the region).
    pub(crate) in_epilogue: bool,
    pub(crate) tmp_count: u32,
    /// Locals declared by `for` loops (a later loop over the same name
    /// declares a new one).
    pub(crate) loop_vars: std::collections::HashSet<LocalId>,
    /// Names of the parameters, in order.
    pub params: Vec<String>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(sh: &'a mut Shared, f: Function, file: FileInfo, env: HashMap<String, EnvItem>, kind: FnKind, ret: Ret) -> Cx<'a> {
        Cx {
            sh,
            f,
            file,
            env,
            vars: HashMap::new(),
            first_assigned: HashMap::new(),
            pending: vec![],
            region: None,
            kind,
            loops: 0,
            ret,
            prologue: vec![],
            returned: vec![],
            in_epilogue: false,
            tmp_count: 0,
            loop_vars: Default::default(),
            params: vec![],
        }
    }
}

impl Cx<'_> {
    /// The source span of a node.
    pub fn span(&self, n: &Node) -> Span {
        self.file.span(n.pos)
    }

    /// An error at `n`.
    pub fn err(&self, n: &Node, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.span(n), msg)
    }

    /// The module being built (read-only; structs for sizes, functions).
    pub fn module(&self) -> &Module {
        &self.sh.m
    }

    /// An rvalue of `n`, typed by NumPy's rules (truth values as `bool`).
    pub fn expr(&mut self, n: &Node) -> Result<ExprId, Diagnostic> {
        let v = self.value(n)?;
        Ok(self.finish(&v))
    }

    /// An rvalue of `n` converted to `ty` (any conversion NumPy's `astype`
    /// would do: clause arguments, indices).
    pub fn expr_as(&mut self, n: &Node, ty: &Type) -> Result<ExprId, Diagnostic> {
        let v = self.value(n)?;
        let sp = self.span(n);
        Ok(self.convert(&v, ty, sp))
    }

    /// The type an expression has (its IR type).
    pub fn type_of(&self, e: ExprId) -> Type {
        self.f.expr(e).ty.clone()
    }

    /// The place of `n`: a local (`s`) or an array element (`a[i, j]`).
    /// Writing it must be allowed: read-only arrays are refused here.
    pub fn place(&mut self, n: &Node) -> Result<ExprId, Diagnostic> {
        self.place_of(n, true)
    }

    /// The place of `n` for reading only (`acc.atomic.read(a, i)`).
    pub fn place_read(&mut self, n: &Node) -> Result<ExprId, Diagnostic> {
        self.place_of(n, false)
    }

    /// Statements of a Python block, in a fresh pending scope.
    pub fn block(&mut self, body: &[&Node]) -> Result<Block, Diagnostic> {
        let saved = std::mem::take(&mut self.pending);
        let mut out = vec![];
        let mut r = Ok(());
        for s in body {
            r = self.stmt(s, &mut out);
            if r.is_err() {
                break;
            }
        }
        self.pending = saved;
        r.map(|_| Block::new(out))
    }

    /// The body of a compute construct of kind `kind`: `body` compiled as
    /// region code (acc loops allowed, `return` refused, plain `for` loops
    /// `seq` or `auto`). `acc::compute`'s body closures call this.
    pub fn compute_body(&mut self, kind: ComputeKind, body: &[&Node]) -> Result<Block, Diagnostic> {
        let saved = self.region.replace(kind);
        let r = self.block(body);
        self.region = saved;
        r
    }

    /// What `name` denotes as a local, parameter or array, if anything.
    pub fn var(&self, name: &str) -> Option<Var> {
        self.vars.get(name).cloned()
    }

    /// Whether the code being compiled is inside a compute region.
    pub fn in_region(&self) -> bool {
        self.region.is_some()
    }

    pub fn region_kind(&self) -> Option<ComputeKind> {
        self.region
    }

    /// Whether `name` is a scalar of the prologue of a compute-region function.
    pub fn is_prologue(&self, name: &str) -> bool {
        self.prologue.iter().any(|p| p == name)
    }

    /// A fresh i64 (or `ty`) temporary, declared (uninitialised) before the
    /// statement being built.
    pub fn temp_local(&mut self, name: &str, ty: Type, span: Span) -> LocalId {
        self.tmp_count += 1;
        let l = self.f.add_local(format!("__{}{}", name, self.tmp_count), ty, span);
        self.pending.push(Stmt { kind: StmtKind::Decl(l, None), span });
        l
    }

    /// `value` stored into a fresh temporary: returns (the store, which
    /// yields the value, and the temporary to read it again).
    pub fn spill(&mut self, value: ExprId, span: Span) -> (ExprId, LocalId) {
        let ty = self.type_of(value);
        let l = self.temp_local("t", ty, span);
        let p = build::local(&mut self.f, l, span);
        (build::assign(&mut self.f, p, value, span), l)
    }

    /// `value` for use more than once: a constant or a read of a local is
    /// copied; anything else is stored into a temporary by the returned
    /// expression (which yields the value) and read back by [`Cx::again`].
    pub fn dup(&mut self, value: ExprId, span: Span) -> (ExprId, Dup) {
        if self.is_pure_copy(value) {
            return (value, Dup(DupKind::Copy(value)));
        }
        let (s, l) = self.spill(value, span);
        (s, Dup(DupKind::Temp(l)))
    }

    /// The value a [`Dup`] holds, once more.
    pub fn again(&mut self, d: &Dup, span: Span) -> ExprId {
        match d.0 {
            DupKind::Temp(l) => build::load_local(&mut self.f, l, span),
            DupKind::Copy(e) => self.copy_pure(e, span),
        }
    }

    /// Constants, locals, reads of locals and conversions of those.
    fn is_pure_copy(&self, e: ExprId) -> bool {
        match &self.f.expr(e).kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Local(_) => true,
            ExprKind::Load(p) => matches!(self.f.expr(*p).kind, ExprKind::Local(_)),
            ExprKind::Cast(x) => self.is_pure_copy(*x),
            _ => false,
        }
    }

    fn copy_pure(&mut self, e: ExprId, span: Span) -> ExprId {
        let x = self.f.expr(e).clone();
        let kind = match &x.kind {
            ExprKind::Load(p) => ExprKind::Load(self.copy_pure(*p, span)),
            ExprKind::Cast(p) => ExprKind::Cast(self.copy_pure(*p, span)),
            k => k.clone(),
        };
        self.f.add_expr(kind, x.ty, span)
    }

    /// The pointer to the first element of an array's referenced range and
    /// that range in elements, `(ptr, lo, len)`: for a name, the whole array
    /// (its hull for strided views); for `a[lo:hi]` on a rank-1 array or a
    /// leading-dimension slice of a contiguous array, that section.
    pub fn array_section(&mut self, n: &Node) -> Result<(ExprId, ExprId, ExprId), Diagnostic> {
        self.section_of(n)
    }

    /// What the called expression `func` denotes.
    pub fn resolve_call(&self, func: &Node) -> Callee {
        match func.kind.as_str() {
            "Name" => {
                let name = func.str("id").unwrap_or("");
                if self.vars.contains_key(name) {
                    return Callee::Unknown;
                }
                match self.env.get(name) {
                    Some(EnvItem::Func(q)) => callee_of_qualname(q),
                    Some(EnvItem::Routine(r)) => Callee::Routine(r.clone()),
                    Some(_) => Callee::Unknown,
                    None if BUILTINS.contains(&name) => Callee::Builtin(name.to_string()),
                    None => Callee::Unknown,
                }
            }
            "Attribute" => {
                let Some(path) = self.dotted(func) else { return Callee::Unknown };
                callee_of_qualname(&path)
            }
            _ => Callee::Unknown,
        }
    }

    /// `a.b.c` with `a` a module in the env, as `module.b.c` (`numpy.sqrt`,
    /// `accjit.atomic.add`); `None` for anything else.
    pub fn dotted(&self, n: &Node) -> Option<String> {
        match n.kind.as_str() {
            "Name" => {
                let name = n.str("id")?;
                if self.vars.contains_key(name) {
                    return None;
                }
                match self.env.get(name)? {
                    EnvItem::Module(m) => Some(m.clone()),
                    EnvItem::Func(q) => Some(q.clone()),
                    _ => None,
                }
            }
            "Attribute" => Some(format!("{}.{}", self.dotted(n.node("value")?)?, n.str("attr")?)),
            _ => None,
        }
    }

    /// Add an expression node.
    pub fn mk(&mut self, kind: ExprKind, ty: Type, span: Span) -> ExprId {
        self.f.add_expr(kind, ty, span)
    }

    /// An i64 constant.
    pub fn i64c(&mut self, v: i64, span: Span) -> ExprId {
        build::i64c(&mut self.f, v, span)
    }

    pub fn binary(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: Type, span: Span) -> ExprId {
        build::binary(&mut self.f, op, a, b, ty, span)
    }

    /// The message for a name used before it is assigned, or unknown.
    pub(crate) fn unknown_name(&self, n: &Node, name: &str) -> Diagnostic {
        if let Some(EnvItem::Unsupported(what)) = self.env.get(name) {
            return self.err(n, format!("`{name}` is {what}, which compiled code cannot use"));
        }
        if BUILTINS.contains(&name) {
            return self.err(n, format!("the builtin `{name}` can only be called"));
        }
        self.err(n, format!("unknown name `{name}`"))
            .with_hint("a compiled function can use its parameters, its locals (assigned before use), constants and modules (math, numpy, accjit) of its globals, and @acc.routine functions")
    }

    /// The Python description of a type for messages.
    pub fn type_name(&self, t: &Type) -> String {
        dtype_name(t)
    }
}

/// The builtins compiled code can call.
pub(crate) const BUILTINS: &[&str] = &["range", "len", "min", "max", "abs", "int", "float", "complex", "bool", "print", "round", "pow", "divmod"];

/// What a qualified name (`math.sqrt`, `numpy.float32`, `accjit.loop`) denotes.
pub(crate) fn callee_of_qualname(q: &str) -> Callee {
    if let Some(rest) = q.strip_prefix("accjit.") {
        return Callee::Acc(rest.to_string());
    }
    let (module, name) = match q.rsplit_once('.') {
        Some(x) => x,
        None => return Callee::Unknown,
    };
    match module {
        "numpy" => {
            if let Some(t) = crate::types::parse_dtype(name) {
                return Callee::Cast(t);
            }
            if crate::math::is_math(name) {
                return Callee::Math(name.to_string());
            }
            Callee::Unknown
        }
        "math" | "cmath" if crate::math::is_math(name) => Callee::Math(name.to_string()),
        _ => Callee::Unknown,
    }
}

pub use accjit_ir::Block;

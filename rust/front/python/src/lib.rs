//! The Python front end: a Python function, as its `ast` serialised by
//! `python/accjit/_pyast.py` ([`tree`]), plus the types of one call's
//! arguments ([`ArgType`]), to accjit IR: the same pre-lowering IR the C
//! front end builds, so `lower` and every back end run it unchanged.
//!
//! A request is one `Request` node (see `tree.rs` for the text form):
//! ```text
//! (Request 0 0 0 0
//!    kind="parallel"|"kernels"|"serial"|"jit"|"routine"
//!    file="path/to/user.py"          shown in diagnostics
//!    text="…"                        the file's text up to the function's last line
//!                                    (lines before the function may be blank)
//!    func=(FunctionDef …)            the decorated function, positions in `file`
//!    keywords=[(keyword … arg="num_gangs" value=<expr>) …]
//!                                    the decorator's clauses as expressions (Python
//!                                    values turned into `Constant`/`List`/`Tuple`/`Dict`,
//!                                    strings parsed as expressions: "a" is `Name a`)
//!    level="seq"                     routines only: seq|vector|worker|gang
//!    env=[…])                        the globals and closure variables the function uses:
//!      (Const … name="N" value=100 dtype="int64")     frozen at compile time (dtype: the
//!                                                     NumPy scalar type for NumPy scalars,
//!                                                     else int64/float64/complex128/bool)
//!      (ModuleRef … name="np" module="numpy")         math, cmath, numpy, accjit
//!      (FuncRef … name="sqrt" qualname="math.sqrt")   a function imported by name
//!      (Routine … name="f" kind="routine" level="seq" file=… text=… func=… env=[…])
//!                                                     an @acc.routine the function calls
//!      (Unsupported … name="x" what="a list")         used only to say why `x` cannot be used
//! ```
//! The entry point of the resulting module is one exported host function
//! described by [`Entry`]: how each Python argument becomes parameters and
//! where results go.

pub(crate) mod acc;
pub mod cx;
mod expr;
mod func;
mod half;
mod math;
mod stmt;
pub mod tree;
mod types;

use accjit_ir::{Diagnostic, Diagnostics, Module, SourceMap, Span, Type};
use std::collections::HashMap;

/// Memory layout of an array argument (part of the specialisation key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// C-contiguous: strides follow from the shape (last dimension unit).
    C,
    /// Fortran-contiguous: first dimension unit.
    F,
    /// Any other strides (in elements, possibly negative or zero).
    Strided,
}

/// The type of one Python argument of a call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArgType {
    /// A NumPy array (or a CUDA array on the nvidia device): element type
    /// (`Type::Scalar` or `Type::Complex`), rank, layout, whether it may be
    /// written, and whether it is a float16 array (`half`: elements are
    /// stored as `u16` bit patterns, `elem` is `u16`, and kernels read them
    /// as float32 values and round float32 values into them; see `half.rs`).
    Array { elem: Type, ndim: u8, layout: Layout, writable: bool, half: bool },
    /// A Python or NumPy scalar: `int` → I64, `float` → F64, `complex` →
    /// Complex(F64), `bool` → Bool, NumPy scalars their own type.
    Scalar(Type),
}

/// One parameter of the entry function, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryParam {
    /// A scalar argument, passed by value in the given IR type.
    Scalar { arg: usize, ty: Type },
    /// The address of an array argument's first element (`Ptr(elem)`).
    Base { arg: usize },
    /// Extent of dimension `dim` of an array argument (I64).
    Shape { arg: usize, dim: u8 },
    /// Stride of dimension `dim` in elements (I64); only for `Layout::Strided`.
    Stride { arg: usize, dim: u8 },
    /// The address of a buffer of `Entry::results.len()` 16-byte cells where
    /// the function stores its results (a value of type `results[k]` at the
    /// start of cell k). Present only when `results` is not empty.
    Results,
}

/// How to call the compiled function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The exported host function's name in the module.
    pub name: String,
    pub params: Vec<EntryParam>,
    /// Types of the returned values: empty for `None`, one for a value,
    /// several for a tuple. The entry function itself returns void.
    pub results: Vec<Type>,
}

/// Compile one request. Every file the diagnostics point into is added to `sm`.
pub fn compile(sm: &mut SourceMap, request: &tree::Node, args: &[ArgType]) -> Result<(Module, Entry), Diagnostics> {
    if !request.is("Request") {
        return Err(Diagnostic::error(Span::DUMMY, "malformed kernel tree: not a Request").into());
    }
    let mut sh = cx::Shared::default();
    // Every file the trees point into, once (the longest text: each tree
    // carries its file up to its function's last line).
    let mut files = vec![(request.str("file").unwrap_or("<unknown>").to_string(), request.str("text").unwrap_or("").to_string())];
    let env = request.nodes("env");
    func::collect_routines(&env, &mut sh.routines, &mut files);
    // The request's own function as a routine (recursion; `kind="routine"`).
    if let Some(f) = request.node("func") {
        let r = request.str("ref").or_else(|| f.str("name")).unwrap_or("").to_string();
        sh.routines.entry(r).or_insert_with(|| cx::RoutineDef {
            func: f.clone(),
            env: env.iter().map(|n| (*n).clone()).collect(),
            file: files[0].0.clone(),
            level: func::level_of(request.str("level")),
        });
    }
    let mut longest: HashMap<String, String> = HashMap::new();
    let mut order = vec![];
    for (name, text) in files {
        match longest.get_mut(&name) {
            Some(t) if t.len() >= text.len() => {}
            Some(t) => *t = text,
            None => {
                order.push(name.clone());
                longest.insert(name, text);
            }
        }
    }
    for name in order {
        let text = longest.remove(&name).unwrap_or_default();
        let id = sm.add(name.clone(), text.clone());
        sh.files.insert(name, cx::FileInfo::new(id, &text));
    }
    let entry = func::compile_entry(&mut sh, request, args).map_err(Diagnostics::from)?;
    Ok((sh.m, entry))
}

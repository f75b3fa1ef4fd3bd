//! The Fortran front end: source forms, preprocessing, lexer, parser and
//! semantic lowering, producing the same pre-lowering accjit IR as the C front
//! end (so `lower` and every back end run Fortran unchanged).
//!
//! - `pp`: the C-style preprocessor for `.F90`/`.F` files (line-preserving text).
//! - `source`: free and fixed source form to logical lines (continuations,
//!   comments, `;`, labels, `!$acc` sentinels), each character mapped back to
//!   its file position; Fortran `INCLUDE` lines.
//! - `lex`: tokens of one logical line.
//! - `parse`: statements and program units into `ast`.
//! - `sema`: `ast` to IR (owned by the sema side of the front end).

use accjit_ir::{Diagnostics, Module, SourceMap, Type};
use std::path::PathBuf;

pub mod ast;
pub mod lex;
pub mod parse;
pub mod pp;
pub mod sema;
pub mod source;

pub use sema::FType;

/// Options of one Fortran compilation.
#[derive(Clone, Debug, Default)]
pub struct CompileOptions {
    /// `-D name[=value]`
    pub defines: Vec<(String, Option<String>)>,
    /// `-U name`
    pub undefines: Vec<String>,
    /// `-I dir`: searched after the including file's directory, for `#include`
    /// and Fortran `INCLUDE`.
    pub include_dirs: Vec<PathBuf>,
    /// Run the C preprocessor. None: by extension (`.F90`, `.F`, ... upper-case
    /// extensions yes).
    pub preprocess: Option<bool>,
    /// None: by extension (`.f`, `.F`, `.for`, `.ftn`, `.f77` fixed, else free).
    pub form: Option<SourceForm>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceForm {
    Free,
    Fixed,
}

/// The result of compiling a Fortran program or library.
#[derive(Clone, Debug)]
pub struct FortranModule {
    pub module: Module,
    /// Every external and module procedure, for callers (Python) that need
    /// the Fortran view of an IR function.
    pub procedures: Vec<ProcInterface>,
    /// The IR function of the main program, if there is one.
    pub main: Option<String>,
}

#[derive(Clone, Debug)]
pub struct ProcInterface {
    /// Lower-case Fortran name (plain, also for module procedures).
    pub name: String,
    /// IR function name.
    pub symbol: String,
    pub params: Vec<ProcParam>,
    /// Function result type (an array result's element type); None for
    /// subroutines. A scalar result is the IR function's return value; an
    /// array result (`result_rank > 0`) comes back through hidden parameters
    /// after the dummies as an allocatable dummy's (pointer to the base
    /// pointer, then pointers to the lower bounds, extents and strides of
    /// dimensions 2..; the callee allocates with `calloc`, the caller frees);
    /// a character result through two (pointer to the pointer to its bytes,
    /// `malloc`ed by the callee, and pointer to its length).
    pub result: Option<Type>,
    /// The result's Fortran type (`logical` and `character` apart).
    pub result_ftype: Option<FType>,
    pub result_rank: u8,
}

#[derive(Clone, Debug)]
pub struct ProcParam {
    pub name: String,
    pub intent: Intent,
    pub optional: bool,
    pub kind: ParamKind,
    /// The dummy's Fortran type (an array's element type).
    pub ftype: FType,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intent {
    In,
    Out,
    InOut,
    Unspecified,
}

#[derive(Clone, Debug)]
pub enum ParamKind {
    /// Scalar: by value (`value` attribute) or by reference (default: the IR
    /// param is a pointer).
    Scalar { ty: Type, by_value: bool },
    /// Array dummy: IR params are, in order, the base pointer (elem*), then for
    /// assumed-shape one i64 extent per dimension (the first dimension is
    /// contiguous, later ones have an i64 stride each in elements);
    /// explicit-shape and assumed-size: only the base pointer.
    Array { elem: Type, rank: u8, shape: ArrayShape },
    /// Character scalar: IR params pointer to the bytes and i64 length;
    /// `len` is the declared length (`None`: `len=*`).
    Char { len: Option<u64> },
    /// A dummy no Python value can stand for (allocatable or pointer
    /// arrays, dummy procedures, derived types, character arrays): `why`
    /// says what it is; a call from Python is refused with it.
    Unsupported { why: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayShape {
    Assumed,
    Explicit,
    AssumedSize,
}

/// The source form a file name implies.
pub fn form_of(name: &str) -> SourceForm {
    let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match ext.as_str() {
        "f" | "for" | "ftn" | "f77" => SourceForm::Fixed,
        _ => SourceForm::Free,
    }
}

/// Whether a file name implies preprocessing (upper-case Fortran extensions).
pub fn preprocess_by_name(name: &str) -> bool {
    let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    matches!(ext, "F" | "F90" | "F95" | "F03" | "F08" | "F18" | "F77" | "FOR" | "FTN" | "fpp" | "FPP")
}

/// Read, preprocess (where asked) and parse one file into its AST. `text` is
/// registered in `sm` under `name`, as is every file it includes.
pub fn parse(sm: &mut SourceMap, name: &str, text: &str, opts: &CompileOptions) -> Result<ast::File, Diagnostics> {
    let form = opts.form.unwrap_or_else(|| form_of(name));
    let preprocess = opts.preprocess.unwrap_or_else(|| preprocess_by_name(name));
    let lines = if preprocess { pp::preprocess(sm, name, text, opts, form)? } else { pp::plain_lines(sm, name, text) };
    let logical = source::logical_lines(sm, lines, form, opts)?;
    parse::parse_file(sm, logical)
}

/// Compile the files of one program (a main file plus module files, in any
/// order). Every file read is added to `sm`.
pub fn compile(sm: &mut SourceMap, files: &[(String, String)], opts: &CompileOptions) -> Result<FortranModule, Diagnostics> {
    let mut asts = Vec::new();
    let mut diags = Diagnostics::default();
    for (name, text) in files {
        match parse(sm, name, text, opts) {
            Ok(f) => asts.push(f),
            Err(d) => diags.0.extend(d.0),
        }
    }
    if diags.has_errors() {
        return Err(diags);
    }
    sema::lower(sm, &asts, opts)
}

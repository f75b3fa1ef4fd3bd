//! The accjit IR: one typed, structured representation shared by every front
//! end (C, later Fortran and Python) and every back end (Cranelift, PTX, OpenCL).
//!
//! - A [`Module`] holds struct layouts, globals, functions, extern declarations
//!   and — after `lower` — outlined [`Kernel`]s.
//! - A [`Function`] owns its locals and an arena of [`Expr`]s (each typed and
//!   spanned); its body is a tree of [`Block`]s of [`Stmt`]s with structured
//!   control flow (plus `goto`, which C needs).
//! - OpenACC constructs appear as statements (`Compute`, `Data`, `HostData`,
//!   `Exec`, `Atomic`, and `For { acc: Some(loop directive) }`) exactly as the
//!   front end validated them. `lower` outlines compute regions into kernels,
//!   turns acc loops into canonical [`AccLoop`]s and data clauses into runtime
//!   calls, so that back ends see only `Launch`, `AccLoop` and ordinary code.
//! - Nothing here is specific to a target: sizes follow LP64 (shared with the
//!   devices), and array descriptors are first-class values.
//! - [`reduce`] is the reduction model: operators with their identity and
//!   combine, and the reduced object's form, for `lower` and every back end.
//! - [`exec`] holds a kernel's execution modes, locals' locality and
//!   broadcast sets (filled by `lower`) for back ends with lanes and workers.
//! - [`span`] holds the source map and diagnostics every stage reports with.
//! - [`bytes`] is the byte codec of what the engine keeps on disk.
//! - [`build`] is the IR builder (constants, places, operators) and [`walk`]
//!   the expression walker (visits, substitution, structural
//!   equality) that every stage and test shares.

pub mod acc;
pub mod build;
pub mod bytes;
pub mod exec;
pub mod module;
pub mod print;
pub mod reduce;
pub mod span;
pub mod types;
pub mod validate;
pub mod walk;

pub use acc::*;
pub use exec::{Broadcast, ExecInfo, ExecMode, Locality, StmtId};
pub use module::*;
pub use reduce::*;
pub use span::{Diagnostic, Diagnostics, Severity, SourceFile, SourceMap, Span};
pub use types::{align_of, size_of, Field, FuncSig, Scalar, StructDef, StructId, Type};

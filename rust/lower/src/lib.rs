//! Target-independent lowering: outline compute regions into kernels,
//! implicit data attributes, canonical acc loops, data clauses → runtime calls.
//!
//! After [`lower`], a module contains only ordinary statements, `Atomic`
//! (kept where written), `AccLoop` (only in kernel bodies), `Launch` (only in
//! host code) and calls of the runtime ABI (docs/runtime-abi.md), each
//! `__accjit_*` entry point declared once as an `ExternFunc`, with `name`/`loc`
//! strings as constant globals. When globals carry `declare` clauses, an
//! exported `void __accjit_declare_init(void)` ([`DECLARE_INIT`]) is added:
//! the loader calls it once, before `main` or any other function runs.
//!
//! The passes, one file each:
//! - `host`: the walk over host functions and routines;
//! - `outline`: compute constructs → kernels + launches (with `capture`,
//!   `implicit`, `copy`, `kernels`, and `private` for private subarrays);
//! - `loops`: acc loops → `AccLoop` (with `collapse`, the associated nest of
//!   `collapse(n)`/`collapse(force:n)`, and `depend`, the dependence test for
//!   `auto` and `kernels` loops);
//! - `data`: data clauses, data/host_data constructs, executable directives
//!   (with `exits`, structured exits on every path);
//! - `reduce`: reduction clauses → private copies (scalars, elements,
//!   members, sections, aggregates) for loops and compute constructs;
//! - `fold`: `acc_on_device`;
//! - `modes`: execution modes, locality and broadcast sets of every finished
//!   kernel (`Kernel::exec`), for back ends with workers and lanes.
//!
//! `build` and `walk` are shared helpers; `cx` holds the lowering context.

mod build;
mod capture;
mod collapse;
mod copy;
mod cx;
mod data;
mod depend;
mod exits;
mod fold;
mod host;
mod implicit;
mod kernels;
mod loops;
mod modes;
mod outline;
mod private;
mod reduce;
mod walk;

pub use cx::device_type_code;
pub use data::DECLARE_INIT;
pub use fold::on_device_value;
pub use loops::TILE_STAR;
pub use modes::exec_info;

use accjit_ir::{Diagnostics, FuncSig, Function, Linkage, Module, SourceMap, Span, Type};

#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// The device type compiled for ("multicore", "host", "nvidia", "opencl"):
    /// resolves `device_type` clauses and folds `acc_on_device`.
    pub device_type: String,
}

/// Lower `module` in place. Location strings passed to the runtime are
/// `"<unknown>"`; use [`lower_with_sources`] to get `"file.c:LINE"`.
pub fn lower(module: &mut Module, opts: &LowerOptions) -> Result<(), Diagnostics> {
    lower_with_sources(module, opts, None)
}

/// [`lower`], with the source map the front end filled, for `loc` strings.
pub fn lower_with_sources(module: &mut Module, opts: &LowerOptions, sources: Option<&SourceMap>) -> Result<(), Diagnostics> {
    let mut cx = cx::Cx::new(module, opts, sources);
    for i in 0..cx.module.functions.len() {
        let placeholder = Function::new("", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Internal, Span::DUMMY);
        let mut f = std::mem::replace(&mut cx.module.functions[i], placeholder);
        host::lower_function(&mut cx, &mut f);
        cx.module.functions[i] = f;
    }
    data::declare_globals(&mut cx);
    for k in &mut cx.module.kernels {
        k.exec = modes::exec_info(&cx.module.functions, k);
    }
    let diags = Diagnostics(std::mem::take(&mut cx.diags));
    if diags.has_errors() {
        return Err(diags);
    }
    Ok(())
}

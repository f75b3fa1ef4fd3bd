//! The GPU form of a program compiled for `nvidia`: the PTX back end's
//! module (CONTRACT9.md, `accjit_back_ptx::compile`) handed to the kernel
//! slots, with the host addresses of the globals the module defines as
//! device symbols (the Cranelift module's data, so that the runtime can
//! make each `declare`d global's symbol its device copy).

use crate::program::{Declare, GlobalFacts};
use crate::rt;
use accjit_ir::{Diagnostic, Diagnostics, Module, Span};

pub use accjit_back_ptx::PtxKernel;

/// Compiles `module`'s kernels to PTX.
pub fn compile_ptx(module: &Module, opts: &accjit_back_ptx::PtxOptions) -> Result<accjit_back_ptx::PtxModule, Diagnostics> {
    crate::guarded("the PTX back end", || accjit_back_ptx::compile(module, opts))
}

/// Gives every slot its PTX form from `ptx` (compiled from a module whose
/// globals are `globals`, or its copy from the disk cache). `host_globals[i]`:
/// the host address of IR global `i` (0: none). Returns each kernel's
/// suggested block shape (vector lanes, workers), in the module's kernel
/// order, for the compile report.
pub fn attach_ptx(
    globals: &[GlobalFacts],
    host_globals: &[usize],
    slots: &[rt::Slot],
    ptx: accjit_back_ptx::PtxModule,
) -> Result<Vec<(u32, u32)>, Diagnostics> {
    if ptx.kernels.len() != slots.len() {
        return Err(Diagnostic::error(
            Span::DUMMY,
            format!("internal compiler error: the PTX back end produced {} kernels for {} outlined regions", ptx.kernels.len(), slots.len()),
        )
        .into());
    }
    let globals = ptx
        .globals
        .iter()
        .map(|g| {
            let i = g.ir_global as usize;
            let declare = globals.get(i).map_or(Declare::None, |f| f.declare);
            let (declared, link) = (declare == Declare::Entered, declare == Declare::Link);
            rt::PtxGlobalRef { symbol: g.symbol.clone(), host: host_globals.get(i).copied().unwrap_or(0), bytes: g.bytes as usize, declared, link }
        })
        .collect();
    let text = rt::ptx_module(ptx.text, globals);
    for (slot, k) in slots.iter().zip(&ptx.kernels) {
        slot.set_ptx(&text, k);
    }
    rt::preload(&text, &ptx.kernels);
    Ok(ptx.kernels.iter().map(|k| (k.vector, k.workers)).collect())
}

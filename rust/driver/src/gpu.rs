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

/// A program's PTX on its way to the kernel slots ([`early`], then
/// [`attach_ptx`]).
pub struct PendingPtx {
    ptx: accjit_back_ptx::PtxModule,
    /// The runtime's module, made as soon as the PTX was known.
    text: Option<std::sync::Arc<accjit_runtime::PtxModuleText>>,
}

/// `ptx` as soon as it is known (compiled, or decoded from a disk entry):
/// when it defines no globals, the runtime's module is made now and its
/// kernels preloaded on the current nvidia device if that is open
/// (`rt::preload`), so that the module loads while the host image does
/// and Python gets to the first call. A module with globals waits for the
/// host addresses of its globals ([`attach_ptx`]); it is not preloaded.
pub fn early(mut ptx: accjit_back_ptx::PtxModule) -> PendingPtx {
    let text = ptx.globals.is_empty().then(|| {
        let text = rt::ptx_module(std::mem::take(&mut ptx.text), vec![]);
        rt::preload(&text, &ptx.kernels);
        text
    });
    PendingPtx { ptx, text }
}

/// Gives every slot its PTX form from `pending` (compiled from a module whose
/// globals are `globals`, or its copy from the disk cache). `host_globals[i]`:
/// the host address of IR global `i` (0: none). Returns each kernel's
/// suggested block shape (vector lanes, workers), in the module's kernel
/// order, for the compile report.
pub fn attach_ptx(globals: &[GlobalFacts], host_globals: &[usize], slots: &[rt::Slot], pending: PendingPtx) -> Result<Vec<(u32, u32)>, Diagnostics> {
    let PendingPtx { ptx, text } = pending;
    if ptx.kernels.len() != slots.len() {
        return Err(Diagnostic::error(
            Span::DUMMY,
            format!("internal compiler error: the PTX back end produced {} kernels for {} outlined regions", ptx.kernels.len(), slots.len()),
        )
        .into());
    }
    let text = text.unwrap_or_else(|| {
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
        rt::ptx_module(ptx.text, globals)
    });
    for (slot, k) in slots.iter().zip(&ptx.kernels) {
        slot.set_ptx(&text, k);
    }
    Ok(ptx.kernels.iter().map(|k| (k.vector, k.workers)).collect())
}

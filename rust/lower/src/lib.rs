//! Target-independent lowering: outline compute regions into kernels,
//! implicit data attributes, canonical acc loops, data clauses → runtime calls.

use accjit_ir::{Diagnostics, Module};

#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// The device type compiled for ("multicore", "host", "nvidia", "opencl"):
    /// resolves `device_type` clauses and folds `acc_on_device`.
    pub device_type: String,
}

pub fn lower(module: &mut Module, opts: &LowerOptions) -> Result<(), Diagnostics> {
    let _ = (module, opts);
    Ok(())
}

//! The Cranelift back end: compiles a lowered IR module (host functions and
//! multicore kernels) to native code in memory, linked against the runtime's
//! symbols and the process's libc/libm.

use accjit_ir::{Diagnostics, FuncSig, KernelId, Module};

/// What the JIT linker needs from outside the module.
#[derive(Clone, Debug, Default)]
pub struct ClifOptions {
    /// Runtime symbols (`__accjit_*`, `acc_*`) and their addresses; other
    /// extern names are resolved with `dlsym` in the process (libc, libm).
    pub symbols: Vec<(String, usize)>,
    /// Address of the runtime's `KernelSlot` for each `Module::kernels` entry,
    /// passed by `Launch` code to `__accjit_launch`.
    pub kernel_slots: Vec<usize>,
    /// Keep the CLIF text of every function (for `accjit clif` and snapshots).
    pub keep_clif: bool,
}

/// Entry point made for every exported function: `args[i]` holds parameter `i`
/// (same encoding as kernel arguments, docs/runtime-abi.md), the return value
/// is written to `ret[0]` (and `ret[1]` for complex).
pub type Trampoline = unsafe extern "C" fn(args: *const u64, ret: *mut u64);

pub struct CompiledFunction {
    pub name: String,
    pub sig: FuncSig,
    pub trampoline: Trampoline,
    /// The function's own native address.
    pub address: usize,
}

/// A module compiled and finalised in memory. Dropping it frees the code.
pub struct CompiledModule {
    pub functions: Vec<CompiledFunction>,
    /// Native `void k(const u64 *args, i64 gang, i64 num_gangs)` per kernel.
    pub kernels: Vec<usize>,
    /// CLIF text per function when `keep_clif` was set.
    pub clif: String,
}

impl CompiledModule {
    pub fn function(&self, name: &str) -> Option<&CompiledFunction> {
        self.functions.iter().find(|f| f.name == name)
    }
    pub fn kernel(&self, k: KernelId) -> usize {
        self.kernels[k.index()]
    }
}

pub fn compile(module: &Module, opts: &ClifOptions) -> Result<CompiledModule, Diagnostics> {
    let _ = (module, opts);
    Err(accjit_ir::Diagnostic::error(accjit_ir::Span::DUMMY, "Cranelift back end not built yet").into())
}

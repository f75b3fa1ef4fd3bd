//! Stand-in for engineer "ptx"'s crate `accjit_back_ptx` (CONTRACT9.md)
//! until it lands: the same API, and a `compile` that says the PTX back end
//! is not in this build.

#![allow(dead_code)]

use accjit_ir::{Diagnostic, Diagnostics, Module, Span};

pub struct PtxOptions {
    pub sm: u32,
    pub keep_comments: bool,
}

impl Default for PtxOptions {
    fn default() -> PtxOptions {
        PtxOptions { sm: 80, keep_comments: false }
    }
}

pub struct PtxModule {
    pub text: String,
    pub kernels: Vec<PtxKernel>,
    pub globals: Vec<PtxGlobal>,
}

pub struct PtxKernel {
    pub entry: String,
    pub param_bytes: Vec<u32>,
    pub vector: u32,
    pub workers: u32,
    pub max_gangs: Option<u64>,
    pub gang_dims: u8,
    pub default_gangs: Option<u64>,
}

pub struct PtxGlobal {
    pub ir_name: String,
    pub symbol: String,
    pub bytes: u64,
    pub ir_global: u32,
}

pub fn compile(_module: &Module, _opts: &PtxOptions) -> Result<PtxModule, Diagnostics> {
    Err(Diagnostic::error(Span::DUMMY, "the PTX back end (accjit_back_ptx) is not in this build").into())
}

//! Python kernels through the same pipeline as C: a request (the text
//! `python/accjit/_pyast.py` writes) and the types of one call's arguments
//! → `accjit_front_python::compile` → `lower`, Cranelift and (nvidia) PTX
//! exactly as for a C program (`build_parsed`) → a loaded [`Program`] and
//! the [`Entry`] that says how to call it. Cached in-process by a hash of
//! the request, the argument types, the device type and the options; the
//! GPU's cubins go through the runtime's disk cache as for C.
//!
//! Each kernel also carries what `Kernel.inspect()` shows: the front end's
//! IR (before lowering: the constructs and clauses as the front end wrote
//! them, implicit ones included); its compile report is the program's
//! (`Program::report`, made by `report.rs` as for C and Fortran).

use crate::{build_parsed, cache, checked_ir, guarded, normalize_device_type, CompileError, Options, Program};
use accjit_front_python::{tree, ArgType, Entry};
use accjit_ir::validate::Stage;
use accjit_ir::{Module, SourceMap};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// A compiled Python kernel specialisation.
pub struct PyKernel {
    pub program: Arc<Program>,
    pub entry: Entry,
    /// The front end's module, before lowering (for `inspect()`).
    pub parsed: Module,
}

/// Compile `request_text` for arguments of types `args`, or fetch it from
/// the cache (the flag says which).
pub fn compile_python(request_text: &str, args: &[ArgType], opts: &Options) -> Result<(Arc<PyKernel>, bool), CompileError> {
    let device = normalize_device_type(&opts.device_type)?;
    let key = cache::key_python(request_text, args, opts, &device);
    if let Some(k) = cache::lookup_python(key) {
        return Ok((k, true));
    }
    let _guard = cache::compile_lock();
    if let Some(k) = cache::peek_python(key) {
        return Ok((k, true));
    }
    cache::COMPILATIONS.fetch_add(1, Ordering::Relaxed);
    let kernel = Arc::new(build(request_text, args, opts, &device, key)?);
    cache::insert_python(key, kernel.clone());
    Ok((kernel, false))
}

fn build(request_text: &str, args: &[ArgType], opts: &Options, device: &str, key: u128) -> Result<PyKernel, CompileError> {
    let t0 = Instant::now();
    let request = tree::parse_node(request_text).map_err(|e| CompileError::plain(format!("error: internal error in accjit (please report): {e}")))?;
    let name = request.node("func").and_then(|f| f.str("name")).unwrap_or("<python>").to_string();
    let mut sm = SourceMap::new();
    let (module, entry) =
        guarded("the Python front end", || accjit_front_python::compile(&mut sm, &request, args)).map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    checked_ir(&module, Stage::Parsed, "the Python front end").map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    let parsed = module.clone();
    let program = build_parsed(&name, sm, module, opts, device, t0, key)?;
    if program.function_info(&entry.name).is_none() {
        return Err(CompileError::plain(format!(
            "error: internal compiler error: the Python front end's entry function `{}` is not in the module",
            entry.name
        )));
    }
    Ok(PyKernel { program: Arc::new(program), entry, parsed })
}

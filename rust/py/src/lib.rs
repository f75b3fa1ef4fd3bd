//! `accjit._core`: the Python bindings.
//!
//! - [`module`]: `compile_c(...) -> Module`, a compiled program whose exported
//!   functions are called with NumPy arrays and Python scalars ([`marshal`]),
//!   off-thread and interruptibly ([`caller`]).
//! - [`fortran`]: `compile_fortran(...) -> Module` and Fortran procedures'
//!   calls (`Module.call_fortran`), arguments by their Fortran interfaces.
//! - [`runtime`]: runtime settings (device type, thread count, number of
//!   devices).
//! - [`data`]: the OpenACC data API on NumPy arrays (`_core.data_api`: views,
//!   memory, waits, devices, `acc.data` regions) with readable variable names.
//! - [`profile`]: profiling sessions for `acc.profile()`.
//! - [`report`]: the compile report of a program as Python data
//!   (`Module.report()`, `Kernel.inspect()`).
//! - [`pykernel`]: `Dispatcher`, the call path of Python kernels
//!   (`@acc.parallel` & co.): specialisation per argument types, marshalling.
//! - Errors: `CompileError` (file/line/col, rendered diagnostics) and
//!   `AccError` (spec error code, variable, host range); a hosted C program
//!   that ends early raises `AccError`, `ProgramExit` or `ProgramAbort`
//!   ([`errors`]).
//!
//! No panic crosses into Python: every entry runs under [`guard`], which turns
//! a panic into `RuntimeError`.

mod caller;
mod data;
mod errors;
mod fortran;
mod info;
mod interop;
mod marshal;
mod module;
mod profile;
mod pykernel;
mod report;
mod runtime;

use module::PyProgram;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

create_exception!(_core, CompileError, PyException, "A C source failed to compile: str() is the first error as file:line:col: error: message; .rendered has all errors with source lines; .file, .line, .col locate the first.");
create_exception!(
    _core,
    AccError,
    PyException,
    "An OpenACC runtime error: .code (acc_error_* value), .code_name, .var (clause text), .host_range ((start, end) or None), .loc."
);
create_exception!(_core, NotPresentError, AccError, "acc_error_not_present: the data is not present on the device.");
create_exception!(_core, PartlyPresentError, AccError, "acc_error_partly_present: only part of the data is present on the device.");
create_exception!(_core, InvalidAsyncError, AccError, "acc_error_invalid_async: not a valid async argument.");
create_exception!(_core, DeviceTypeUnavailableError, AccError, "The device type (or device) is not available.");

pub(crate) fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "unknown panic".into())
}

/// Runs `f`, turning a Rust panic into `RuntimeError`.
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(PyRuntimeError::new_err(format!("internal error in accjit (please report): {}", panic_message(&*p)))),
    }
}

pub(crate) fn compile_error(py: Python<'_>, e: &accjit_driver::CompileError) -> PyErr {
    let err = CompileError::new_err(e.headline.clone());
    let v = err.value(py);
    let set = || -> PyResult<()> {
        v.setattr("headline", &e.headline)?;
        v.setattr("rendered", &e.rendered)?;
        v.setattr("file", if e.file.is_empty() { None } else { Some(e.file.as_str()) })?;
        v.setattr("line", if e.line == 0 { None } else { Some(e.line) })?;
        v.setattr("col", if e.col == 0 { None } else { Some(e.col) })?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(other) => other,
    }
}

/// Compile C source text. `defines` is a list of (name, value-or-None).
#[pyfunction]
#[pyo3(signature = (source, name = "<string>".to_string(), device_type = None, defines = None, undefines = None, include_dirs = None, keep_clif = false))]
#[allow(clippy::too_many_arguments)]
fn compile_c(
    py: Python<'_>,
    source: String,
    name: String,
    device_type: Option<String>,
    defines: Option<Vec<(String, Option<String>)>>,
    undefines: Option<Vec<String>>,
    include_dirs: Option<Vec<PathBuf>>,
    keep_clif: bool,
) -> PyResult<PyProgram> {
    guard(|| {
        let opts = accjit_driver::Options {
            device_type: device_type.unwrap_or_else(runtime::current_device_type),
            defines: defines.unwrap_or_default(),
            undefines: undefines.unwrap_or_default(),
            include_dirs: include_dirs.unwrap_or_default(),
            keep_clif,
            back_end: accjit_driver::BackEndOptions::from_env(),
        };
        let r = py.detach(|| catch_unwind(AssertUnwindSafe(|| accjit_driver::compile_c_cached(&name, &source, &opts))));
        match r {
            Ok(Ok((program, from_cache))) => Ok(PyProgram::new(program, from_cache)),
            Ok(Err(e)) => Err(compile_error(py, &e)),
            Err(p) => Err(PyRuntimeError::new_err(format!("internal error in accjit (please report): {}", panic_message(&*p)))),
        }
    })
}

/// The PTX of C source text's kernels for the nvidia device (`accjit ptx`);
/// no GPU is needed. Raises `CompileError` like `compile_c`.
#[pyfunction]
#[pyo3(signature = (source, name = "<string>".to_string(), defines = None, undefines = None, include_dirs = None))]
fn ptx_text(
    py: Python<'_>,
    source: String,
    name: String,
    defines: Option<Vec<(String, Option<String>)>>,
    undefines: Option<Vec<String>>,
    include_dirs: Option<Vec<PathBuf>>,
) -> PyResult<String> {
    guard(|| {
        let opts = accjit_driver::Options {
            defines: defines.unwrap_or_default(),
            undefines: undefines.unwrap_or_default(),
            include_dirs: include_dirs.unwrap_or_default(),
            ..accjit_driver::Options::default()
        };
        let r = py.detach(|| catch_unwind(AssertUnwindSafe(|| accjit_driver::ptx_text(&name, &source, &opts))));
        match r {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(e)) => Err(compile_error(py, &e)),
            Err(p) => Err(PyRuntimeError::new_err(format!("internal error in accjit (please report): {}", panic_message(&*p)))),
        }
    })
}

/// `{hits, misses, stale, compilations, entries, capacity}` of the in-process cache.
#[pyfunction]
fn cache_stats(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let s = accjit_driver::cache_stats();
    let d = PyDict::new(py);
    d.set_item("hits", s.hits)?;
    d.set_item("misses", s.misses)?;
    d.set_item("stale", s.stale)?;
    d.set_item("compilations", s.compilations)?;
    d.set_item("entries", s.entries)?;
    d.set_item("capacity", accjit_driver::CACHE_CAPACITY)?;
    Ok(d)
}

/// Empty the in-process cache (modules already returned stay usable).
#[pyfunction]
fn clear_cache() {
    accjit_driver::clear_cache()
}

/// Waits (at most a few seconds) until no CUDA prewarm thread is inside the
/// driver: registered with `atexit` by the package, because the driver's
/// own exit handlers would otherwise tear it down under such a thread.
#[pyfunction]
fn settle_before_exit(py: Python<'_>) {
    py.detach(|| accjit_runtime::cuda::settle_before_exit(accjit_runtime::hosted::EXIT_SETTLE))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ENGINE_VERSION", accjit_driver::ENGINE_VERSION)?;
    m.add("DEVICE_TYPES", accjit_driver::DEVICE_TYPES.to_vec())?;
    m.add("CompileError", py.get_type::<CompileError>())?;
    m.add("AccError", py.get_type::<AccError>())?;
    m.add("NotPresentError", py.get_type::<NotPresentError>())?;
    m.add("PartlyPresentError", py.get_type::<PartlyPresentError>())?;
    m.add("InvalidAsyncError", py.get_type::<InvalidAsyncError>())?;
    m.add("DeviceTypeUnavailableError", py.get_type::<DeviceTypeUnavailableError>())?;
    errors::register(m)?;
    m.add_class::<PyProgram>()?;
    m.add_class::<module::PyFunction>()?;
    m.add_class::<module::PyProcedure>()?;
    m.add_class::<interop::DeviceView>()?;
    m.add_function(wrap_pyfunction!(compile_c, m)?)?;
    m.add_function(wrap_pyfunction!(cache_stats, m)?)?;
    m.add_function(wrap_pyfunction!(ptx_text, m)?)?;
    m.add_function(wrap_pyfunction!(clear_cache, m)?)?;
    m.add_function(wrap_pyfunction!(settle_before_exit, m)?)?;
    m.add_function(wrap_pyfunction!(caller::call_stats, m)?)?;
    runtime::register(m)?;
    data::register(m)?;
    profile::register(m)?;
    pykernel::register(m)?;
    fortran::register(m)?;
    info::register(m)?;
    accjit_driver::warm_up();
    caller::prestart();
    Ok(())
}

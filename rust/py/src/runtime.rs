//! Runtime settings: the device type new compilations target, the multicore
//! thread count and the number of devices of a type; and [`acc_error`], which
//! turns a runtime `AccError` into the Python exception.
//!
//! The data API, waits and device selection live in [`crate::data`].

use accjit_runtime::api;
use accjit_runtime::consts::*;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The device type new compilations target: the runtime's current type
/// (`set_device_type`, else `ACC_DEVICE_TYPE`, else multicore).
pub fn current_device_type() -> String {
    accjit_runtime::device::ensure_env();
    accjit_runtime::device_type_name().to_string()
}

/// The Python exception for a runtime error: the `AccError` subclass of its
/// code, with `code`, `code_name`, `var`, `host_range` and `loc` set.
pub(crate) fn acc_error(py: Python<'_>, e: accjit_runtime::AccError) -> PyErr {
    let err = crate::errors::acc_error_for_code(e.code, e.to_string());
    let v = err.value(py);
    let set = || -> PyResult<()> {
        v.setattr("code", e.code)?;
        v.setattr("code_name", e.code_name())?;
        v.setattr("var", e.var.clone())?;
        v.setattr("host_range", e.host_range)?;
        v.setattr("loc", e.loc.clone())?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(other) => other,
    }
}

fn run<T>(py: Python<'_>, r: accjit_runtime::AccResult<T>) -> PyResult<T> {
    r.map_err(|e| acc_error(py, e))
}

#[pyfunction]
fn get_device_type() -> String {
    current_device_type()
}

/// Set the current device type ("multicore", "host"; "acc_device_" prefix accepted).
#[pyfunction]
fn set_device_type(py: Python<'_>, dev: &str) -> PyResult<()> {
    crate::guard(|| {
        accjit_driver::normalize_device_type(dev).map_err(|e| PyValueError::new_err(e.headline.trim_start_matches("error: ").to_string()))?;
        run(py, accjit_runtime::set_device_type(dev))
    })
}

/// Threads that multicore kernels run on (default: ACCJIT_NUM_THREADS, ACC_NUM_CORES or the CPU count).
#[pyfunction]
fn get_num_threads() -> usize {
    accjit_runtime::num_threads()
}

#[pyfunction]
fn set_num_threads(n: i64) -> PyResult<()> {
    if n < 1 {
        return Err(PyValueError::new_err(format!("set_num_threads: need at least 1 thread, got {n}")));
    }
    accjit_runtime::set_num_threads(n as usize);
    Ok(())
}

/// Number of devices of `device_type` (default: the current type).
#[pyfunction]
#[pyo3(signature = (device_type = None))]
fn get_num_devices(device_type: Option<&str>) -> PyResult<i32> {
    let t = match device_type {
        None => acc_device_current,
        Some(s) => accjit_runtime::DeviceType::parse(s)
            .ok_or_else(|| PyValueError::new_err(format!("unknown device type {s:?} (host, multicore, nvidia, opencl, radeon)")))?
            .to_acc(),
    };
    Ok(api::get_num_devices(if t == acc_device_current { api::get_device_type() } else { t }))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(get_device_type, m)?)?;
    m.add_function(wrap_pyfunction!(set_device_type, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_devices, m)?)?;
    Ok(())
}

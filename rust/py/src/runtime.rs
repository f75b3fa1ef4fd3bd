//! Runtime settings and the OpenACC data API on NumPy arrays.
//!
//! TEMPORARY: the runtime crate has not published its Rust API yet; until it
//! does, settings are kept here.

use pyo3::prelude::*;
use std::sync::Mutex;

static DEVICE: Mutex<Option<String>> = Mutex::new(None);

/// The device type new compilations target: set_device_type, else
/// `ACC_DEVICE_TYPE`, else "multicore".
pub fn current_device_type() -> String {
    if let Some(d) = DEVICE.lock().unwrap_or_else(|e| e.into_inner()).clone() {
        return d;
    }
    std::env::var("ACC_DEVICE_TYPE").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "multicore".into())
}

#[pyfunction]
fn get_device_type() -> String {
    current_device_type()
}

#[pyfunction]
fn set_device_type(dev: &str) -> PyResult<()> {
    let d = accjit_driver::normalize_device_type(dev).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.headline))?;
    *DEVICE.lock().unwrap_or_else(|e| e.into_inner()) = Some(d);
    Ok(())
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(get_device_type, m)?)?;
    m.add_function(wrap_pyfunction!(set_device_type, m)?)?;
    Ok(())
}

//! Runtime settings and the OpenACC data API on NumPy arrays.
//!
//! Each data routine takes an array (any contiguous NumPy array or view; its
//! address range is the data pointer and `nbytes`) and maps to the runtime's
//! `api` function of the same name. Errors become `AccError` (or one of its
//! subclasses) with `code`, `code_name`, `var`, `host_range` and `loc`.

#![allow(non_upper_case_globals)] // the spec's acc_error_* names

use accjit_runtime::api;
use accjit_runtime::consts::*;
use accjit_runtime::Clause;
use numpy::npyffi;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The device type new compilations target: the runtime's current type
/// (`set_device_type`, else `ACC_DEVICE_TYPE`, else multicore).
pub fn current_device_type() -> String {
    accjit_runtime::device::ensure_env();
    accjit_runtime::device_type_name().to_string()
}

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

/// (address, bytes) of a contiguous NumPy array.
fn range(what: &str, a: &Bound<'_, PyAny>) -> PyResult<(usize, usize)> {
    let arr = a.cast::<PyUntypedArray>().map_err(|_| {
        PyTypeError::new_err(format!("{what}() expects a NumPy array, got {}", a.get_type().name().map(|n| n.to_string()).unwrap_or_default()))
    })?;
    if !arr.is_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{what}() needs a contiguous array (this one has strides {:?}); pass np.ascontiguousarray(a) and use the copy",
            arr.strides()
        )));
    }
    let itemsize = arr.dtype().itemsize();
    // SAFETY: a live ndarray; read its data pointer.
    let data = unsafe { (*npyffi::_PyArray_GET_ITEM_DATA(arr.as_array_ptr())).data as usize };
    Ok((data, arr.len() * itemsize))
}

fn async_arg(a: Option<i64>) -> i64 {
    a.unwrap_or(acc_async_sync)
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
        Some(s) => accjit_runtime::DeviceType::parse(s).ok_or_else(|| PyValueError::new_err(format!("unknown device type {s:?}")))?.to_acc(),
    };
    Ok(api::get_num_devices(if t == acc_device_current { api::get_device_type() } else { t }))
}

macro_rules! data_fn {
    ($(#[$doc:meta])* $name:ident, $what:literal, |$h:ident, $b:ident, $a:ident, $fin:ident| $body:expr) => {
        $(#[$doc])*
        #[pyfunction]
        #[pyo3(signature = (array, async_ = None, finalize = false))]
        fn $name(py: Python<'_>, array: &Bound<'_, PyAny>, async_: Option<i64>, finalize: bool) -> PyResult<()> {
            crate::guard(|| {
                let ($h, $b) = range($what, array)?;
                let $a = async_arg(async_);
                let $fin = finalize;
                run(py, py.detach(|| $body.map(|_| ())))
            })
        }
    };
}

data_fn!(
    /// acc_copyin: make the array present (dynamic reference count + 1), copying it in.
    copyin, "copyin", |h, b, a, _f| api::copyin(h, b, a));
data_fn!(
    /// acc_create: make the array present without copying.
    create, "create", |h, b, a, _f| api::create(h, b, a));
data_fn!(
    /// acc_copyout: copy back and release (finalize=True: drop all dynamic references).
    copyout, "copyout", |h, b, a, f| api::copyout(h, b, f, a));
data_fn!(
    /// acc_delete: release without copying back.
    delete, "delete", |h, b, a, f| api::delete(h, b, f, a));
data_fn!(
    /// acc_update_device: host → device copy of present data.
    update_device, "update_device", |h, b, a, _f| api::update(true, h, b, a));
data_fn!(
    /// acc_update_self: device → host copy of present data.
    update_self, "update_self", |h, b, a, _f| api::update(false, h, b, a));

/// acc_is_present: is the whole array present on the current device?
#[pyfunction]
fn is_present(py: Python<'_>, array: &Bound<'_, PyAny>) -> PyResult<bool> {
    crate::guard(|| {
        let (h, b) = range("is_present", array)?;
        run(py, api::is_present(h, b))
    })
}

/// acc_deviceptr: the device address of the array's data (0 when not present).
#[pyfunction]
fn deviceptr(py: Python<'_>, array: &Bound<'_, PyAny>) -> PyResult<usize> {
    crate::guard(|| {
        let (h, _) = range("deviceptr", array)?;
        run(py, api::deviceptr(h))
    })
}

/// (structured, dynamic) reference counts of present data, or None.
#[pyfunction]
fn ref_counts(py: Python<'_>, array: &Bound<'_, PyAny>) -> PyResult<Option<(u64, u64)>> {
    crate::guard(|| {
        let (h, b) = range("ref_counts", array)?;
        run(py, api::ref_counts(h, b))
    })
}

fn clause_of(kind: &str) -> PyResult<Clause> {
    Ok(match kind {
        "copy" => Clause::Copy,
        "copyin" => Clause::CopyIn,
        "copyout" => Clause::CopyOut,
        "create" => Clause::Create,
        "no_create" => Clause::NoCreate,
        "present" => Clause::Present,
        _ => return Err(PyValueError::new_err(format!("unknown data clause {kind:?} (copy, copyin, copyout, create, no_create, present)"))),
    })
}

/// Entry action of data clause `kind` for `array` in a structured region (`acc.data`).
#[pyfunction]
#[pyo3(signature = (kind, array, name = None))]
fn data_enter(py: Python<'_>, kind: &str, array: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<()> {
    crate::guard(|| {
        let c = clause_of(kind)?;
        let (h, b) = range("data", array)?;
        run(py, api::data_enter(c, h, b, api::flags::STRUCTURED, acc_async_sync, name.as_deref(), None).map(|_| ()))
    })
}

/// Exit action of data clause `kind` for `array` (pairs with `data_enter`).
#[pyfunction]
#[pyo3(signature = (kind, array, name = None))]
fn data_exit(py: Python<'_>, kind: &str, array: &Bound<'_, PyAny>, name: Option<String>) -> PyResult<()> {
    crate::guard(|| {
        let c = clause_of(kind)?;
        let (h, b) = range("data", array)?;
        run(py, api::data_exit(c, h, b, api::flags::STRUCTURED, acc_async_sync, name.as_deref(), None))
    })
}

/// acc_wait(queue) / acc_wait_all() when queue is None.
#[pyfunction]
#[pyo3(signature = (queue = None))]
fn wait(py: Python<'_>, queue: Option<i64>) -> PyResult<()> {
    crate::guard(|| {
        let r = py.detach(|| match queue {
            Some(q) => api::wait(q),
            None => api::wait_all(),
        });
        run(py, r)
    })
}

/// acc_async_test(queue) / acc_async_test_all() when queue is None.
#[pyfunction]
#[pyo3(signature = (queue = None))]
fn async_test(py: Python<'_>, queue: Option<i64>) -> PyResult<bool> {
    crate::guard(|| {
        run(
            py,
            match queue {
                Some(q) => api::async_test(q),
                None => api::async_test_all(),
            },
        )
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(get_device_type, m)?)?;
    m.add_function(wrap_pyfunction!(set_device_type, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(get_num_devices, m)?)?;
    m.add_function(wrap_pyfunction!(copyin, m)?)?;
    m.add_function(wrap_pyfunction!(create, m)?)?;
    m.add_function(wrap_pyfunction!(copyout, m)?)?;
    m.add_function(wrap_pyfunction!(delete, m)?)?;
    m.add_function(wrap_pyfunction!(update_device, m)?)?;
    m.add_function(wrap_pyfunction!(update_self, m)?)?;
    m.add_function(wrap_pyfunction!(is_present, m)?)?;
    m.add_function(wrap_pyfunction!(deviceptr, m)?)?;
    m.add_function(wrap_pyfunction!(ref_counts, m)?)?;
    m.add_function(wrap_pyfunction!(data_enter, m)?)?;
    m.add_function(wrap_pyfunction!(data_exit, m)?)?;
    m.add_function(wrap_pyfunction!(wait, m)?)?;
    m.add_function(wrap_pyfunction!(async_test, m)?)?;
    Ok(())
}

//! How a call into C ends in Python when it does not return a value: the
//! `AccError` subclass of each `acc_error_*` code, and the exceptions of a
//! hosted program that ended early (`ProgramExit`, `ProgramAbort`).
//!
//! Both program exceptions derive from `RuntimeError`, not `SystemExit`: a
//! library function that calls `exit()` must not silently end the
//! interpreter that called it. `ProgramExit.code` is the status given to
//! `exit`; `ProgramAbort.message` says whether `abort()` or which `assert`.

#![allow(non_upper_case_globals)] // the spec's acc_error_* names

use crate::caller::CallFailure;
use crate::{AccError, DeviceTypeUnavailableError, InvalidAsyncError, NotPresentError, PartlyPresentError};
use accjit_runtime::consts::*;
use accjit_runtime::hosted::Outcome;
use pyo3::create_exception;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

create_exception!(_core, ProgramExit, PyRuntimeError, "The C program called exit(code) (or _Exit): .code is the status. The Python process goes on.");
create_exception!(_core, ProgramAbort, PyRuntimeError, "The C program called abort() or an assert failed: .message says which. The Python process goes on.");
create_exception!(_core, InvalidArgumentError, AccError, "acc_error_invalid_argument: an argument of a runtime routine is invalid.");
create_exception!(_core, InvalidNullPointerError, AccError, "acc_error_invalid_null_pointer: a null pointer where data is required.");
create_exception!(_core, OutOfMemoryError, AccError, "acc_error_out_of_memory: the device memory is exhausted.");

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("ProgramExit", py.get_type::<ProgramExit>())?;
    m.add("ProgramAbort", py.get_type::<ProgramAbort>())?;
    m.add("InvalidArgumentError", py.get_type::<InvalidArgumentError>())?;
    m.add("InvalidNullPointerError", py.get_type::<InvalidNullPointerError>())?;
    m.add("OutOfMemoryError", py.get_type::<OutOfMemoryError>())?;
    Ok(())
}

/// The `AccError` (sub)class instance for a code, with message `msg`.
pub fn acc_error_for_code(code: i32, msg: String) -> PyErr {
    match code {
        acc_error_not_present => NotPresentError::new_err(msg),
        acc_error_partly_present => PartlyPresentError::new_err(msg),
        acc_error_invalid_async => InvalidAsyncError::new_err(msg),
        acc_error_device_type_unavailable | acc_error_device_unavailable => DeviceTypeUnavailableError::new_err(msg),
        acc_error_invalid_argument => InvalidArgumentError::new_err(msg),
        acc_error_invalid_null_pointer => InvalidNullPointerError::new_err(msg),
        acc_error_out_of_memory => OutOfMemoryError::new_err(msg),
        _ => AccError::new_err(msg),
    }
}

fn with_attrs(py: Python<'_>, err: PyErr, attrs: &[(&str, Py<PyAny>)]) -> PyErr {
    let v = err.value(py);
    for (k, x) in attrs {
        if let Err(e) = v.setattr(*k, x) {
            return e;
        }
    }
    err
}

/// The exception for a call of `what` (`"saxpy()"`, `"main()"`) that failed.
pub fn call_failure(py: Python<'_>, what: &str, f: CallFailure) -> PyErr {
    match f {
        CallFailure::Internal(m) => PyRuntimeError::new_err(format!("{what}: {m}")),
        CallFailure::Program(Outcome::Error(e)) => crate::runtime::acc_error(py, e),
        CallFailure::Program(Outcome::Exit(code)) => {
            let err = ProgramExit::new_err(format!("{what}: the program called exit({code})"));
            with_attrs(py, err, &[("code", code.into_pyobject(py).map(|c| c.into_any().unbind()).unwrap_or_else(|_| py.None()))])
        }
        CallFailure::Program(Outcome::Abort(m)) => {
            let err = ProgramAbort::new_err(format!("{what}: {m}"));
            with_attrs(py, err, &[("message", m.into_pyobject(py).map(|c| c.into_any().unbind()).unwrap_or_else(|_| py.None()))])
        }
    }
}

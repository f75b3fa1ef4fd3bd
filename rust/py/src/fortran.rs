//! `acc.fortran`'s side of the bindings: compiling Fortran sources
//! (`_core.compile_fortran`, `_core.ptx_text_fortran`, `_core.fortran_sources`),
//! each procedure's interface as Python data, and the arguments of a call
//! marshalled by the procedure's Fortran interface (`ProcInterface`) rather
//! than its C-like IR signature:
//!
//! - scalars `value`: the number itself (as `acc.c` passes scalars);
//! - scalars by reference: a 0-d NumPy array of the exact dtype is passed
//!   in place (so `intent(out)`/`inout` results land in it), a Python number
//!   goes through a temporary; `None` for an absent `optional`;
//! - arrays: NumPy arrays of the exact dtype, passed zero-copy. Fortran
//!   order: an assumed-shape dummy (`a(:,:)`) takes the base address, the
//!   extents and the strides of dimensions 2.. in elements, so any array
//!   whose first dimension is contiguous passes (a Fortran-ordered array, a
//!   1-D array, a column slice); explicit-shape and assumed-size dummies
//!   take a base address and need the whole array Fortran-contiguous. A
//!   C-ordered multi-dimensional array is refused with "pass
//!   np.asfortranarray(x)".
//!
//! The call itself runs as `acc.c`'s do (`Module.call_fortran`, in
//! `module.rs`): GIL released, Ctrl-C, hosted program ends.

use crate::marshal::{dtype_of, Marshalled};
use accjit_driver::{FortranInfo, FunctionInfo, Program};
use accjit_front_fortran::{ArrayShape, Intent, ParamKind, ProcInterface, ProcParam};
use accjit_ir::{Scalar, Type};
use numpy::npyffi;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyAttributeError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyComplex, PyDict, PyFloat, PyList, PyString, PyTuple};
use std::path::PathBuf;

/// The Fortran spelling of an IR scalar type (for messages and docs).
pub fn fortran_type(t: &Type) -> String {
    match t {
        Type::Scalar(Scalar::I32) => "integer".into(),
        Type::Scalar(Scalar::I64) => "integer(8)".into(),
        Type::Scalar(Scalar::I16) => "integer(2)".into(),
        Type::Scalar(Scalar::I8) | Type::Scalar(Scalar::U8) => "integer(1)".into(),
        Type::Scalar(Scalar::F32) => "real".into(),
        Type::Scalar(Scalar::F64) => "real(8)".into(),
        Type::Scalar(Scalar::Bool) => "logical(1)".into(),
        Type::Complex(Scalar::F32) => "complex".into(),
        Type::Complex(_) => "complex(8)".into(),
        other => format!("{other:?}"),
    }
}

/// The NumPy dtype name of an element type.
fn dtype_name(t: &Type) -> Option<&'static str> {
    match t {
        Type::Scalar(s) => Some(dtype_of(*s).2),
        Type::Complex(Scalar::F32) => Some("complex64"),
        Type::Complex(_) => Some("complex128"),
        _ => None,
    }
}

fn intent_name(i: Intent) -> &'static str {
    match i {
        Intent::In => "in",
        Intent::Out => "out",
        Intent::InOut => "inout",
        Intent::Unspecified => "",
    }
}

/// `real(8), intent(inout) :: a(:,:)`; explicit-shape bounds show as
/// `d1, d2`, assumed size as `d1, *`.
pub fn param_decl(p: &ProcParam) -> String {
    let mut parts = vec![];
    let mut dims = String::new();
    match &p.kind {
        ParamKind::Scalar { ty, by_value } => {
            parts.push(fortran_type(ty));
            if *by_value {
                parts.push("value".into());
            }
        }
        ParamKind::Array { elem, rank, shape } => {
            parts.push(fortran_type(elem));
            let r = *rank as usize;
            let d: Vec<String> = match shape {
                ArrayShape::Assumed => vec![":".to_string(); r],
                ArrayShape::Explicit => (1..=r).map(|k| format!("d{k}")).collect(),
                ArrayShape::AssumedSize => (1..=r).map(|k| if k == r { "*".to_string() } else { format!("d{k}") }).collect(),
            };
            dims = format!("({})", d.join(","));
        }
    }
    if p.intent != Intent::Unspecified {
        parts.push(format!("intent({})", intent_name(p.intent)));
    }
    if p.optional {
        parts.push("optional".into());
    }
    format!("{} :: {}{dims}", parts.join(", "), p.name)
}

/// `subroutine saxpy(n, a, x, y)` / `real(8) function norm(x)`
pub fn proc_signature(iface: &ProcInterface) -> String {
    let names: Vec<&str> = iface.params.iter().map(|p| p.name.as_str()).collect();
    match &iface.result {
        Some(t) => format!("{} function {}({})", fortran_type(t), iface.name, names.join(", ")),
        None => format!("subroutine {}({})", iface.name, names.join(", ")),
    }
}

/// The procedures of a Fortran program as Python dicts: `{name, symbol,
/// signature, result (dtype or None), params: [{name, decl, kind
/// ('scalar'|'array'), dtype, rank, shape, by_value, intent, optional}]}`.
pub fn procedures<'py>(py: Python<'py>, info: &FortranInfo) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for iface in &info.procedures {
        let d = PyDict::new(py);
        d.set_item("name", &iface.name)?;
        d.set_item("symbol", &iface.symbol)?;
        d.set_item("signature", proc_signature(iface))?;
        d.set_item("result", iface.result.as_ref().and_then(dtype_name))?;
        let ps = PyList::empty(py);
        for p in &iface.params {
            let pd = PyDict::new(py);
            pd.set_item("name", &p.name)?;
            pd.set_item("decl", param_decl(p))?;
            pd.set_item("intent", intent_name(p.intent))?;
            pd.set_item("optional", p.optional)?;
            match &p.kind {
                ParamKind::Scalar { ty, by_value } => {
                    pd.set_item("kind", "scalar")?;
                    pd.set_item("dtype", dtype_name(ty))?;
                    pd.set_item("rank", 0)?;
                    pd.set_item("shape", py.None())?;
                    pd.set_item("by_value", *by_value)?;
                }
                ParamKind::Array { elem, rank, shape } => {
                    pd.set_item("kind", "array")?;
                    pd.set_item("dtype", dtype_name(elem))?;
                    pd.set_item("rank", *rank)?;
                    pd.set_item(
                        "shape",
                        match shape {
                            ArrayShape::Assumed => "assumed",
                            ArrayShape::Explicit => "explicit",
                            ArrayShape::AssumedSize => "assumed-size",
                        },
                    )?;
                    pd.set_item("by_value", false)?;
                }
            }
            ps.append(pd)?;
        }
        d.set_item("params", ps)?;
        out.append(d)?;
    }
    Ok(out)
}

/// The procedure `name` (any case) and its IR function.
pub fn find<'a>(p: &'a Program, name: &str) -> PyResult<(&'a ProcInterface, &'a FunctionInfo)> {
    let info = p.fortran().ok_or_else(|| PyTypeError::new_err(format!("{} was not compiled from Fortran", p.name())))?;
    let iface = info.procedure(name).ok_or_else(|| {
        let names: Vec<&str> = info.procedures.iter().map(|q| q.name.as_str()).collect();
        PyAttributeError::new_err(format!("{}: no procedure '{name}' (procedures: {})", p.name(), names.join(", ")))
    })?;
    let f = p
        .function_info(&iface.symbol)
        .ok_or_else(|| PyAttributeError::new_err(format!("{}: procedure '{}' was not compiled to a callable function", p.name(), iface.name)))?;
    Ok((iface, f))
}

fn type_name_of(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into())
}

/// Temporaries of scalars passed by reference: 16-byte cells at stable addresses.
pub type Temps = Vec<Box<[u64; 2]>>;

/// Convert `args` for a call of the Fortran procedure `iface` (IR function `f`).
pub fn marshal_fortran(iface: &ProcInterface, f: &FunctionInfo, args: &Bound<'_, PyTuple>, temps: &mut Temps) -> PyResult<Marshalled> {
    let sig = proc_signature(iface);
    if args.len() != iface.params.len() {
        let n = iface.params.len();
        return Err(PyTypeError::new_err(format!("{}() takes {n} argument{} ({} given): {sig}", iface.name, if n == 1 { "" } else { "s" }, args.len())));
    }
    let mut m = Marshalled::new();
    let ir = &f.sig.params;
    for (p, a) in iface.params.iter().zip(args.iter()) {
        let what = format!("{}(): argument '{}' ({})", iface.name, p.name, param_decl(p));
        let at = m.slots.len();
        match &p.kind {
            ParamKind::Scalar { ty, by_value: true } => {
                let bits = scalar_bits(&what, ty, &a)?;
                m.count_scalar(ty, bits);
                m.slots.push(bits);
            }
            ParamKind::Scalar { ty, by_value: false } => {
                // a character dummy is (pointer, length)
                let is_char = matches!(ty, Type::Scalar(Scalar::U8) | Type::Scalar(Scalar::I8)) && ir.get(at + 1) == Some(&Type::I64);
                if is_char {
                    char_arg(&what, p, &a, &mut m, temps)?;
                } else {
                    by_reference(&what, p, ty, &a, &mut m, temps)?;
                }
            }
            ParamKind::Array { elem, rank, shape } => array_arg(&what, p, elem, *rank as usize, *shape, &a, &mut m)?,
        }
    }
    if m.slots.len() != ir.len() {
        return Err(PyTypeError::new_err(format!(
            "{}(): internal error in accjit (please report): the interface makes {} arguments, the function takes {}",
            iface.name,
            m.slots.len(),
            ir.len()
        )));
    }
    Ok(m)
}

/// A Python number as the slot bits of a scalar of type `t`.
fn scalar_bits(what: &str, t: &Type, a: &Bound<'_, PyAny>) -> PyResult<u64> {
    match t {
        Type::Scalar(s) if s.is_float() => {
            if a.is_instance_of::<PyString>() || a.is_instance_of::<PyBytes>() || a.is_instance_of::<PyComplex>() || a.is_none() {
                return Err(PyTypeError::new_err(format!("{what} expects a real number, got {}", type_name_of(a))));
            }
            let v: f64 = a.extract().map_err(|_| PyTypeError::new_err(format!("{what} expects a real number, got {}", type_name_of(a))))?;
            Ok(if *s == Scalar::F32 {
                if v.is_finite() && v.abs() > f32::MAX as f64 {
                    return Err(PyOverflowError::new_err(format!("{what}: {v} is out of range for real(4)")));
                }
                (v as f32).to_bits() as u64
            } else {
                v.to_bits()
            })
        }
        Type::Scalar(s) => {
            if a.is_instance_of::<PyFloat>()
                || (!a.is_instance_of::<PyBool>() && a.hasattr("__float__").unwrap_or(false) && !a.hasattr("__index__").unwrap_or(false))
            {
                return Err(PyTypeError::new_err(format!(
                    "{what} expects an integer (or a logical), got {} {}; convert it with int(...) if truncation is intended",
                    type_name_of(a),
                    a.repr().map(|r| r.to_string()).unwrap_or_default()
                )));
            }
            let v: i64 = a.extract().map_err(|e: PyErr| {
                if e.is_instance_of::<PyOverflowError>(a.py()) {
                    PyOverflowError::new_err(format!("{what}: {} is out of range", a.repr().map(|r| r.to_string()).unwrap_or_default()))
                } else {
                    PyTypeError::new_err(format!("{what} expects an integer (or a logical), got {}", type_name_of(a)))
                }
            })?;
            let (lo, hi): (i64, i64) = match s {
                Scalar::I8 => (i8::MIN as i64, i8::MAX as i64),
                Scalar::U8 => (0, u8::MAX as i64),
                Scalar::I16 => (i16::MIN as i64, i16::MAX as i64),
                Scalar::I32 => (i32::MIN as i64, i32::MAX as i64),
                Scalar::Bool => (0, 1),
                _ => (i64::MIN, i64::MAX),
            };
            if v < lo || v > hi {
                return Err(PyOverflowError::new_err(format!("{what}: {v} is out of range [{lo}, {hi}]")));
            }
            Ok(v as u64)
        }
        _ => Err(PyTypeError::new_err(format!("{what}: this argument type cannot be passed from Python yet"))),
    }
}

/// A scalar by reference: a 0-d array in place, or a temporary holding a number.
fn by_reference(what: &str, p: &ProcParam, t: &Type, a: &Bound<'_, PyAny>, m: &mut Marshalled, temps: &mut Temps) -> PyResult<()> {
    if a.is_none() {
        if p.optional {
            m.slots.push(0);
            return Ok(());
        }
        return Err(PyTypeError::new_err(format!("{what} is not optional: None cannot be passed")));
    }
    if let Ok(arr) = a.cast::<PyUntypedArray>() {
        if arr.ndim() != 0 {
            return Err(PyTypeError::new_err(format!("{what} is a scalar: pass a number or a 0-d array, not a rank-{} array", arr.ndim())));
        }
        let data = checked_array(what, p, t, arr)?;
        m.keep.push(a.clone().unbind());
        m.record(data, arr.len() * arr.dtype().itemsize(), p.intent == Intent::In);
        m.slots.push(data);
        return Ok(());
    }
    let mut cell = Box::new([0u64; 2]);
    match t {
        Type::Complex(s) => {
            let (re, im) = match a.cast::<PyComplex>() {
                Ok(c) => (c.real(), c.imag()),
                Err(_) if !a.is_instance_of::<PyString>() => {
                    (a.extract::<f64>().map_err(|_| PyTypeError::new_err(format!("{what} expects a complex number, got {}", type_name_of(a))))?, 0.0)
                }
                Err(_) => return Err(PyTypeError::new_err(format!("{what} expects a complex number, got {}", type_name_of(a)))),
            };
            if *s == Scalar::F32 {
                cell[0] = (re as f32).to_bits() as u64 | ((im as f32).to_bits() as u64) << 32;
            } else {
                cell[0] = re.to_bits();
                cell[1] = im.to_bits();
            }
        }
        _ => {
            cell[0] = scalar_bits(what, t, a)?;
            m.count_scalar(t, cell[0]);
        }
    }
    let addr = cell.as_mut_ptr() as u64;
    m.record(addr, 16, p.intent == Intent::In);
    temps.push(cell);
    m.slots.push(addr);
    Ok(())
}

/// A character scalar: a `str` or `bytes` through a blank-padded copy, or a
/// NumPy `S` array in place; (pointer, length).
fn char_arg(what: &str, p: &ProcParam, a: &Bound<'_, PyAny>, m: &mut Marshalled, _temps: &mut Temps) -> PyResult<()> {
    if a.is_none() && p.optional {
        m.slots.extend([0, 0]);
        return Ok(());
    }
    let bytes: Vec<u8> = if let Ok(s) = a.cast::<PyString>() {
        s.to_string().into_bytes()
    } else if let Ok(b) = a.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        return Err(PyTypeError::new_err(format!("{what} expects a str or bytes, got {}", type_name_of(a))));
    };
    let obj = PyBytes::new(a.py(), &bytes);
    let addr = obj.as_bytes().as_ptr() as u64;
    m.record(addr, bytes.len(), true);
    m.keep.push(obj.into_any().unbind());
    m.slots.extend([addr, bytes.len() as u64]);
    Ok(())
}

/// Checks an array's dtype, byte order and (unless intent(in)) writability;
/// returns its data address.
fn checked_array(what: &str, p: &ProcParam, elem: &Type, arr: &Bound<'_, PyUntypedArray>) -> PyResult<u64> {
    let dtype = arr.dtype();
    let got = || dtype.str().map(|s| s.to_string()).unwrap_or_else(|_| "?".into());
    let ok = match elem {
        Type::Scalar(s) => {
            let (kind, size, _) = dtype_of(*s);
            dtype.kind() == kind && dtype.itemsize() == size
        }
        Type::Complex(s) => dtype.kind() == b'c' && dtype.itemsize() == 2 * s.size() as usize,
        _ => false,
    };
    if !ok {
        return Err(match dtype_name(elem) {
            Some(want) => PyTypeError::new_err(format!("{what} got a {} array; pass {}.astype(np.{want})", got(), p.name)),
            None => PyTypeError::new_err(format!("{what} got a {} array, which cannot be passed here", got())),
        });
    }
    if dtype.is_native_byteorder() == Some(false) {
        return Err(PyValueError::new_err(format!(
            "{what} got a non-native byte order ({}) array; pass {}.astype({}.dtype.newbyteorder('='))",
            got(),
            p.name,
            p.name
        )));
    }
    // SAFETY: `arr` is a live ndarray; we read two header fields.
    let (data, flags) = unsafe {
        let fields = npyffi::_PyArray_GET_ITEM_DATA(arr.as_array_ptr());
        ((*fields).data as u64, (*fields).flags)
    };
    if p.intent != Intent::In && flags & npyffi::NPY_ARRAY_WRITEABLE == 0 {
        return Err(PyValueError::new_err(format!(
            "{what} got a read-only array, but the procedure may write it; pass a writeable copy ({}.copy()) or declare the dummy intent(in)",
            p.name
        )));
    }
    Ok(data)
}

/// An array dummy's slots: base, then (assumed shape) the extents and the
/// strides of dimensions 2.. in elements.
#[allow(clippy::too_many_arguments)]
fn array_arg(what: &str, p: &ProcParam, elem: &Type, rank: usize, shape: ArrayShape, a: &Bound<'_, PyAny>, m: &mut Marshalled) -> PyResult<()> {
    let nslots = if shape == ArrayShape::Assumed { 2 * rank } else { 1 };
    if a.is_none() {
        if p.optional {
            m.slots.extend(std::iter::repeat_n(0, nslots));
            return Ok(());
        }
        return Err(PyTypeError::new_err(format!("{what} is not optional: None cannot be passed")));
    }
    let arr = a.cast::<PyUntypedArray>().map_err(|_| {
        let hint = dtype_name(elem).map(|d| format!("; pass np.asfortranarray(..., dtype=np.{d})")).unwrap_or_default();
        PyTypeError::new_err(format!("{what} expects a NumPy array, got {}{hint}", type_name_of(a)))
    })?;
    let data = checked_array(what, p, elem, arr)?;
    let ndim = arr.ndim();
    let item = arr.dtype().itemsize() as isize;
    let dims = arr.shape().to_vec();
    let strides = arr.strides().to_vec();
    if shape == ArrayShape::Assumed && ndim != rank {
        return Err(PyTypeError::new_err(format!("{what} expects a rank-{rank} array, got a rank-{ndim} array (shape {dims:?})")));
    }
    if ndim == 0 {
        return Err(PyTypeError::new_err(format!("{what} expects an array, got a 0-d array")));
    }
    let empty = dims.contains(&0);
    let c_order_hint = || {
        if ndim > 1 && arr.is_c_contiguous() {
            format!("{what} got a C-ordered (row-major) array; Fortran arrays are column-major: pass np.asfortranarray({})", p.name)
        } else if ndim > 1 {
            format!("{what} got an array whose first dimension is not contiguous (strides {strides:?}); pass np.asfortranarray({})", p.name)
        } else {
            format!("{what} got a non-contiguous array (stride {}); pass np.ascontiguousarray({})", strides[0], p.name)
        }
    };
    let fortran_contiguous = arr.is_fortran_contiguous() || (ndim == 1 && arr.is_c_contiguous());
    match shape {
        ArrayShape::Assumed => {
            let later_ok = strides[1..].iter().all(|&s| s > 0 && s % item == 0);
            if !empty && (strides[0] != item || !later_ok) && !fortran_contiguous {
                return Err(PyValueError::new_err(c_order_hint()));
            }
        }
        _ => {
            if !empty && !fortran_contiguous {
                return Err(PyValueError::new_err(c_order_hint()));
            }
        }
    }
    m.keep.push(a.clone().unbind());
    m.size.add_elements(arr.len() as u64);
    let extent_of_view = if fortran_contiguous || empty { arr.len() } else { span_elems(&dims, &strides, item) };
    m.record(data, extent_of_view * item as usize, p.intent == Intent::In);
    m.slots.push(data);
    if shape == ArrayShape::Assumed {
        m.slots.extend(dims.iter().map(|&d| d as u64));
        let mut acc = 1i64;
        for k in 1..rank {
            // contiguous (or empty) arrays: the column-major strides of the shape
            let s = if fortran_contiguous || empty {
                acc *= dims[k - 1] as i64;
                acc
            } else {
                (strides[k] / item) as i64
            };
            m.slots.push(s as u64);
        }
    }
    Ok(())
}

/// Elements from the first to one past the last of a strided view (all strides positive).
fn span_elems(dims: &[usize], strides: &[isize], item: isize) -> usize {
    1 + dims.iter().zip(strides).map(|(&d, &s)| (d.saturating_sub(1)) * (s / item) as usize).sum::<usize>()
}

/// Compile Fortran `files` (name, text). `defines` is a list of (name, value-or-None).
#[pyfunction]
#[pyo3(signature = (files, device_type = None, defines = None, undefines = None, include_dirs = None, keep_clif = false))]
pub fn compile_fortran(
    py: Python<'_>,
    files: Vec<(String, String)>,
    device_type: Option<String>,
    defines: Option<Vec<(String, Option<String>)>>,
    undefines: Option<Vec<String>>,
    include_dirs: Option<Vec<PathBuf>>,
    keep_clif: bool,
) -> PyResult<crate::module::PyProgram> {
    crate::guard(|| {
        let opts = accjit_driver::Options {
            device_type: device_type.unwrap_or_else(crate::runtime::current_device_type),
            defines: defines.unwrap_or_default(),
            undefines: undefines.unwrap_or_default(),
            include_dirs: include_dirs.unwrap_or_default(),
            keep_clif,
            back_end: accjit_driver::BackEndOptions::from_env(),
        };
        let r = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| accjit_driver::compile_fortran_cached(&files, &opts))));
        match r {
            Ok(Ok((program, from_cache))) => Ok(crate::module::PyProgram::new(program, from_cache)),
            Ok(Err(e)) => Err(crate::compile_error(py, &e)),
            Err(p) => Err(pyo3::exceptions::PyRuntimeError::new_err(format!("internal error in accjit (please report): {}", crate::panic_message(&*p)))),
        }
    })
}

/// The PTX of a Fortran program's kernels for the nvidia device.
#[pyfunction]
#[pyo3(signature = (files, defines = None, undefines = None, include_dirs = None))]
pub fn ptx_text_fortran(
    py: Python<'_>,
    files: Vec<(String, String)>,
    defines: Option<Vec<(String, Option<String>)>>,
    undefines: Option<Vec<String>>,
    include_dirs: Option<Vec<PathBuf>>,
) -> PyResult<String> {
    crate::guard(|| {
        let opts = accjit_driver::Options {
            defines: defines.unwrap_or_default(),
            undefines: undefines.unwrap_or_default(),
            include_dirs: include_dirs.unwrap_or_default(),
            ..accjit_driver::Options::default()
        };
        let r = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| accjit_driver::ptx_text_fortran(&files, &opts))));
        match r {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(e)) => Err(crate::compile_error(py, &e)),
            Err(p) => Err(pyo3::exceptions::PyRuntimeError::new_err(format!("internal error in accjit (please report): {}", crate::panic_message(&*p)))),
        }
    })
}

/// The files of a Fortran program given by path: those given, then the
/// module files they use found beside the first (`accjit run`).
#[pyfunction]
pub fn fortran_sources(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Vec<(String, String)>> {
    crate::guard(|| accjit_driver::fortran_sources(&paths).map_err(|e| crate::compile_error(py, &e)))
}

/// Whether a file name is Fortran source by its extension.
#[pyfunction]
pub fn is_fortran_file(name: &str) -> bool {
    accjit_driver::is_fortran_file(name)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(compile_fortran, m)?)?;
    m.add_function(wrap_pyfunction!(ptx_text_fortran, m)?)?;
    m.add_function(wrap_pyfunction!(fortran_sources, m)?)?;
    m.add_function(wrap_pyfunction!(is_fortran_file, m)?)?;
    Ok(())
}

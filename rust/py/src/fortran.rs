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
//! - character scalars: a `str` or `bytes` (copied, blank-padded to a
//!   declared length), or a `bytearray` / 0-d NumPy `S` array passed in
//!   place (what `intent(out)`/`inout` needs to see the result);
//! - dummies Python cannot stand for (allocatable or pointer arrays, dummy
//!   procedures, derived types, character arrays): the call is refused with
//!   a message naming the argument.
//!
//! Results: numbers, `bool` for `logical`, `str` for `character` (its bytes
//! as UTF-8, invalid bytes replaced), a new Fortran-ordered NumPy array for
//! an array-valued function (the callee's heap result copied, then freed).
//!
//! The call itself runs as `acc.c`'s do (`Module.call_fortran`, in
//! `module.rs`): GIL released, Ctrl-C, hosted program ends.

use crate::marshal::{dtype_of, Marshalled};
use accjit_driver::{FortranInfo, FunctionInfo, Program};
use accjit_front_fortran::{ArrayShape, FType, Intent, ParamKind, ProcInterface, ProcParam};
use accjit_ir::{Scalar, Type};
use numpy::npyffi;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyAttributeError, PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyByteArrayMethods, PyBytes, PyComplex, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use std::path::PathBuf;

/// The Fortran spelling of a dummy's or result's type.
pub fn ftype_name(t: &FType) -> String {
    match t {
        FType::Int(4) => "integer".into(),
        FType::Real(4) => "real".into(),
        FType::Complex(4) => "complex".into(),
        FType::Logical(4) => "logical".into(),
        FType::Int(k) => format!("integer({k})"),
        FType::Real(k) => format!("real({k})"),
        FType::Complex(k) => format!("complex({k})"),
        FType::Logical(k) => format!("logical({k})"),
        FType::Char(Some(n)) => format!("character(len={n})"),
        FType::Char(None) => "character(len=*)".into(),
        FType::Derived(..) => "type(...)".into(),
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
    let mut parts = vec![ftype_name(&p.ftype)];
    let mut dims = String::new();
    match &p.kind {
        ParamKind::Scalar { by_value, .. } => {
            if *by_value {
                parts.push("value".into());
            }
        }
        ParamKind::Array { rank, shape, .. } => {
            let r = *rank as usize;
            let d: Vec<String> = match shape {
                ArrayShape::Assumed => vec![":".to_string(); r],
                ArrayShape::Explicit => (1..=r).map(|k| format!("d{k}")).collect(),
                ArrayShape::AssumedSize => (1..=r).map(|k| if k == r { "*".to_string() } else { format!("d{k}") }).collect(),
            };
            dims = format!("({})", d.join(","));
        }
        ParamKind::Char { .. } | ParamKind::Unsupported { .. } => {}
    }
    if p.intent != Intent::Unspecified {
        parts.push(format!("intent({})", intent_name(p.intent)));
    }
    if p.optional {
        parts.push("optional".into());
    }
    format!("{} :: {}{dims}", parts.join(", "), p.name)
}

/// `subroutine saxpy(n, a, x, y)` / `real(8) function norm(x)` /
/// `real(8), dimension(:,:) function outer(x, y)`
pub fn proc_signature(iface: &ProcInterface) -> String {
    let names: Vec<&str> = iface.params.iter().map(|p| p.name.as_str()).collect();
    match &iface.result_ftype {
        Some(t) if iface.result_rank > 0 => {
            format!("{}, dimension({}) function {}({})", ftype_name(t), vec![":"; iface.result_rank as usize].join(","), iface.name, names.join(", "))
        }
        Some(t) => format!("{} function {}({})", ftype_name(t), iface.name, names.join(", ")),
        None => format!("subroutine {}({})", iface.name, names.join(", ")),
    }
}

/// What a function returns to Python: a dtype name, `bool`, `str`, or
/// None for subroutines.
fn result_name(iface: &ProcInterface) -> Option<&'static str> {
    match iface.result_ftype.as_ref()? {
        FType::Logical(_) if iface.result_rank == 0 => Some("bool"),
        FType::Char(_) => Some("str"),
        _ => iface.result.as_ref().and_then(dtype_name),
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
        d.set_item("result", result_name(iface))?;
        d.set_item("result_rank", iface.result_rank)?;
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
                ParamKind::Char { .. } => {
                    pd.set_item("kind", "char")?;
                    pd.set_item("dtype", py.None())?;
                    pd.set_item("rank", 0)?;
                    pd.set_item("shape", py.None())?;
                    pd.set_item("by_value", false)?;
                }
                ParamKind::Unsupported { why } => {
                    pd.set_item("kind", "unsupported")?;
                    pd.set_item("why", why)?;
                    pd.set_item("dtype", py.None())?;
                    pd.set_item("rank", 0)?;
                    pd.set_item("shape", py.None())?;
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

/// Which argument a message is about (`name(): argument 'x' (decl)`),
/// formatted only when a message is made: the text costs more than the
/// conversion of the argument.
struct What<'a> {
    iface: &'a ProcInterface,
    p: &'a ProcParam,
}

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}(): argument '{}' ({})", self.iface.name, self.p.name, param_decl(self.p))
    }
}

/// Temporaries of scalars passed by reference: 16-byte cells at stable addresses.
pub type Temps = Vec<Box<[u64; 2]>>;

/// Convert `args` for a call of the Fortran procedure `iface` (IR function `f`).
pub fn marshal_fortran(iface: &ProcInterface, f: &FunctionInfo, args: &Bound<'_, PyTuple>, temps: &mut Temps) -> PyResult<Marshalled> {
    if args.len() != iface.params.len() {
        let n = iface.params.len();
        return Err(PyTypeError::new_err(format!(
            "{}() takes {n} argument{} ({} given): {}",
            iface.name,
            if n == 1 { "" } else { "s" },
            args.len(),
            proc_signature(iface)
        )));
    }
    if let Some((p, why)) = iface.params.iter().find_map(|p| match &p.kind {
        ParamKind::Unsupported { why } => Some((p, why)),
        _ => None,
    }) {
        return Err(PyTypeError::new_err(format!(
            "{}(): argument '{}' ({}) is {why}, which Python cannot pass; call it from a Fortran procedure whose dummies are arrays and scalars, and call that one",
            iface.name,
            p.name,
            param_decl(p)
        )));
    }
    let mut m = Marshalled::new();
    let ir = &f.sig.params;
    for (p, a) in iface.params.iter().zip(args.iter()) {
        let what = What { iface, p };
        match &p.kind {
            ParamKind::Scalar { ty, by_value: true } => {
                let bits = scalar_bits(&what, ty, &a)?;
                m.count_scalar(ty, bits);
                m.slots.push(bits);
            }
            ParamKind::Scalar { ty, by_value: false } => by_reference(&what, p, ty, &a, &mut m, temps)?,
            ParamKind::Char { len } => char_arg(&what, p, *len, &a, &mut m)?,
            ParamKind::Array { elem, rank, shape } => array_arg(&what, p, elem, *rank as usize, *shape, &a, &mut m)?,
            ParamKind::Unsupported { .. } => unreachable!("refused above"),
        }
    }
    // Hidden result parameters: cells the callee fills, read by `result_value`
    // (the last temporaries, in this order).
    let cells = match (&iface.result_ftype, iface.result_rank) {
        (Some(_), r) if r > 0 => 3 * r as usize,
        (Some(FType::Char(_)), _) => 2,
        _ => 0,
    };
    for _ in 0..cells {
        let mut cell = Box::new([0u64; 2]);
        m.slots.push(cell.as_mut_ptr() as u64);
        temps.push(cell);
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
fn scalar_bits(what: &What<'_>, t: &Type, a: &Bound<'_, PyAny>) -> PyResult<u64> {
    match t {
        Type::Scalar(s) if s.is_float() => {
            // An exact `float` needs none of the checks.
            let v = match a.cast_exact::<PyFloat>() {
                Ok(x) => x.value(),
                Err(_) => {
                    if a.is_instance_of::<PyString>() || a.is_instance_of::<PyBytes>() || a.is_instance_of::<PyComplex>() || a.is_none() {
                        return Err(PyTypeError::new_err(format!("{what} expects a real number, got {}", type_name_of(a))));
                    }
                    a.extract::<f64>().map_err(|_| PyTypeError::new_err(format!("{what} expects a real number, got {}", type_name_of(a))))?
                }
            };
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
            // An exact `int` needs no attribute lookups.
            if !a.is_exact_instance_of::<PyInt>()
                && (a.is_instance_of::<PyFloat>()
                    || (!a.is_instance_of::<PyBool>() && a.hasattr("__float__").unwrap_or(false) && !a.hasattr("__index__").unwrap_or(false)))
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
fn by_reference(what: &What<'_>, p: &ProcParam, t: &Type, a: &Bound<'_, PyAny>, m: &mut Marshalled, temps: &mut Temps) -> PyResult<()> {
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

/// A character scalar: (pointer, length). A `bytearray` or a 0-d NumPy `S`
/// array is passed in place; a `str` (UTF-8) or `bytes` through a copy,
/// blank-padded to the declared length.
fn char_arg(what: &What<'_>, p: &ProcParam, len: Option<u64>, a: &Bound<'_, PyAny>, m: &mut Marshalled) -> PyResult<()> {
    if a.is_none() {
        if p.optional {
            m.slots.extend([0, 0]);
            return Ok(());
        }
        return Err(PyTypeError::new_err(format!("{what} is not optional: None cannot be passed")));
    }
    let short = |n: usize| PyValueError::new_err(format!("{what} is {} characters long; the buffer given has {n}", len.unwrap_or(0)));
    // In place: a bytearray, or a 0-d NumPy bytes array.
    let in_place = if let Ok(b) = a.cast::<PyByteArray>() {
        Some((b.data() as u64, b.len()))
    } else if let Ok(arr) = a.cast::<PyUntypedArray>() {
        if arr.ndim() != 0 || arr.dtype().kind() != b'S' {
            return Err(PyTypeError::new_err(format!(
                "{what} expects a str, bytes, bytearray or a 0-d NumPy bytes array, got a {} array of rank {}",
                arr.dtype().str().map(|s| s.to_string()).unwrap_or_default(),
                arr.ndim()
            )));
        }
        // SAFETY: `arr` is a live ndarray; we read two header fields.
        let (data, flags) = unsafe {
            let fields = npyffi::_PyArray_GET_ITEM_DATA(arr.as_array_ptr());
            ((*fields).data as u64, (*fields).flags)
        };
        if p.intent != Intent::In && flags & npyffi::NPY_ARRAY_WRITEABLE == 0 {
            return Err(PyValueError::new_err(format!("{what} got a read-only array, but the procedure may write it; pass a writeable copy")));
        }
        Some((data, arr.dtype().itemsize()))
    } else {
        None
    };
    if let Some((addr, n)) = in_place {
        if len.is_some_and(|l| (n as u64) < l) {
            return Err(short(n));
        }
        let n = len.map(|l| l as usize).unwrap_or(n);
        m.keep.push(a.clone().unbind());
        m.record(addr, n, p.intent == Intent::In);
        m.slots.extend([addr, n as u64]);
        return Ok(());
    }
    let mut bytes: Vec<u8> = if let Ok(s) = a.cast::<PyString>() {
        s.to_string().into_bytes()
    } else if let Ok(b) = a.cast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else {
        return Err(PyTypeError::new_err(format!("{what} expects a str or bytes (or a bytearray to receive a result), got {}", type_name_of(a))));
    };
    if p.intent == Intent::Out {
        return Err(PyTypeError::new_err(format!(
            "{what} is intent(out): pass a bytearray (or a 0-d NumPy bytes array) to receive it, e.g. bytearray({})",
            len.unwrap_or(bytes.len() as u64).max(1)
        )));
    }
    if let Some(l) = len {
        bytes.resize((l as usize).max(bytes.len()), b' ');
    }
    let obj = PyBytes::new(a.py(), &bytes);
    let addr = obj.as_bytes().as_ptr() as u64;
    m.record(addr, bytes.len(), true);
    m.keep.push(obj.into_any().unbind());
    m.slots.extend([addr, len.unwrap_or(bytes.len() as u64)]);
    Ok(())
}

unsafe extern "C" {
    fn free(p: *mut std::ffi::c_void);
}

/// The value a call of `iface` returns to Python: the IR return slots
/// (`ret`), or for array and character results the hidden result cells at
/// the end of `temps` (whose heap memory is freed here).
pub fn result_value(py: Python<'_>, iface: &ProcInterface, ret_ty: &Type, ret: [u64; 2], temps: &Temps) -> PyResult<Py<PyAny>> {
    let Some(ft) = &iface.result_ftype else { return Ok(py.None()) };
    if iface.result_rank > 0 {
        let r = iface.result_rank as usize;
        let cells: Vec<u64> = temps[temps.len() - 3 * r..].iter().map(|c| c[0]).collect();
        let base = cells[0] as *mut std::ffi::c_void;
        let exts: Vec<usize> = cells[1 + r..1 + 2 * r].iter().map(|&e| (e as i64).max(0) as usize).collect();
        let strides: Vec<i64> = std::iter::once(1).chain(cells[1 + 2 * r..3 * r].iter().map(|&s| s as i64)).collect();
        let elem = iface.result.clone().unwrap_or(Type::Void);
        let item = match &elem {
            Type::Scalar(s) => s.size() as usize,
            Type::Complex(s) => 2 * s.size() as usize,
            _ => 1,
        };
        let n: usize = exts.iter().product();
        // Gather the result column-major into a new Fortran-ordered array.
        let mut bytes = vec![0u8; n * item];
        if n > 0 && !base.is_null() {
            let mut idx = vec![0usize; r];
            for k in 0..n {
                let off: i64 = idx.iter().zip(&strides).map(|(&i, &s)| i as i64 * s).sum();
                // SAFETY: the callee allocated the result with these extents and strides.
                unsafe { std::ptr::copy_nonoverlapping((base as *const u8).offset((off * item as i64) as isize), bytes.as_mut_ptr().add(k * item), item) };
                for d in 0..r {
                    idx[d] += 1;
                    if idx[d] < exts[d] {
                        break;
                    }
                    idx[d] = 0;
                }
            }
        }
        if !base.is_null() {
            // SAFETY: the callee allocated it with calloc and hands it over.
            unsafe { free(base) };
        }
        let np = py.import("numpy")?;
        let dtype = dtype_name(&elem).unwrap_or("uint8");
        let flat = np.call_method1("frombuffer", (PyBytes::new(py, &bytes), dtype))?;
        let kw = PyDict::new(py);
        kw.set_item("order", "F")?;
        let shaped = flat.call_method("reshape", (PyTuple::new(py, &exts)?,), Some(&kw))?;
        let out = shaped.call_method1("copy", ("F",))?;
        if matches!(ft, FType::Logical(_)) {
            return Ok(out.call_method1("astype", ("bool",))?.unbind());
        }
        return Ok(out.unbind());
    }
    match ft {
        FType::Char(_) => {
            let cells = &temps[temps.len() - 2..];
            let (ptr, len) = (cells[0][0] as *mut u8, cells[1][0] as usize);
            let text = if ptr.is_null() {
                String::new()
            } else {
                // SAFETY: the callee malloc'ed `len` bytes and hands them over.
                let s = String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(ptr, len) }).into_owned();
                unsafe { free(ptr as *mut std::ffi::c_void) };
                s
            };
            Ok(PyString::new(py, &text).into_any().unbind())
        }
        FType::Logical(k) => {
            let mask = if *k >= 8 { u64::MAX } else { (1u64 << (8 * *k as u32)) - 1 };
            Ok(PyBool::new(py, ret[0] & mask != 0).to_owned().into_any().unbind())
        }
        _ => crate::marshal::unmarshal(py, ret_ty, ret),
    }
}

/// Checks an array's dtype, byte order and (unless intent(in)) writability;
/// returns its data address.
fn checked_array(what: &What<'_>, p: &ProcParam, elem: &Type, arr: &Bound<'_, PyUntypedArray>) -> PyResult<u64> {
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
fn array_arg(what: &What<'_>, p: &ProcParam, elem: &Type, rank: usize, shape: ArrayShape, a: &Bound<'_, PyAny>, m: &mut Marshalled) -> PyResult<()> {
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

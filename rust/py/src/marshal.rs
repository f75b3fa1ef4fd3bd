//! Python arguments → the trampoline's `u64` slots, checked against the
//! function's IR signature; return slots → Python values.
//!
//! Slot encoding (docs/runtime-abi.md): integers sign/zero-extended to 64
//! bits, `float` as its 32 bits in the low half, `double` as its 64 bits,
//! pointers as addresses. Pointer parameters take NumPy arrays (exact dtype,
//! C-contiguous, writeable unless the pointee is `const`) or `None` (NULL).

use crate::caller::CallSize;
use accjit_driver::{FunctionInfo, ParamInfo};
use accjit_ir::{Scalar, Type};
use numpy::npyffi;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyComplex, PyFloat, PyInt, PyString, PyTuple};

/// The NumPy arrays of a call on a discrete device (empty, and allocating
/// nothing, on the others: a list kept inline would be copied with every
/// move of the call's closure).
pub type CallArrayList = Vec<accjit_runtime::compute::CallArray>;

/// Arguments ready for a call, and the Python objects that must outlive it.
pub struct Marshalled {
    /// The trampoline's argument slots (a few inline: no allocation).
    pub slots: smallvec::SmallVec<[u64; 8]>,
    pub keep: crate::caller::Keep,
    /// CUDA arrays mapped onto themselves for the call (`interop::bind`);
    /// unmapped with `interop::unmap` when it returns.
    pub mapped: Vec<u64>,
    /// On a device without shared memory, the NumPy arrays of the call, so
    /// that a kernel using one with no data clause copies it implicitly
    /// (`accjit_runtime::compute::translate_or_copy`); empty otherwise.
    pub arrays: CallArrayList,
    /// How much work the arguments could ask for (whether the waiting
    /// thread may run gangs: `caller::ShortCalls`).
    pub size: CallSize,
    /// The current device has no shared memory (arrays are recorded).
    discrete: bool,
}

impl Marshalled {
    /// No arguments yet, for the current device.
    pub fn new() -> Marshalled {
        let discrete = accjit_runtime::device::current_device().is_ok_and(|d| !d.mem.is_shared());
        Marshalled {
            slots: Default::default(),
            keep: Default::default(),
            mapped: Vec::new(),
            arrays: CallArrayList::new(),
            size: CallSize::default(),
            discrete,
        }
    }

    /// Records host memory the call passes (on a discrete device, for
    /// implicit copies of data a kernel uses with no data clause).
    pub fn record(&mut self, addr: u64, bytes: usize, readonly: bool) {
        if self.discrete {
            self.arrays.push(accjit_runtime::compute::CallArray { addr: addr as usize, bytes, readonly });
        }
    }

    /// Counts a scalar argument of type `ty` passed as the slot `bits` in
    /// the call's size (integers only: they may be loop counts).
    pub fn count_scalar(&mut self, ty: &Type, bits: u64) {
        match ty {
            Type::Scalar(s) if s.is_float() || *s == Scalar::Bool => {}
            Type::Scalar(s) if s.is_signed() => self.size.add_int(bits as i64 as i128),
            Type::Scalar(_) => self.size.add_int(bits as i128),
            _ => {}
        }
    }
}

impl Default for Marshalled {
    fn default() -> Self {
        Marshalled::new()
    }
}

/// The NumPy dtype (kind, itemsize, name) matching a C pointee scalar.
pub fn dtype_of(s: Scalar) -> (u8, usize, &'static str) {
    match s {
        Scalar::Bool => (b'b', 1, "bool"),
        Scalar::I8 => (b'i', 1, "int8"),
        Scalar::U8 => (b'u', 1, "uint8"),
        Scalar::I16 => (b'i', 2, "int16"),
        Scalar::U16 => (b'u', 2, "uint16"),
        Scalar::I32 => (b'i', 4, "int32"),
        Scalar::U32 => (b'u', 4, "uint32"),
        Scalar::I64 => (b'i', 8, "int64"),
        Scalar::U64 => (b'u', 8, "uint64"),
        Scalar::F32 => (b'f', 4, "float32"),
        Scalar::F64 => (b'f', 8, "float64"),
    }
}

/// The dtype name a pointer parameter requires (`None`: any array, e.g. `void *`).
pub fn required_dtype(pointee: &Type) -> Option<String> {
    match pointee {
        Type::Scalar(s) => Some(dtype_of(*s).2.to_string()),
        Type::Complex(Scalar::F32) => Some("complex64".into()),
        Type::Complex(_) => Some("complex128".into()),
        Type::Ptr(_) => Some("uint64".into()),
        Type::Array(t, _) => required_dtype(t),
        _ => None,
    }
}

fn type_name_of(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into())
}

fn prefix(f: &FunctionInfo, p: &ParamInfo) -> String {
    format!("{}(): parameter '{}' ({})", f.name, p.name, p.ctype)
}

/// Convert `args` for a call of `f`.
pub fn marshal(f: &FunctionInfo, args: &Bound<'_, PyTuple>) -> PyResult<Marshalled> {
    if f.sig.variadic {
        return Err(PyTypeError::new_err(format!("{}(): variadic C functions cannot be called from Python: {}", f.name, f.signature())));
    }
    if args.len() != f.params.len() {
        let n = f.params.len();
        return Err(PyTypeError::new_err(format!(
            "{}() takes {} argument{} ({} given): {}",
            f.name,
            n,
            if n == 1 { "" } else { "s" },
            args.len(),
            f.signature()
        )));
    }
    let mut m = Marshalled::new();
    m.slots.reserve(args.len());
    for (p, a) in f.params.iter().zip(args.iter()) {
        let slot = match &p.ty {
            Type::Scalar(s) => {
                let bits = scalar(f, p, *s, &a)?;
                m.count_scalar(&p.ty, bits);
                bits
            }
            Type::Ptr(pointee) => pointer(f, p, pointee, &a, &mut m)?,
            Type::Array(elem, _) => pointer(f, p, elem, &a, &mut m)?,
            _ => return Err(PyTypeError::new_err(format!("{}: this parameter type cannot be passed from Python", prefix(f, p)))),
        };
        m.slots.push(slot);
    }
    Ok(m)
}

fn scalar(f: &FunctionInfo, p: &ParamInfo, s: Scalar, a: &Bound<'_, PyAny>) -> PyResult<u64> {
    // The common cases first, with no attribute lookups: an exact `int`
    // for an integer parameter, an exact `float` for a floating one.
    if s.is_float() {
        if let Ok(x) = a.cast_exact::<PyFloat>() {
            let v = x.value();
            if s == Scalar::F64 || !v.is_finite() || v.abs() <= f32::MAX as f64 {
                return Ok(if s == Scalar::F32 { (v as f32).to_bits() as u64 } else { v.to_bits() });
            }
        }
    } else if s != Scalar::Bool && a.is_exact_instance_of::<PyInt>() {
        if let Ok(v) = a.extract::<i64>() {
            if let Some(bits) = int_bits(s, v as i128) {
                return Ok(bits);
            }
        }
    }
    if s.is_float() {
        if a.is_instance_of::<PyString>() || a.is_instance_of::<PyBytes>() || a.is_instance_of::<PyComplex>() || a.is_none() {
            return Err(PyTypeError::new_err(format!("{} expects a real number, got {}", prefix(f, p), type_name_of(a))));
        }
        let v: f64 = a.extract().map_err(|_| PyTypeError::new_err(format!("{} expects a real number, got {}", prefix(f, p), type_name_of(a))))?;
        return Ok(match s {
            Scalar::F32 => {
                if v.is_finite() && v.abs() > f32::MAX as f64 {
                    return Err(PyOverflowError::new_err(format!("{}: {v} is out of range for float", prefix(f, p))));
                }
                (v as f32).to_bits() as u64
            }
            _ => v.to_bits(),
        });
    }
    if a.is_instance_of::<PyFloat>() || (!a.is_instance_of::<PyBool>() && a.hasattr("__float__").unwrap_or(false) && !a.hasattr("__index__").unwrap_or(false)) {
        return Err(PyTypeError::new_err(format!(
            "{} expects an integer, got {} {}; convert it with int(...) if truncation is intended",
            prefix(f, p),
            type_name_of(a),
            a.repr().map(|r| r.to_string()).unwrap_or_default()
        )));
    }
    let bad_type = || PyTypeError::new_err(format!("{} expects an integer, got {}", prefix(f, p), type_name_of(a)));
    if s == Scalar::Bool {
        let v: i64 = a.extract().map_err(|_| bad_type())?;
        return Ok((v != 0) as u64);
    }
    // Every integer fits i128 once it fits i64 or u64.
    let v: i128 = match a.extract::<i64>() {
        Ok(v) => v as i128,
        Err(e) if e.is_instance_of::<PyOverflowError>(a.py()) => match a.extract::<u64>() {
            Ok(v) => v as i128,
            Err(_) => i128::MAX,
        },
        Err(_) => return Err(bad_type()),
    };
    match int_bits(s, v) {
        Some(bits) => Ok(bits),
        None => {
            let (lo, hi) = int_range(s);
            let shown = a.repr().map(|r| r.to_string()).unwrap_or_default();
            Err(PyOverflowError::new_err(format!("{}: {shown} is out of range [{lo}, {hi}]", prefix(f, p))))
        }
    }
}

/// The slot of integer `v` for a parameter of integer type `s`, or `None`
/// when `v` is out of the type's range.
fn int_bits(s: Scalar, v: i128) -> Option<u64> {
    let (lo, hi) = int_range(s);
    (lo..=hi).contains(&v).then_some(if s.is_signed() { v as i64 as u64 } else { v as u64 })
}

/// The range of integer type `s`.
fn int_range(s: Scalar) -> (i128, i128) {
    match s {
        Scalar::I8 => (i8::MIN as i128, i8::MAX as i128),
        Scalar::U8 => (0, u8::MAX as i128),
        Scalar::I16 => (i16::MIN as i128, i16::MAX as i128),
        Scalar::U16 => (0, u16::MAX as i128),
        Scalar::I32 => (i32::MIN as i128, i32::MAX as i128),
        Scalar::U32 => (0, u32::MAX as i128),
        Scalar::I64 => (i64::MIN as i128, i64::MAX as i128),
        _ => (0, u64::MAX as i128),
    }
}

fn pointer(f: &FunctionInfo, p: &ParamInfo, pointee: &Type, a: &Bound<'_, PyAny>, m: &mut Marshalled) -> PyResult<u64> {
    if a.is_none() {
        return Ok(0);
    }
    if matches!(pointee, Type::Func(_)) {
        return Err(PyTypeError::new_err(format!("{}: function pointers cannot be passed from Python", prefix(f, p))));
    }
    if a.cast::<PyUntypedArray>().is_err() {
        if let Some(cuda) = crate::interop::cuda_array(a)? {
            let (addr, mapped) = crate::interop::bind(&prefix(f, p), pointee, p.const_pointee == Some(false), &cuda)?;
            if mapped {
                m.mapped.push(addr);
            }
            m.keep.push(a.clone().unbind());
            m.size.add_elements(cuda.shape.iter().map(|&d| d.max(0) as u64).product());
            m.keep.extend(cuda.keep);
            return Ok(addr);
        }
    }
    let keep = &mut m.keep;
    let arr = a.cast::<PyUntypedArray>().map_err(|_| {
        let hint = match required_dtype(pointee) {
            Some(d) => format!("; pass np.asarray(..., dtype=np.{d})"),
            None => String::new(),
        };
        PyTypeError::new_err(format!("{} expects a NumPy array or None, got {}{hint}", prefix(f, p), type_name_of(a)))
    })?;
    let dtype = arr.dtype();
    // The dtype's text only for messages: reading it costs a Python call.
    let got = || dtype.str().map(|s| s.to_string()).unwrap_or_else(|_| "?".into());
    let ok = match pointee {
        Type::Void => true,
        Type::Scalar(s) => {
            let (kind, size, _) = dtype_of(*s);
            dtype.kind() == kind && dtype.itemsize() == size
        }
        Type::Complex(s) => dtype.kind() == b'c' && dtype.itemsize() == 2 * s.size() as usize,
        Type::Ptr(_) => matches!(dtype.kind(), b'u' | b'i') && dtype.itemsize() == 8,
        Type::Struct(_) | Type::Array(..) | Type::Desc { .. } => !dtype.has_object(),
        _ => false,
    };
    if !ok {
        return Err(match required_dtype(pointee) {
            Some(want) => PyTypeError::new_err(format!("{} got a {} array; pass {}.astype(np.{want})", prefix(f, p), got(), p.name)),
            None => PyTypeError::new_err(format!("{} got a {} array, which cannot be passed here", prefix(f, p), got())),
        });
    }
    if dtype.has_object() {
        return Err(PyTypeError::new_err(format!("{} got an object array; only numeric arrays can be passed", prefix(f, p))));
    }
    if dtype.is_native_byteorder() == Some(false) {
        return Err(PyValueError::new_err(format!(
            "{} got a non-native byte order ({}) array; pass {}.astype({}.dtype.newbyteorder('='))",
            prefix(f, p),
            got(),
            p.name,
            p.name
        )));
    }
    if !arr.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{} got a non-contiguous array (strides {:?}); pass np.ascontiguousarray({})",
            prefix(f, p),
            arr.strides(),
            p.name
        )));
    }
    // SAFETY: `arr` is a live ndarray; we read two header fields.
    let (data, flags) = unsafe {
        let fields = npyffi::_PyArray_GET_ITEM_DATA(arr.as_array_ptr());
        ((*fields).data as u64, (*fields).flags)
    };
    if p.const_pointee == Some(false) && flags & npyffi::NPY_ARRAY_WRITEABLE == 0 {
        return Err(PyValueError::new_err(format!(
            "{} got a read-only array, but the function may write through it; pass a writeable copy ({}.copy()) or declare the parameter const",
            prefix(f, p),
            p.name
        )));
    }
    keep.push(a.clone().unbind());
    m.size.add_elements(arr.len() as u64);
    if m.discrete {
        let bytes = arr.len() * dtype.itemsize();
        m.arrays.push(accjit_runtime::compute::CallArray { addr: data as usize, bytes, readonly: p.const_pointee == Some(true) });
    }
    Ok(data)
}

/// A value stored in memory (a Python kernel's 16-byte results cell, see
/// `accjit_front_python::EntryParam::Results`) as a Python value.
pub fn unmarshal_cell(py: Python<'_>, ty: &Type, cell: [u64; 2]) -> PyResult<Py<PyAny>> {
    unmarshal(py, ty, cell_as_slots(ty, cell))
}

/// A results cell rearranged as return slots. The cell holds the bytes a
/// store of the value leaves: the same as the return slots except for
/// `complex<f32>`, whose halves are 8 contiguous bytes in the first slot
/// (the return convention puts them in two slots).
fn cell_as_slots(ty: &Type, cell: [u64; 2]) -> [u64; 2] {
    match ty {
        Type::Complex(Scalar::F32) => [cell[0] & 0xffff_ffff, cell[0] >> 32],
        _ => cell,
    }
}

/// The return slots as a Python value.
pub fn unmarshal(py: Python<'_>, ret: &Type, slots: [u64; 2]) -> PyResult<Py<PyAny>> {
    let r = slots[0];
    Ok(match ret {
        Type::Void => py.None(),
        Type::Scalar(s) => match s {
            Scalar::Bool => PyBool::new(py, r & 0xff != 0).to_owned().into_any().unbind(),
            Scalar::I8 => (r as u8 as i8).into_pyobject(py)?.into_any().unbind(),
            Scalar::U8 => (r as u8).into_pyobject(py)?.into_any().unbind(),
            Scalar::I16 => (r as u16 as i16).into_pyobject(py)?.into_any().unbind(),
            Scalar::U16 => (r as u16).into_pyobject(py)?.into_any().unbind(),
            Scalar::I32 => (r as u32 as i32).into_pyobject(py)?.into_any().unbind(),
            Scalar::U32 => (r as u32).into_pyobject(py)?.into_any().unbind(),
            Scalar::I64 => (r as i64).into_pyobject(py)?.into_any().unbind(),
            Scalar::U64 => r.into_pyobject(py)?.into_any().unbind(),
            Scalar::F32 => (f32::from_bits(r as u32) as f64).into_pyobject(py)?.into_any().unbind(),
            Scalar::F64 => f64::from_bits(r).into_pyobject(py)?.into_any().unbind(),
        },
        Type::Complex(s) => {
            let (re, im) = if *s == Scalar::F32 {
                (f32::from_bits(slots[0] as u32) as f64, f32::from_bits(slots[1] as u32) as f64)
            } else {
                (f64::from_bits(slots[0]), f64::from_bits(slots[1]))
            };
            PyComplex::from_doubles(py, re, im).into_any().unbind()
        }
        Type::Ptr(_) => r.into_pyobject(py)?.into_any().unbind(),
        _ => return Err(PyTypeError::new_err("this return type cannot be converted to Python")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtypes_match_lp64_c_types() {
        assert_eq!(dtype_of(Scalar::F32), (b'f', 4, "float32"));
        assert_eq!(dtype_of(Scalar::F64), (b'f', 8, "float64"));
        assert_eq!(dtype_of(Scalar::I32), (b'i', 4, "int32"));
        assert_eq!(dtype_of(Scalar::I64), (b'i', 8, "int64"));
        assert_eq!(dtype_of(Scalar::U8), (b'u', 1, "uint8"));
        assert_eq!(dtype_of(Scalar::Bool), (b'b', 1, "bool"));
        for s in [Scalar::Bool, Scalar::I8, Scalar::U8, Scalar::I16, Scalar::U16, Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64, Scalar::F32, Scalar::F64]
        {
            assert_eq!(dtype_of(s).1 as u64, s.size(), "{s:?}");
            assert_eq!(dtype_of(s).0 == b'f', s.is_float(), "{s:?}");
        }
    }

    #[test]
    fn required_dtypes_for_pointees() {
        assert_eq!(required_dtype(&Type::F32).as_deref(), Some("float32"));
        assert_eq!(required_dtype(&Type::Complex(Scalar::F64)).as_deref(), Some("complex128"));
        assert_eq!(required_dtype(&Type::Complex(Scalar::F32)).as_deref(), Some("complex64"));
        assert_eq!(required_dtype(&Type::ptr(Type::F64)).as_deref(), Some("uint64"));
        assert_eq!(required_dtype(&Type::Array(Box::new(Type::I32), Some(4))).as_deref(), Some("int32"));
        assert_eq!(required_dtype(&Type::Void), None);
    }

    #[test]
    fn complex64_cells_hold_both_halves_in_the_first_slot() {
        let (re, im) = (1.5f32, -2.25f32);
        let cell = [re.to_bits() as u64 | ((im.to_bits() as u64) << 32), 0x5555];
        let [a, b] = cell_as_slots(&Type::Complex(Scalar::F32), cell);
        assert_eq!((f32::from_bits(a as u32), f32::from_bits(b as u32)), (re, im));
        let cell = [2.5f64.to_bits(), (-4.0f64).to_bits()];
        assert_eq!(cell_as_slots(&Type::Complex(Scalar::F64), cell), cell);
        assert_eq!(cell_as_slots(&Type::F32, [7, 9]), [7, 9]);
    }
}

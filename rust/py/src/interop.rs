//! Arrays of the Python GPU ecosystem, both ways (issue 9 B.6).
//!
//! In: a CuPy array, a PyTorch CUDA tensor or anything else that exposes
//! `__cuda_array_interface__` (v2/v3) or DLPack on a CUDA device may be
//! passed for a pointer parameter of a C function. It is used in place: for
//! the length of the call its device range is mapped onto itself in the
//! current nvidia device's present table (`acc_map_data(p, p, bytes)`), so
//! data clauses find it present and move nothing and kernels receive the
//! address as it is; the mapping is removed when the call returns. The
//! producer's stream (CAI v3 `stream`) is synchronised before the call, so
//! work the producer queued on it has finished. The function's host code must
//! not read such an array (its address is device memory).
//!
//! Out: `acc.device_view(x)` hands the device copy of a present NumPy array
//! to CuPy/PyTorch/Numba without a copy, through both protocols: the view has
//! `__cuda_array_interface__` (v3) and `__dlpack__`/`__dlpack_device__`. The
//! view keeps `x` alive; it is valid while `x` stays present.

use accjit_ir::{Scalar, Type};
use accjit_runtime::{api, consts::*};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyTuple};
use std::ffi::{c_void, CStr};

/// A CUDA array passed for a pointer parameter.
pub struct CudaArray {
    pub ptr: u64,
    pub bytes: usize,
    pub readonly: bool,
    /// CUDA device ordinal, when the producer says (DLPack device id).
    pub device: Option<i32>,
    /// The producer's stream (CAI v3), to synchronise before use.
    pub stream: Option<usize>,
    /// (kind, itemsize) of the elements: NumPy typestr letters.
    pub elem: (u8, usize),
    /// Extents (C-contiguous: the only layout accepted); Python kernels
    /// pass them as the array's shape.
    pub shape: Vec<i64>,
    /// A DLPack capsule to keep alive for the call (its deleter runs when it drops).
    pub keep: Option<Py<PyAny>>,
}

/// `Some` when `a` is a CUDA array (CAI or DLPack on a CUDA device).
pub fn cuda_array(a: &Bound<'_, PyAny>) -> PyResult<Option<CudaArray>> {
    let device = dlpack_device(a);
    if let Ok(cai) = a.getattr("__cuda_array_interface__") {
        let d = cai.cast::<PyDict>().map_err(|_| PyTypeError::new_err("__cuda_array_interface__ is not a dict"))?;
        return from_cai(d, device.map(|(_, id)| id)).map(Some);
    }
    match device {
        Some((2, id)) | Some((3, id)) | Some((13, id)) => from_dlpack(a, id).map(Some),
        _ => Ok(None),
    }
}

/// `__dlpack_device__()` as (device type, id), if the object has it.
fn dlpack_device(a: &Bound<'_, PyAny>) -> Option<(i32, i32)> {
    let t = a.call_method0("__dlpack_device__").ok()?;
    t.extract::<(i32, i32)>().ok()
}

fn typestr_elem(t: &str) -> PyResult<(u8, usize)> {
    let b = t.as_bytes();
    if b.len() < 3 || !matches!(b[0], b'<' | b'|' | b'=') {
        return Err(PyValueError::new_err(format!("CUDA array with typestr {t:?}: only native little-endian numeric types are accepted")));
    }
    let size: usize = t[2..].parse().map_err(|_| PyValueError::new_err(format!("bad typestr {t:?}")))?;
    Ok((b[1], size))
}

fn c_contiguous_bytes(shape: &[i64], strides: Option<&[i64]>, item: usize) -> PyResult<usize> {
    let n: i64 = shape.iter().product();
    if let Some(st) = strides {
        let mut want = item as i64;
        for (d, s) in shape.iter().zip(st).rev() {
            if *d > 1 && *s != want {
                return Err(PyValueError::new_err(format!(
                    "a non-contiguous CUDA array (shape {shape:?}, strides {st:?}) cannot be passed for a pointer; pass a contiguous copy (cupy.ascontiguousarray / tensor.contiguous())"
                )));
            }
            want *= d.max(&1);
        }
    }
    Ok(n.max(0) as usize * item)
}

fn from_cai(d: &Bound<'_, PyDict>, device: Option<i32>) -> PyResult<CudaArray> {
    let get = |k: &str| d.get_item(k).ok().flatten();
    let shape: Vec<i64> = get("shape").ok_or_else(|| PyValueError::new_err("__cuda_array_interface__ without shape"))?.extract()?;
    let typestr: String = get("typestr").ok_or_else(|| PyValueError::new_err("__cuda_array_interface__ without typestr"))?.extract()?;
    let (ptr, readonly): (u64, bool) = get("data").ok_or_else(|| PyValueError::new_err("__cuda_array_interface__ without data"))?.extract()?;
    let strides: Option<Vec<i64>> = match get("strides") {
        Some(s) if !s.is_none() => Some(s.extract()?),
        _ => None,
    };
    if get("mask").is_some_and(|m| !m.is_none()) {
        return Err(PyValueError::new_err("masked CUDA arrays cannot be passed"));
    }
    let stream = match get("stream") {
        Some(s) if !s.is_none() => Some(s.extract::<usize>()?),
        _ => None,
    };
    let elem = typestr_elem(&typestr)?;
    let bytes = c_contiguous_bytes(&shape, strides.as_deref(), elem.1)?;
    Ok(CudaArray { ptr, bytes, readonly, device, stream, elem, shape, keep: None })
}

// --- DLPack (https://dmlc.github.io/dlpack/latest/c_api.html) ------------------

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDevice {
    device_type: i32,
    device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: i32,
    dtype: DLDataType,
    shape: *mut i64,
    strides: *mut i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

const DLTENSOR: &CStr = c"dltensor";
const KDL_CUDA: i32 = 2;

fn from_dlpack(a: &Bound<'_, PyAny>, device: i32) -> PyResult<CudaArray> {
    let cap = a.call_method0("__dlpack__")?;
    let cap = cap.cast::<PyCapsule>().map_err(|_| PyTypeError::new_err("__dlpack__() did not return a capsule"))?;
    let p = cap.pointer_checked(Some(DLTENSOR)).map_err(|_| PyValueError::new_err("__dlpack__() returned a capsule that is not a 'dltensor'"))?;
    // SAFETY: a live "dltensor" capsule holds a DLManagedTensor (DLPack ABI).
    let t = unsafe { &(*(p.as_ptr() as *const DLManagedTensor)).dl_tensor };
    let ndim = t.ndim.max(0) as usize;
    let shape: Vec<i64> = if ndim == 0 { vec![] } else { unsafe { std::slice::from_raw_parts(t.shape, ndim).to_vec() } };
    let elem_size = (t.dtype.bits as usize / 8) * t.dtype.lanes.max(1) as usize;
    let strides: Option<Vec<i64>> =
        if t.strides.is_null() { None } else { Some(unsafe { std::slice::from_raw_parts(t.strides, ndim) }.iter().map(|s| s * elem_size as i64).collect()) };
    let kind = match t.dtype.code {
        0 => b'i',
        1 => b'u',
        2 => b'f',
        5 => b'c',
        6 => b'b',
        c => return Err(PyValueError::new_err(format!("DLPack dtype code {c} cannot be passed for a C pointer"))),
    };
    let bytes = c_contiguous_bytes(&shape, strides.as_deref(), elem_size)?;
    Ok(CudaArray {
        ptr: t.data as u64 + t.byte_offset,
        bytes,
        readonly: false,
        device: Some(device),
        stream: None,
        elem: (kind, elem_size),
        shape,
        keep: Some(cap.clone().into_any().unbind()),
    })
}

/// Checks a CUDA array against a pointer parameter's pointee and the current
/// device, synchronises the producer's stream and maps the array onto itself
/// in the present table. Returns the address to pass and whether a mapping
/// was made (to remove with [`unmap`] after the call).
pub fn bind(what: &str, pointee: &Type, writes: bool, a: &CudaArray) -> PyResult<(u64, bool)> {
    let ok = match pointee {
        Type::Void | Type::Struct(_) => true,
        Type::Scalar(s) => {
            let (kind, size, _) = crate::marshal::dtype_of(*s);
            a.elem == (kind, size) || (*s == Scalar::Bool && a.elem == (b'b', 1))
        }
        Type::Complex(s) => a.elem == (b'c', 2 * s.size() as usize),
        Type::Ptr(_) => matches!(a.elem.0, b'u' | b'i') && a.elem.1 == 8,
        Type::Array(t, _) => return bind(what, t, writes, a),
        _ => false,
    };
    if !ok {
        let want = crate::marshal::required_dtype(pointee).unwrap_or_else(|| "a matching dtype".into());
        return Err(PyTypeError::new_err(format!(
            "{what} got a CUDA array of {}{} ({} bytes per element); pass one of dtype {want}",
            a.elem.0 as char, a.elem.1, a.elem.1
        )));
    }
    if writes && a.readonly {
        return Err(PyValueError::new_err(format!("{what} got a read-only CUDA array, but the function may write through it")));
    }
    if api::get_device_type() != acc_device_nvidia {
        return Err(PyValueError::new_err(format!(
            "{what} got a CUDA array, but the current device is not nvidia; call acc.set_device_type('nvidia') first, or pass a NumPy array (cupy.asnumpy(x) / tensor.cpu().numpy())"
        )));
    }
    let num = api::get_device_num(acc_device_nvidia);
    if let Some(d) = a.device {
        if d != num {
            return Err(PyValueError::new_err(format!(
                "{what} got a CUDA array on GPU {d}, but the current nvidia device is {num}; call acc.set_device_num({d}, 'nvidia')"
            )));
        }
    }
    if let Some(s) = a.stream {
        accjit_runtime::nvidia::sync_foreign_stream(s)
            .map_err(|e| PyValueError::new_err(format!("{what}: synchronising the array's stream failed: {}", e.message)))?;
    }
    if a.bytes == 0 || a.ptr == 0 {
        return Ok((a.ptr, false));
    }
    if api::is_present(a.ptr as usize, a.bytes).unwrap_or(false) {
        return Ok((a.ptr, false));
    }
    api::map_data(a.ptr as usize, a.ptr as usize, a.bytes).map_err(|e| PyValueError::new_err(format!("{what}: {}", e.message)))?;
    Ok((a.ptr, true))
}

/// Removes a mapping [`bind`] made.
pub fn unmap(ptr: u64) {
    let _ = api::unmap_data(ptr as usize);
}

// --- device_view ---------------------------------------------------------------

/// The device copy of a present NumPy array, for CuPy/PyTorch/Numba
/// (`__cuda_array_interface__` v3 and DLPack). Made by `acc.device_view(x)`.
#[pyclass(module = "accjit._core", name = "DeviceView", frozen)]
pub struct DeviceView {
    owner: Py<PyAny>,
    ptr: usize,
    shape: Vec<i64>,
    /// Byte strides.
    strides: Vec<i64>,
    typestr: String,
    device: i32,
    readonly: bool,
}

#[pymethods]
impl DeviceView {
    /// `device_view(x)`: the device copy of the present array `x`.
    #[new]
    fn new(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<DeviceView> {
        crate::guard(|| {
            let h = crate::data::host_array("device_view", x)?;
            if api::get_device_type() != acc_device_nvidia {
                return Err(PyValueError::new_err("device_view() needs the nvidia device to be current (acc.set_device_type('nvidia'))"));
            }
            let ptr = if h.bytes == 0 { 0 } else { api::deviceptr(h.addr).map_err(|e| crate::runtime::acc_error(py, e))? };
            if ptr == 0 && h.bytes != 0 {
                return Err(crate::runtime::acc_error(
                    py,
                    accjit_runtime::AccError::new(
                        acc_error_not_present,
                        format!("device_view(): {} is not present on the device; acc.copyin(x) first", h.desc()),
                    ),
                ));
            }
            let shape: Vec<i64> = x.getattr("shape")?.extract()?;
            let strides: Vec<i64> = x.getattr("strides")?.extract()?;
            let typestr: String = x.getattr("dtype")?.getattr("str")?.extract()?;
            Ok(DeviceView { owner: x.clone().unbind(), ptr, shape, strides, typestr, device: api::get_device_num(acc_device_nvidia), readonly: !h.writeable })
        })
    }

    /// The host array this view is the device copy of.
    #[getter]
    fn base(&self, py: Python<'_>) -> Py<PyAny> {
        self.owner.clone_ref(py)
    }

    /// The device address of the first element.
    #[getter]
    fn ptr(&self) -> usize {
        self.ptr
    }

    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.shape)
    }

    #[getter]
    fn __cuda_array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("shape", PyTuple::new(py, &self.shape)?)?;
        d.set_item("strides", PyTuple::new(py, &self.strides)?)?;
        d.set_item("typestr", &self.typestr)?;
        d.set_item("data", (self.ptr, self.readonly))?;
        d.set_item("version", 3)?;
        // Synchronous data actions have completed: nothing to wait for.
        d.set_item("stream", py.None())?;
        Ok(d)
    }

    fn __dlpack_device__(&self) -> (i32, i32) {
        (KDL_CUDA, self.device)
    }

    /// A DLPack capsule of the device copy. Our data actions are synchronous
    /// (or waited for), so the consumer's `stream` needs no extra ordering.
    #[pyo3(signature = (stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__<'py>(
        slf: &Bound<'py, Self>,
        stream: Option<Py<PyAny>>,
        max_version: Option<Py<PyAny>>,
        dl_device: Option<Py<PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = (stream, max_version, dl_device);
        if copy == Some(true) {
            return Err(PyValueError::new_err("device_view(): copy=True is not supported; the view is the device copy itself"));
        }
        let me = slf.get();
        let item = me.typestr[2..].parse::<i64>().unwrap_or(1).max(1);
        let (code, bits) = match me.typestr.as_bytes().get(1) {
            Some(b'i') => (0u8, item * 8),
            Some(b'u') => (1, item * 8),
            Some(b'f') => (2, item * 8),
            Some(b'c') => (5, item * 8),
            Some(b'b') => (6, 8),
            _ => return Err(PyTypeError::new_err(format!("device_view(): dtype {} has no DLPack form", me.typestr))),
        };
        let ctx = Box::new(Holder { shape: me.shape.clone(), strides: me.strides.iter().map(|s| s / item).collect(), _owner: slf.clone().into_any().unbind() });
        let mut ctx = std::mem::ManuallyDrop::new(ctx);
        let managed = Box::new(DLManagedTensor {
            dl_tensor: DLTensor {
                data: me.ptr as *mut c_void,
                device: DLDevice { device_type: KDL_CUDA, device_id: me.device },
                ndim: me.shape.len() as i32,
                dtype: DLDataType { code, bits: bits as u8, lanes: 1 },
                shape: ctx.shape.as_mut_ptr(),
                strides: ctx.strides.as_mut_ptr(),
                byte_offset: 0,
            },
            manager_ctx: &mut **ctx as *mut Holder as *mut c_void,
            deleter: Some(delete_managed),
        });
        let raw = Box::into_raw(managed);
        // SAFETY: `raw` is a valid DLManagedTensor; the capsule destructor
        // frees it unless a consumer renamed the capsule (took ownership).
        unsafe {
            let cap = pyo3::ffi::PyCapsule_New(raw as *mut c_void, DLTENSOR.as_ptr(), Some(capsule_destructor));
            if cap.is_null() {
                delete_managed(raw);
                return Err(PyErr::fetch(slf.py()));
            }
            Ok(Bound::from_owned_ptr(slf.py(), cap).cast_into_unchecked())
        }
    }
}

/// What a DLPack export owns: its shape/strides arrays and a reference to the view.
struct Holder {
    shape: Vec<i64>,
    strides: Vec<i64>,
    /// Keeps the view (and so the host array) alive while a consumer holds the tensor.
    _owner: Py<PyAny>,
}

unsafe extern "C" fn delete_managed(m: *mut DLManagedTensor) {
    if m.is_null() {
        return;
    }
    let m = Box::from_raw(m);
    let holder = Box::from_raw(m.manager_ctx as *mut Holder);
    // Dropping a Py needs the GIL; consumers may call the deleter without it.
    Python::attach(|_| drop(holder));
}

unsafe extern "C" fn capsule_destructor(cap: *mut pyo3::ffi::PyObject) {
    // Renamed to "used_dltensor" by a consumer: it owns the tensor now.
    if pyo3::ffi::PyCapsule_IsValid(cap, DLTENSOR.as_ptr()) == 1 {
        let p = pyo3::ffi::PyCapsule_GetPointer(cap, DLTENSOR.as_ptr()) as *mut DLManagedTensor;
        delete_managed(p);
    } else {
        pyo3::ffi::PyErr_Clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typestrs_and_contiguity() {
        assert_eq!(typestr_elem("<f4").unwrap(), (b'f', 4));
        assert_eq!(typestr_elem("|b1").unwrap(), (b'b', 1));
        assert!(typestr_elem(">f8").is_err());
        assert_eq!(c_contiguous_bytes(&[4, 5], None, 8).unwrap(), 160);
        assert_eq!(c_contiguous_bytes(&[4, 5], Some(&[40, 8]), 8).unwrap(), 160);
        assert!(c_contiguous_bytes(&[4, 5], Some(&[8, 32]), 8).is_err());
        assert_eq!(c_contiguous_bytes(&[4, 1], Some(&[8, 999]), 8).unwrap(), 32);
    }
}

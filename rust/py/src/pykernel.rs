//! `accjit._core.Dispatcher`: the hot path of Python kernels
//! (`@acc.parallel` & co.; the Python class `accjit.Kernel` derives from it).
//!
//! A call classifies each argument into an [`ArgType`] (NumPy arrays:
//! dtype, rank, layout C/F/strided, writability; Python and NumPy scalars;
//! CUDA arrays on the nvidia device), looks the tuple up with the current
//! device type in the kernel's specialisations, compiles on a miss
//! (`accjit_driver::compile_python`, with the request text the Python side
//! makes once per kernel), fills the entry function's argument slots as its
//! [`Entry`] says (Base/Shape/Stride/Scalar/Results), calls it through the
//! same path as `acc.c` functions (GIL released, Ctrl-C, hosted runtime
//! errors) and reads the results back.
//!
//! The Python side (`python/accjit/_pykernel.py`) provides, on the
//! subclass: `_request_text()` (the request, computed on the first miss),
//! `_bind(args, kwargs)` (Python's own argument binding, for keywords and
//! defaults), `__name__` and the parameter names given to the constructor.

use crate::caller::{run_interruptible, CallSize, ShortCalls};
use accjit_driver::{PyKernel, Trampoline};
use accjit_front_python::{ArgType, EntryParam, Layout};
use accjit_ir::{Scalar, Type};
use numpy::npyffi;
use numpy::{PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyDict, PyFloat, PyInt, PyList, PyTuple, PyType};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// One compiled specialisation.
struct Spec {
    kernel: Arc<PyKernel>,
    trampoline: Trampoline,
    args: Vec<ArgType>,
    device: &'static str,
    /// Its past calls: whether the next may run gangs on the Python thread.
    calls: ShortCalls,
}

/// The size of a call (see [`CallSize`]).
fn call_size(vals: &[ArgVal]) -> CallSize {
    let mut size = CallSize::default();
    for v in vals {
        match v {
            ArgVal::Int(n) => size.add_int(*n),
            ArgVal::Array { shape, .. } | ArgVal::Cuda { shape, .. } => size.add_elements(shape.iter().map(|&d| d.max(0) as u64).product()),
            _ => {}
        }
    }
    size
}

type Key = (&'static str, Vec<ArgType>);

/// A fast hasher for the specialisation table, hashed on every call
/// (`Key`s are a few small enums: SipHash's per-write cost dominated).
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64)
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64)
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64)
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Specs = HashMap<Key, Arc<Spec>, std::hash::BuildHasherDefault<FxHasher>>;

/// Dimensions and strides of an argument array (a few inline: no allocation).
type Dims = smallvec::SmallVec<[i64; 4]>;

#[pyclass(module = "accjit._core", name = "Dispatcher", subclass, frozen)]
pub struct Dispatcher {
    name: String,
    params: Vec<String>,
    request: OnceLock<String>,
    specs: Mutex<Specs>,
    /// Keys in the order they were compiled (for `signatures`).
    order: Mutex<Vec<Key>>,
}

/// The value of one argument, as the slots need it.
enum ArgVal {
    Int(i128),
    Float(f64),
    Complex(f64, f64),
    Bool(bool),
    Array { data: u64, shape: Dims, strides: Dims, itemsize: usize, hull: (u64, usize) },
    Cuda { data: u64, shape: Dims },
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// NumPy's scalar types, looked up once.
struct NumpyScalars {
    types: Vec<(Py<PyType>, Option<Type>)>,
}

fn numpy_scalars(py: Python<'_>) -> PyResult<&'static NumpyScalars> {
    static CELL: OnceLock<NumpyScalars> = OnceLock::new();
    if let Some(s) = CELL.get() {
        return Ok(s);
    }
    let np = py.import("numpy")?;
    let mut types = vec![];
    let table: [(&str, Option<Type>); 14] = [
        ("bool_", Some(Type::Scalar(Scalar::Bool))),
        ("int8", Some(Type::Scalar(Scalar::I8))),
        ("uint8", Some(Type::Scalar(Scalar::U8))),
        ("int16", Some(Type::Scalar(Scalar::I16))),
        ("uint16", Some(Type::Scalar(Scalar::U16))),
        ("int32", Some(Type::Scalar(Scalar::I32))),
        ("uint32", Some(Type::Scalar(Scalar::U32))),
        ("int64", Some(Type::Scalar(Scalar::I64))),
        ("uint64", Some(Type::Scalar(Scalar::U64))),
        ("float32", Some(Type::Scalar(Scalar::F32))),
        ("float64", Some(Type::Scalar(Scalar::F64))),
        ("complex64", Some(Type::Complex(Scalar::F32))),
        ("complex128", Some(Type::Complex(Scalar::F64))),
        ("float16", None),
    ];
    for (name, ty) in table {
        let t = np.getattr(name)?.cast_into::<PyType>()?;
        types.push((t.unbind(), ty));
    }
    Ok(CELL.get_or_init(|| NumpyScalars { types }))
}

/// The element type of a NumPy dtype (kind, itemsize); `None` for float16
/// and anything that is not a number.
fn elem_of(kind: u8, size: usize) -> Option<Type> {
    Some(match (kind, size) {
        (b'b', 1) => Type::Scalar(Scalar::Bool),
        (b'i', 1) => Type::Scalar(Scalar::I8),
        (b'i', 2) => Type::Scalar(Scalar::I16),
        (b'i', 4) => Type::Scalar(Scalar::I32),
        (b'i', 8) => Type::Scalar(Scalar::I64),
        (b'u', 1) => Type::Scalar(Scalar::U8),
        (b'u', 2) => Type::Scalar(Scalar::U16),
        (b'u', 4) => Type::Scalar(Scalar::U32),
        (b'u', 8) => Type::Scalar(Scalar::U64),
        (b'f', 4) => Type::Scalar(Scalar::F32),
        (b'f', 8) => Type::Scalar(Scalar::F64),
        (b'c', 8) => Type::Complex(Scalar::F32),
        (b'c', 16) => Type::Complex(Scalar::F64),
        _ => return None,
    })
}

/// NumPy's name of an element type.
pub fn dtype_name(t: &Type) -> String {
    match t {
        Type::Scalar(s) => crate::marshal::dtype_of(*s).2.to_string(),
        Type::Complex(Scalar::F32) => "complex64".into(),
        Type::Complex(_) => "complex128".into(),
        other => format!("{other:?}"),
    }
}

/// The signature spelling of an argument type (`fn.signatures`, `fn.compile`).
pub fn spell(t: &ArgType) -> String {
    match t {
        ArgType::Scalar(t) => dtype_name(t),
        ArgType::Array { elem, ndim, layout, writable, half } => {
            let dims = vec![":"; *ndim as usize].join(", ");
            let mut s = format!("{}[{dims}]", if *half { "float16".to_string() } else { dtype_name(elem) });
            match layout {
                Layout::C => {}
                Layout::F => s.push_str(" F"),
                Layout::Strided => s.push_str(" strided"),
            }
            if !writable {
                s.push_str(" readonly");
            }
            s
        }
    }
}

fn type_name_of(a: &Bound<'_, PyAny>) -> String {
    a.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into())
}

impl Dispatcher {
    fn param_name(&self, i: usize) -> &str {
        self.params.get(i).map(|s| s.as_str()).unwrap_or("?")
    }

    fn what(&self, i: usize) -> String {
        format!("{}(): argument '{}'", self.name, self.param_name(i))
    }

    /// The type and value of argument `i`.
    fn classify(&self, py: Python<'_>, i: usize, a: &Bound<'_, PyAny>, device: &str) -> PyResult<(ArgType, ArgVal)> {
        let ptr = a.as_ptr();
        // SAFETY: type checks on a live object.
        unsafe {
            if pyo3::ffi::PyFloat_CheckExact(ptr) != 0 {
                return Ok((ArgType::Scalar(Type::F64), ArgVal::Float(pyo3::ffi::PyFloat_AsDouble(ptr))));
            }
            if pyo3::ffi::PyLong_CheckExact(ptr) != 0 {
                let v: i64 = a.extract().map_err(|e: PyErr| {
                    if e.is_instance_of::<PyOverflowError>(py) {
                        PyOverflowError::new_err(format!(
                            "{}: {} does not fit in int64 (Python ints are passed as int64)",
                            self.what(i),
                            a.repr().map(|r| r.to_string()).unwrap_or_default()
                        ))
                    } else {
                        e
                    }
                })?;
                return Ok((ArgType::Scalar(Type::I64), ArgVal::Int(v as i128)));
            }
        }
        if a.is_instance_of::<PyBool>() {
            return Ok((ArgType::Scalar(Type::Scalar(Scalar::Bool)), ArgVal::Bool(a.is_truthy()?)));
        }
        if let Ok(arr) = a.cast::<PyUntypedArray>() {
            return self.array(i, arr);
        }
        let ty = a.get_type();
        for (t, elem) in &numpy_scalars(py)?.types {
            if ty.is(t.bind(py)) {
                let Some(elem) = elem else {
                    return Err(PyTypeError::new_err(format!("{}: float16 is not supported in kernels; pass np.float32(x)", self.what(i))));
                };
                let val = match elem {
                    Type::Scalar(Scalar::Bool) => ArgVal::Bool(a.is_truthy()?),
                    Type::Scalar(s) if s.is_float() => ArgVal::Float(a.extract::<f64>()?),
                    Type::Scalar(_) => ArgVal::Int(match a.extract::<i64>() {
                        Ok(v) => v as i128,
                        Err(_) => a.extract::<u64>()? as i128,
                    }),
                    _ => ArgVal::Complex(a.getattr("real")?.extract()?, a.getattr("imag")?.extract()?),
                };
                return Ok((ArgType::Scalar(elem.clone()), val));
            }
        }
        if a.is_exact_instance_of::<PyComplex>() {
            let c = a.cast::<PyComplex>()?;
            return Ok((ArgType::Scalar(Type::Complex(Scalar::F64)), ArgVal::Complex(c.real(), c.imag())));
        }
        if device == "nvidia" {
            if let Some(cuda) = crate::interop::cuda_array(a)? {
                // float16 CUDA arrays are refused: only NumPy float16 arrays are storage.
                let Some(elem) = elem_of(cuda.elem.0, cuda.elem.1) else {
                    return Err(PyTypeError::new_err(format!(
                        "{}: a CUDA array of {}{} elements cannot be passed to a kernel",
                        self.what(i),
                        cuda.elem.0 as char,
                        cuda.elem.1
                    )));
                };
                let t = ArgType::Array { elem, ndim: cuda.shape.len() as u8, layout: Layout::C, writable: !cuda.readonly, half: false };
                return Ok((t, ArgVal::Cuda { data: cuda.ptr, shape: Dims::from_slice(&cuda.shape) }));
            }
        }
        // Subclasses of int/float/complex (IntEnum, ...), as their base type.
        if a.is_instance_of::<PyInt>() {
            return Ok((ArgType::Scalar(Type::I64), ArgVal::Int(a.extract::<i64>()? as i128)));
        }
        if a.is_instance_of::<PyFloat>() {
            return Ok((ArgType::Scalar(Type::F64), ArgVal::Float(a.extract()?)));
        }
        if a.is_instance_of::<PyComplex>() {
            let c = a.cast::<PyComplex>()?;
            return Ok((ArgType::Scalar(Type::Complex(Scalar::F64)), ArgVal::Complex(c.real(), c.imag())));
        }
        let hint = if a.hasattr("__cuda_array_interface__").unwrap_or(false) || a.hasattr("__dlpack_device__").unwrap_or(false) {
            "; CUDA arrays are accepted on the nvidia device only (acc.set_device_type('nvidia'))"
        } else if a.is_instance_of::<PyList>() || a.is_instance_of::<PyTuple>() {
            "; pass np.asarray(...)"
        } else {
            ""
        };
        Err(PyTypeError::new_err(format!(
            "{}: a {} cannot be passed to a kernel (expected a NumPy array or an int/float/complex/bool or NumPy scalar){hint}",
            self.what(i),
            type_name_of(a)
        )))
    }

    fn array(&self, i: usize, arr: &Bound<'_, PyUntypedArray>) -> PyResult<(ArgType, ArgVal)> {
        let dtype = arr.dtype();
        let (kind, size) = (dtype.kind(), dtype.itemsize());
        let got = || dtype.str().map(|s| s.to_string()).unwrap_or_else(|_| "?".into());
        // float16: stored as u16 bit patterns, read and written as float32 (front end's half.rs).
        let half = kind == b'f' && size == 2;
        let Some(elem) = (if half { Some(Type::Scalar(Scalar::U16)) } else { elem_of(kind, size) }) else {
            let msg = format!(
                "{}: a {} array cannot be passed to a kernel (numeric dtypes only: bool, int8..uint64, float16, float32, float64, complex64, complex128)",
                self.what(i),
                got()
            );
            return Err(PyTypeError::new_err(msg));
        };
        if dtype.is_native_byteorder() == Some(false) {
            return Err(PyValueError::new_err(format!(
                "{}: a non-native byte order ({}) array; pass {}.astype({}.dtype.newbyteorder('='))",
                self.what(i),
                got(),
                self.param_name(i),
                self.param_name(i)
            )));
        }
        // SAFETY: `arr` is a live ndarray; its header fields are read.
        let (data, nd, dims, strides, flags) = unsafe {
            let f = npyffi::_PyArray_GET_ITEM_DATA(arr.as_array_ptr());
            ((*f).data as u64, (*f).nd.max(0) as usize, (*f).dimensions, (*f).strides, (*f).flags)
        };
        let (shape, bstrides): (Dims, Dims) = if nd == 0 {
            (Dims::new(), Dims::new())
        } else {
            // SAFETY: `dimensions` and `strides` hold `nd` entries each.
            unsafe {
                (
                    std::slice::from_raw_parts(dims, nd).iter().map(|&d| d as i64).collect(),
                    std::slice::from_raw_parts(strides, nd).iter().map(|&s| s as i64).collect(),
                )
            }
        };
        if nd > 32 {
            return Err(PyValueError::new_err(format!("{}: arrays of more than 32 dimensions are not supported", self.what(i))));
        }
        let layout = if flags & npyffi::NPY_ARRAY_C_CONTIGUOUS != 0 {
            Layout::C
        } else if flags & npyffi::NPY_ARRAY_F_CONTIGUOUS != 0 {
            Layout::F
        } else {
            Layout::Strided
        };
        let writable = flags & npyffi::NPY_ARRAY_WRITEABLE != 0;
        let item = size as i64;
        let mut strides = Dims::new();
        if layout == Layout::Strided {
            for &s in &bstrides {
                if s % item != 0 {
                    return Err(PyValueError::new_err(format!(
                        "{}: strides {:?} are not multiples of the element size ({size} bytes); pass np.ascontiguousarray({})",
                        self.what(i),
                        bstrides,
                        self.param_name(i)
                    )));
                }
                strides.push(s / item);
            }
        }
        // The bytes the array spans (its hull: strided views may start below `data`).
        let empty = shape.contains(&0);
        let (mut lo, mut hi) = (0i64, item);
        if !empty {
            for (&d, &s) in shape.iter().zip(&bstrides) {
                let far = (d - 1) * s;
                if far < 0 {
                    lo += far;
                } else {
                    hi += far;
                }
            }
        }
        let hull = if empty { (data, 0) } else { ((data as i64 + lo) as u64, (hi - lo) as usize) };
        let t = ArgType::Array { elem, ndim: nd as u8, layout, writable, half };
        Ok((t, ArgVal::Array { data, shape, strides, itemsize: size, hull }))
    }

    /// The specialisation for `key`, compiled on first use.
    fn spec(slf: &Bound<'_, Self>, key: Key) -> PyResult<Arc<Spec>> {
        let me = slf.get();
        if let Some(s) = lock(&me.specs).get(&key) {
            return Ok(s.clone());
        }
        Self::compile(slf, key, false)
    }

    fn request_text(slf: &Bound<'_, Self>) -> PyResult<String> {
        let me = slf.get();
        if let Some(t) = me.request.get() {
            return Ok(t.clone());
        }
        let text: String = slf.call_method0("_request_text")?.extract()?;
        Ok(me.request.get_or_init(|| text).clone())
    }

    fn compile(slf: &Bound<'_, Self>, key: Key, keep_clif: bool) -> PyResult<Arc<Spec>> {
        let py = slf.py();
        let me = slf.get();
        let request = Self::request_text(slf)?;
        let opts = accjit_driver::Options { device_type: key.0.to_string(), keep_clif, ..accjit_driver::Options::default() };
        let args = key.1.clone();
        let r = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| accjit_driver::compile_python(&request, &args, &opts))));
        let kernel = match r {
            Ok(Ok((k, _))) => k,
            Ok(Err(e)) => return Err(crate::compile_error(py, &e)),
            Err(p) => return Err(PyRuntimeError::new_err(format!("internal error in accjit (please report): {}", crate::panic_message(&*p)))),
        };
        let info = kernel
            .program
            .function_info(&kernel.entry.name)
            .ok_or_else(|| PyRuntimeError::new_err(format!("internal error in accjit: entry `{}` missing", kernel.entry.name)))?;
        let spec = Arc::new(Spec { trampoline: info.trampoline, kernel: kernel.clone(), args: key.1.clone(), device: key.0, calls: ShortCalls::default() });
        if !keep_clif {
            let mut specs = lock(&me.specs);
            if !specs.contains_key(&key) {
                lock(&me.order).push(key.clone());
            }
            specs.insert(key, spec.clone());
        }
        Ok(spec)
    }

    fn current_device() -> &'static str {
        accjit_runtime::device::ensure_env();
        accjit_runtime::device_type_name()
    }

    /// Types and values of a call's arguments.
    fn classify_all(&self, py: Python<'_>, args: &Bound<'_, PyTuple>, device: &str) -> PyResult<(Vec<ArgType>, Vec<ArgVal>)> {
        let mut types = Vec::with_capacity(args.len());
        let mut vals = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let (t, v) = self.classify(py, i, &a, device)?;
            types.push(t);
            vals.push(v);
        }
        Ok((types, vals))
    }

    fn call_spec(&self, py: Python<'_>, spec: Arc<Spec>, args: &Bound<'_, PyTuple>, vals: Vec<ArgVal>) -> PyResult<Py<PyAny>> {
        let entry = &spec.kernel.entry;
        let nres = entry.results.len();
        let mut results: Box<[[u64; 2]]> = vec![[0u64; 2]; nres].into_boxed_slice();
        // Complex scalars are passed by address; never grown past its capacity, so they do not move.
        let complex = entry.params.iter().filter(|p| matches!(p, EntryParam::Scalar { ty: Type::Complex(_), .. })).count();
        let mut boxed: Vec<[u64; 2]> = Vec::with_capacity(complex);
        let mut slots: smallvec::SmallVec<[u64; 8]> = smallvec::SmallVec::with_capacity(entry.params.len());
        let mut mapped = vec![];
        let mut keep = crate::caller::Keep::new();
        let discrete = accjit_runtime::device::current_device().is_ok_and(|d| !d.mem.is_shared());
        let mut arrays = crate::marshal::CallArrayList::new();
        // CUDA arrays: checked against the element type and mapped onto themselves.
        for (i, v) in vals.iter().enumerate() {
            if let (ArgVal::Cuda { .. }, ArgType::Array { elem, writable, .. }) = (v, &spec.args[i]) {
                let a = args.get_item(i)?;
                if let Some(cuda) = crate::interop::cuda_array(&a)? {
                    let (_, m) = crate::interop::bind(&self.what(i), elem, *writable, &cuda)?;
                    if m {
                        mapped.push(cuda.ptr);
                    }
                    keep.extend(cuda.keep);
                }
            }
        }
        for p in &entry.params {
            let slot = match *p {
                EntryParam::Scalar { arg, ref ty } => self.scalar_slot(arg, ty, &vals[arg], &mut boxed)?,
                EntryParam::Base { arg } => match &vals[arg] {
                    ArgVal::Array { data, hull, .. } => {
                        if discrete {
                            let ro = matches!(spec.args[arg], ArgType::Array { writable: false, .. });
                            arrays.push(accjit_runtime::compute::CallArray { addr: hull.0 as usize, bytes: hull.1, readonly: ro });
                        }
                        *data
                    }
                    ArgVal::Cuda { data, .. } => *data,
                    _ => return Err(self.not_array(arg)),
                },
                EntryParam::Shape { arg, dim } => match &vals[arg] {
                    ArgVal::Array { shape, .. } | ArgVal::Cuda { shape, .. } => shape.get(dim as usize).copied().unwrap_or(1) as u64,
                    _ => return Err(self.not_array(arg)),
                },
                EntryParam::Stride { arg, dim } => match &vals[arg] {
                    ArgVal::Array { strides, shape, itemsize, .. } => {
                        let _ = itemsize;
                        match strides.get(dim as usize) {
                            Some(s) => *s as u64,
                            // A C-contiguous array given where the front end asked for strides.
                            None => shape[dim as usize + 1..].iter().product::<i64>() as u64,
                        }
                    }
                    ArgVal::Cuda { shape, .. } => shape[dim as usize + 1..].iter().product::<i64>() as u64,
                    _ => return Err(self.not_array(arg)),
                },
                EntryParam::Results => results.as_mut_ptr() as u64,
            };
            slots.push(slot);
        }
        let size = call_size(&vals);
        drop(vals);
        keep.push(args.clone().into_any().unbind());
        let program = spec.kernel.program.clone();
        let tramp = spec.trampoline;
        let out = run_interruptible(py, true, &spec.calls, size, keep, move || {
            let _arrays = (!arrays.is_empty()).then(|| accjit_runtime::compute::CallArrays::enter(&arrays));
            program.prepare();
            let mut ret = [0u64; 2];
            // SAFETY: `slots` follows the entry function's parameters (its
            // `Entry`); arrays stay alive through `keep` (see
            // `run_interruptible`), complex scalars
            // through `boxed`, the results buffer is moved back out, and
            // the code lives in `program`, all until the call returns.
            unsafe { tramp(slots.as_ptr(), ret.as_mut_ptr()) };
            mapped.into_iter().for_each(crate::interop::unmap);
            drop(boxed);
            drop(program);
            results
        })?
        .map_err(|e| crate::errors::call_failure(py, &format!("{}()", self.name), e))?;
        let vals: Vec<Py<PyAny>> =
            spec.kernel.entry.results.iter().zip(out.iter()).map(|(t, cell)| crate::marshal::unmarshal_cell(py, t, *cell)).collect::<PyResult<_>>()?;
        Ok(match vals.len() {
            0 => py.None(),
            1 => vals.into_iter().next().unwrap_or_else(|| py.None()),
            _ => PyTuple::new(py, vals)?.into_any().unbind(),
        })
    }

    fn not_array(&self, i: usize) -> PyErr {
        PyRuntimeError::new_err(format!("internal error in accjit: {} is used as an array but is not one", self.what(i)))
    }

    fn scalar_slot(&self, i: usize, ty: &Type, v: &ArgVal, boxed: &mut Vec<[u64; 2]>) -> PyResult<u64> {
        let (re, im, int, is_int) = match *v {
            ArgVal::Int(n) => (n as f64, 0.0, n, true),
            ArgVal::Float(x) => (x, 0.0, x as i128, false),
            ArgVal::Bool(b) => (b as u8 as f64, 0.0, b as i128, true),
            ArgVal::Complex(r, m) => (r, m, r as i128, false),
            _ => return Err(PyRuntimeError::new_err(format!("internal error in accjit: {} is used as a scalar but is an array", self.what(i)))),
        };
        Ok(match ty {
            Type::Scalar(Scalar::F32) => (re as f32).to_bits() as u64,
            Type::Scalar(Scalar::F64) => re.to_bits(),
            Type::Scalar(Scalar::Bool) => (if is_int { int != 0 } else { re != 0.0 }) as u64,
            Type::Scalar(s) if s.is_signed() => int as i64 as u64,
            Type::Scalar(_) => int as u64,
            Type::Complex(s) => {
                let cell =
                    if *s == Scalar::F32 { [(re as f32).to_bits() as u64 | (((im as f32).to_bits() as u64) << 32), 0] } else { [re.to_bits(), im.to_bits()] };
                // A push past the capacity would move the cells already passed.
                if boxed.len() == boxed.capacity() {
                    return Err(PyRuntimeError::new_err("internal error in accjit: more complex scalars than the entry's parameters"));
                }
                boxed.push(cell);
                boxed.last().map_or(0, |c| c.as_ptr() as u64)
            }
            other => return Err(PyRuntimeError::new_err(format!("internal error in accjit: scalar parameter of type {other:?}"))),
        })
    }

    fn spec_at(&self, index: Option<usize>) -> PyResult<Arc<Spec>> {
        let order = lock(&self.order);
        let key = match index {
            Some(i) => order.get(i).cloned().ok_or_else(|| PyValueError::new_err(format!("{}: no signature #{i} ({} compiled)", self.name, order.len())))?,
            None => order
                .last()
                .cloned()
                .ok_or_else(|| PyValueError::new_err(format!("{}: not compiled yet; call it or use .compile(signature) first", self.name)))?,
        };
        drop(order);
        lock(&self.specs).get(&key).cloned().ok_or_else(|| PyRuntimeError::new_err("internal error in accjit: signature lost"))
    }
}

#[pymethods]
impl Dispatcher {
    #[new]
    #[pyo3(signature = (name, params))]
    fn new(name: String, params: Vec<String>) -> Dispatcher {
        Dispatcher { name, params, request: OnceLock::new(), specs: Mutex::new(Specs::default()), order: Mutex::new(vec![]) }
    }

    /// Call the kernel: compile for these argument types on the current
    /// device on first use, then run.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(slf: &Bound<'_, Self>, args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
        crate::guard(|| {
            let py = slf.py();
            let me = slf.get();
            let bound;
            let args = if kwargs.is_some_and(|k| !k.is_empty()) || args.len() != me.params.len() {
                bound = slf.call_method1("_bind", (args, kwargs))?.cast_into::<PyTuple>()?;
                &bound
            } else {
                args
            };
            let device = Self::current_device();
            let (types, vals) = me.classify_all(py, args, device)?;
            let spec = Self::spec(slf, (device, types))?;
            me.call_spec(py, spec, args, vals)
        })
    }

    /// Compile for the types of `samples` (arrays and scalars as a call
    /// would pass them) on the current device; returns the signature text.
    fn _compile_like(slf: &Bound<'_, Self>, samples: &Bound<'_, PyTuple>) -> PyResult<String> {
        crate::guard(|| {
            let me = slf.get();
            if samples.len() != me.params.len() {
                return Err(PyTypeError::new_err(format!("{}() takes {} arguments; the signature has {}", me.name, me.params.len(), samples.len())));
            }
            let device = Self::current_device();
            let (types, _) = me.classify_all(slf.py(), samples, device)?;
            let spec = Self::spec(slf, (device, types))?;
            Ok(spec.args.iter().map(spell).collect::<Vec<_>>().join(", "))
        })
    }

    /// `[(device_type, (arg spelling, ...)), ...]` in compile order.
    fn _signatures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for (dev, args) in lock(&self.order).iter() {
            let spelled: Vec<String> = args.iter().map(spell).collect();
            out.append((*dev, PyTuple::new(py, spelled)?))?;
        }
        Ok(out)
    }

    /// What `inspect()` shows of one specialisation (the last compiled by
    /// default): a dict of `signature`, `device_type`, `ir` (the front
    /// end's, before lowering), `lowered_ir`, `entry`, `regions`, `loops`,
    /// `timings`; with `code=True` also `clif` (and `ptx` on nvidia).
    #[pyo3(signature = (index = None, code = false))]
    fn _inspect<'py>(slf: &Bound<'py, Self>, index: Option<usize>, code: bool) -> PyResult<Bound<'py, PyDict>> {
        crate::guard(|| {
            let py = slf.py();
            let me = slf.get();
            let spec = me.spec_at(index)?;
            let k = &spec.kernel;
            let d = PyDict::new(py);
            d.set_item("signature", spec.args.iter().map(spell).collect::<Vec<_>>())?;
            d.set_item("device_type", spec.device)?;
            d.set_item("ir", accjit_driver::ir_text(&k.parsed))?;
            d.set_item("lowered_ir", k.program.ir_text())?;
            let entry = PyList::empty(py);
            for p in &k.entry.params {
                let s = match p {
                    EntryParam::Scalar { arg, ty } => format!("{} ({})", me.param_name(*arg), dtype_name(ty)),
                    EntryParam::Base { arg } => format!("{}.data", me.param_name(*arg)),
                    EntryParam::Shape { arg, dim } => format!("{}.shape[{dim}]", me.param_name(*arg)),
                    EntryParam::Stride { arg, dim } => format!("{}.strides[{dim}] (elements)", me.param_name(*arg)),
                    EntryParam::Results => format!("results ({})", k.entry.results.iter().map(dtype_name).collect::<Vec<_>>().join(", ")),
                };
                entry.append(s)?;
            }
            d.set_item("entry", entry)?;
            d.set_item("results", k.entry.results.iter().map(dtype_name).collect::<Vec<_>>())?;
            let report = k.program.report();
            d.set_item("regions", crate::report::regions(py, report, "scalars", false)?)?;
            d.set_item("loops", crate::report::loops(py, report)?)?;
            let t = k.program.timings();
            d.set_item("compile_seconds", t.total.as_secs_f64())?;
            d.set_item("from_disk_cache", t.from_disk)?;
            d.set_item("kernels", k.program.kernel_count())?;
            if code {
                let with_clif = Self::compile(slf, (spec.device, spec.args.clone()), true)?;
                d.set_item("clif", with_clif.kernel.program.clif())?;
                if spec.device == "nvidia" {
                    d.set_item("ptx", accjit_driver::module_ptx(k.program.module(), k.program.source_map()).map_err(|e| crate::compile_error(py, &e))?)?;
                }
            }
            Ok(d)
        })
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Dispatcher>()
}

//! The OpenACC data API on NumPy arrays, as the `accjit._core.data_api`
//! submodule (the `accjit` package re-exports it as `acc.copyin`, …).
//!
//! Owns: the array → host-range rules (contiguous views only, read-only
//! arrays refused where the host side is written), the readable variable
//! description carried by errors and profiling events (`float64[1000] at
//! 0x…`, or the `name=` given), the Python source location of each call
//! (`script.py:12`, taken only when a profiler listens or an error needs it),
//! the structured `acc.data` region actions, device memory (`malloc`,
//! `free`, `map_data`, `memcpy_*`, with addresses checked against what
//! accjit knows to be device memory), waits and device management.
//!
//! Every function here calls the runtime's `data`/`api` layer, so Python
//! sees exactly the reference counting, present-table checks and errors that
//! C programs see; errors become `acc.AccError` subclasses.

use crate::runtime::acc_error;
use accjit_runtime::consts::*;
use accjit_runtime::data::{self, flags, Ctx};
use accjit_runtime::{api, device, AccError, AccResult, Clause, DeviceType};
use numpy::npyffi;
use numpy::{PyArrayDescr, PyArrayDescrMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};
use std::collections::BTreeMap;
use std::sync::Mutex;

// --- arrays --------------------------------------------------------------------

/// A NumPy array's host range; [`HostArray::desc`] says what to call it.
pub(crate) struct HostArray<'py> {
    pub addr: usize,
    pub bytes: usize,
    pub writeable: bool,
    arr: Bound<'py, PyUntypedArray>,
}

impl HostArray<'_> {
    /// `float64[1000] at 0x…` (built on demand: errors, profiling).
    pub fn desc(&self) -> String {
        let fortran = self.arr.ndim() > 1 && !self.arr.is_c_contiguous();
        describe(&dtype_name(&self.arr.dtype()), self.arr.shape(), fortran, self.addr)
    }
}

/// NumPy's name of a dtype (`float64`), without the cost of `str(dtype)` for plain numbers.
fn dtype_name(d: &Bound<'_, PyArrayDescr>) -> String {
    let bits = d.itemsize() * 8;
    match d.kind() {
        b'b' => "bool".into(),
        b'i' => format!("int{bits}"),
        b'u' => format!("uint{bits}"),
        b'f' => format!("float{bits}"),
        b'c' => format!("complex{bits}"),
        _ => d.to_string(),
    }
}

/// `float64[1000] at 0x…` / `float32[4,3] (F order) at 0x…`.
fn describe(dtype: &str, shape: &[usize], fortran: bool, addr: usize) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let order = if fortran { " (F order)" } else { "" };
    format!("{dtype}[{}]{order} at {addr:#x}", dims.join(","))
}

/// The host range of `obj`, which must be a contiguous NumPy array (C or
/// Fortran order) of a non-object dtype.
pub(crate) fn host_array<'py>(what: &str, obj: &Bound<'py, PyAny>) -> PyResult<HostArray<'py>> {
    let arr = obj.cast::<PyUntypedArray>().map_err(|_| {
        let ty = obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "object".into());
        PyTypeError::new_err(format!("{what}() expects a NumPy array, got {ty}; wrap it with np.asarray(...) and keep that array alive"))
    })?;
    let dtype = arr.dtype();
    if dtype.has_object() {
        return Err(PyTypeError::new_err(format!("{what}() cannot map an array of Python objects (dtype {dtype}); use a numeric dtype")));
    }
    if !arr.is_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{what}() needs a contiguous array, but this view (shape {:?}, strides {:?}) is not: an OpenACC data clause maps one \
             contiguous byte range. Use a contiguous copy, c = np.ascontiguousarray(a), map c, and copy results back with a[...] = c",
            arr.shape(),
            arr.strides()
        )));
    }
    // SAFETY: a live ndarray; read two header fields.
    let (addr, fl) = unsafe {
        let f = npyffi::_PyArray_GET_ITEM_DATA(arr.as_array_ptr());
        ((*f).data as usize, (*f).flags)
    };
    Ok(HostArray { addr, bytes: arr.len() * dtype.itemsize(), writeable: fl & npyffi::NPY_ARRAY_WRITEABLE != 0, arr: arr.clone() })
}

fn need_writeable(what: &str, a: &HostArray) -> PyResult<()> {
    if a.writeable {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!("{what}() writes the host array, but {} is read-only; pass a writeable copy (a.copy())", a.desc())))
    }
}

// --- source locations -------------------------------------------------------------

/// `file.py:LINE` of the Python frame `depth` levels up from the innermost
/// one (0: the code that called a built-in function of this module).
pub(crate) fn caller_loc(py: Python<'_>, depth: usize) -> Option<String> {
    static GETFRAME: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let getframe = GETFRAME.get_or_try_init(py, || py.import("sys")?.getattr("_getframe").map(Bound::unbind)).ok()?;
    let f = getframe.bind(py).call1((depth,)).ok()?;
    let line: i64 = f.getattr(intern!(py, "f_lineno")).ok()?.extract().ok()?;
    let file: String = f.getattr(intern!(py, "f_code")).ok()?.getattr(intern!(py, "co_filename")).ok()?.extract().ok()?;
    let base = file.rsplit('/').next().unwrap_or(&file).to_string();
    Some(format!("{base}:{line}"))
}

/// The location for events: only computed when a profiler listens.
fn loc_for_events(py: Python<'_>, given: Option<String>) -> Option<String> {
    given.or_else(|| if accjit_runtime::prof::active() { caller_loc(py, 0) } else { None })
}

/// An `AccError` as a Python exception, with the Python location added;
/// the `acc_ev_error` event goes to the recorder and callbacks first.
fn py_err(py: Python<'_>, e: AccError, loc: Option<&str>) -> PyErr {
    let e = match (&e.loc, loc) {
        (None, Some(l)) => e.with_loc(Some(l)),
        (None, None) => {
            let l = caller_loc(py, 0);
            e.with_loc(l.as_deref())
        }
        _ => e,
    };
    // Profiles (and acc_ev_error callbacks) see errors raised in Python too.
    accjit_runtime::prof::dispatch_error(&e);
    acc_error(py, e)
}

/// Messages name the routine rather than the clause (`acc_copyin: …`).
fn rename(mut e: AccError, routine: &str) -> AccError {
    if let Some((_, rest)) = e.message.split_once(':') {
        e.message = format!("{routine}:{rest}");
    }
    e
}

fn async_arg(a: Option<i64>) -> i64 {
    a.unwrap_or(acc_async_sync)
}

fn current() -> AccResult<&'static device::Device> {
    device::current_device()
}

// --- the dynamic data routines ------------------------------------------------------

/// The six dynamic data routines, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    CopyIn,
    Create,
    CopyOut,
    Delete,
    UpdateDevice,
    UpdateSelf,
}

impl Op {
    fn routine(self, finalize: bool) -> &'static str {
        match (self, finalize) {
            (Op::CopyIn, _) => "acc_copyin",
            (Op::Create, _) => "acc_create",
            (Op::CopyOut, false) => "acc_copyout",
            (Op::CopyOut, true) => "acc_copyout_finalize",
            (Op::Delete, false) => "acc_delete",
            (Op::Delete, true) => "acc_delete_finalize",
            (Op::UpdateDevice, _) => "acc_update_device",
            (Op::UpdateSelf, _) => "acc_update_self",
        }
    }

    fn python_name(self) -> &'static str {
        match self {
            Op::CopyIn => "copyin",
            Op::Create => "create",
            Op::CopyOut => "copyout",
            Op::Delete => "delete",
            Op::UpdateDevice => "update_device",
            Op::UpdateSelf => "update_self",
        }
    }

    /// Runs the routine on the current device (dynamic reference count).
    fn run(self, h: usize, b: usize, async_: i64, finalize: bool, ctx: Ctx) -> AccResult<()> {
        let d = current()?;
        let fl = if finalize { flags::FINALIZE } else { 0 };
        let r = match self {
            Op::CopyIn => data::enter(d, Clause::CopyIn, h, b, 0, async_, ctx).map(|_| ()),
            Op::Create => data::enter(d, Clause::Create, h, b, 0, async_, ctx).map(|_| ()),
            Op::CopyOut => data::exit(d, Clause::CopyOut, h, b, fl, async_, ctx),
            Op::Delete => data::exit(d, Clause::Delete, h, b, fl, async_, ctx),
            Op::UpdateDevice => data::update(d, true, h, b, 0, async_, ctx),
            Op::UpdateSelf => data::update(d, false, h, b, 0, async_, ctx),
        };
        r.map_err(|e| rename(e, self.routine(finalize)))
    }
}

fn data_op(py: Python<'_>, op: Op, array: &Bound<'_, PyAny>, async_: Option<i64>, finalize: bool, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    crate::guard(|| {
        let a = host_array(op.python_name(), array)?;
        if matches!(op, Op::CopyOut | Op::UpdateSelf) {
            need_writeable(op.python_name(), &a)?;
        }
        let loc = loc_for_events(py, loc);
        // The description is only built when someone will read it.
        let var = name.or_else(|| accjit_runtime::prof::active().then(|| a.desc()));
        let ctx = Ctx { name: var.as_deref(), loc: loc.as_deref(), construct: acc_construct_runtime_api, implicit: false, api: true, inner: false };
        let (asy, h, b) = (async_arg(async_), a.addr, a.bytes);
        py.detach(|| op.run(h, b, asy, finalize, ctx)).map_err(|e| py_err(py, e.with_var(Some(&a.desc())), loc.as_deref()))
    })
}

/// copyin(a, async_=None, *, name=None): acc_copyin — make `a` present (dynamic count + 1), copying it to the device.
#[pyfunction]
#[pyo3(signature = (a, async_ = None, *, name = None, loc = None))]
fn copyin(py: Python<'_>, a: &Bound<'_, PyAny>, async_: Option<i64>, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    data_op(py, Op::CopyIn, a, async_, false, name, loc)
}

/// create(a, async_=None, *, name=None): acc_create — make `a` present without copying (dynamic count + 1).
#[pyfunction]
#[pyo3(signature = (a, async_ = None, *, name = None, loc = None))]
fn create(py: Python<'_>, a: &Bound<'_, PyAny>, async_: Option<i64>, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    data_op(py, Op::Create, a, async_, false, name, loc)
}

/// copyout(a, async_=None, finalize=False, *, name=None): acc_copyout[_finalize] — dynamic count − 1 (finalize: to 0); at 0 copy back and free.
#[pyfunction]
#[pyo3(signature = (a, async_ = None, finalize = false, *, name = None, loc = None))]
fn copyout(py: Python<'_>, a: &Bound<'_, PyAny>, async_: Option<i64>, finalize: bool, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    data_op(py, Op::CopyOut, a, async_, finalize, name, loc)
}

/// delete(a, async_=None, finalize=False, *, name=None): acc_delete[_finalize] — like copyout without the copy back.
#[pyfunction]
#[pyo3(signature = (a, async_ = None, finalize = false, *, name = None, loc = None))]
fn delete(py: Python<'_>, a: &Bound<'_, PyAny>, async_: Option<i64>, finalize: bool, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    data_op(py, Op::Delete, a, async_, finalize, name, loc)
}

/// update_device(a, async_=None, *, name=None): acc_update_device — copy `a` (which may be a slice of present data) host → device.
#[pyfunction]
#[pyo3(signature = (a, async_ = None, *, name = None, loc = None))]
fn update_device(py: Python<'_>, a: &Bound<'_, PyAny>, async_: Option<i64>, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    data_op(py, Op::UpdateDevice, a, async_, false, name, loc)
}

/// update_self(a, async_=None, *, name=None): acc_update_self — copy `a` (which may be a slice of present data) device → host; only its bytes move.
#[pyfunction]
#[pyo3(signature = (a, async_ = None, *, name = None, loc = None))]
fn update_self(py: Python<'_>, a: &Bound<'_, PyAny>, async_: Option<i64>, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    data_op(py, Op::UpdateSelf, a, async_, false, name, loc)
}

/// is_present(a): acc_is_present — True when all of `a`'s bytes are present on the current device.
#[pyfunction]
fn is_present(py: Python<'_>, a: &Bound<'_, PyAny>) -> PyResult<bool> {
    crate::guard(|| {
        let h = host_array("is_present", a)?;
        api::is_present(h.addr, h.bytes).map_err(|e| py_err(py, e, None))
    })
}

/// deviceptr(a): acc_deviceptr — the device address of `a`'s first byte (0 when not present).
#[pyfunction]
fn deviceptr(py: Python<'_>, a: &Bound<'_, PyAny>) -> PyResult<usize> {
    crate::guard(|| {
        let h = host_array("deviceptr", a)?;
        if h.bytes == 0 {
            return Ok(0);
        }
        api::deviceptr(h.addr).map_err(|e| py_err(py, e, None))
    })
}

/// hostptr(d): acc_hostptr — the host address whose device copy holds device address `d` (0 if none).
#[pyfunction]
fn hostptr(py: Python<'_>, d: usize) -> PyResult<usize> {
    crate::guard(|| api::hostptr(d).map_err(|e| py_err(py, e, None)))
}

/// ref_counts(a): (structured, dynamic) reference counts of the present entry containing `a`, or None.
#[pyfunction]
fn ref_counts(py: Python<'_>, a: &Bound<'_, PyAny>) -> PyResult<Option<(u64, u64)>> {
    crate::guard(|| {
        let h = host_array("ref_counts", a)?;
        api::ref_counts(h.addr, h.bytes).map_err(|e| py_err(py, e, None))
    })
}

/// present_table(): the current device's present table, one dict per entry
/// (host, bytes, device, structured, dynamic, mapped), by host address.
#[pyfunction]
fn present_table(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    crate::guard(|| {
        let d = current().map_err(|e| py_err(py, e, None))?;
        let rows: Vec<_> = d.table().entries().cloned().collect();
        let out = PyList::empty(py);
        for e in rows {
            let r = PyDict::new(py);
            r.set_item("host", e.host)?;
            r.set_item("bytes", e.bytes)?;
            r.set_item("device", e.dev)?;
            r.set_item("structured", e.structured)?;
            r.set_item("dynamic", e.dynamic)?;
            r.set_item("mapped", e.mapped)?;
            out.append(r)?;
        }
        Ok(out)
    })
}

// --- attach / detach ------------------------------------------------------------------

/// The host address of the pointer stored in `p`'s first element (an
/// 8-byte-element array: `uint64`, `int64`, `intp`, as `T **` arguments take).
fn pointer_slot(what: &str, p: &Bound<'_, PyAny>) -> PyResult<usize> {
    let h = host_array(what, p)?;
    let arr = p.cast::<PyUntypedArray>()?;
    if arr.dtype().itemsize() != 8 || h.bytes < 8 {
        return Err(PyTypeError::new_err(format!(
            "{what}() takes an array of pointers (uint64 addresses, as T ** arguments take), got {}; pass ptrs[i:i+1] for element i",
            h.desc()
        )));
    }
    Ok(h.addr)
}

/// attach(p, async_=None): acc_attach — attach the pointer stored in `p[0]` (attachment count + 1):
/// its device copy is made to point to the device copy of its present target.
#[pyfunction]
#[pyo3(signature = (p, async_ = None))]
fn attach(py: Python<'_>, p: &Bound<'_, PyAny>, async_: Option<i64>) -> PyResult<()> {
    crate::guard(|| {
        let slot = pointer_slot("attach", p)?;
        let a = async_arg(async_);
        py.detach(|| api::attach(slot, a)).map_err(|e| py_err(py, e, None))
    })
}

/// detach(p, async_=None, finalize=False): acc_detach[_finalize] — attachment count − 1 (finalize: to 0);
/// at 0 the device copy of the pointer gets its host value back.
#[pyfunction]
#[pyo3(signature = (p, async_ = None, finalize = false))]
fn detach(py: Python<'_>, p: &Bound<'_, PyAny>, async_: Option<i64>, finalize: bool) -> PyResult<()> {
    crate::guard(|| {
        let slot = pointer_slot("detach", p)?;
        let a = async_arg(async_);
        py.detach(|| api::detach(slot, finalize, a)).map_err(|e| py_err(py, e, None))
    })
}

/// attach_count(p): the attachment count of the pointer stored in `p[0]` (0 when not attached).
#[pyfunction]
fn attach_count(py: Python<'_>, p: &Bound<'_, PyAny>) -> PyResult<u64> {
    crate::guard(|| {
        let slot = pointer_slot("attach_count", p)?;
        api::attach_count(slot).map_err(|e| py_err(py, e, None))
    })
}

// --- structured regions (acc.data) -------------------------------------------------

fn region_clause(kind: &str) -> PyResult<Clause> {
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

/// Runs a region action between `start`/`end` events (as the C ABI does for
/// data constructs), so that profiles show each `acc.data` clause.
fn bracketed<T>(start: i32, end: i32, var: &str, loc: Option<&str>, f: impl FnOnce() -> AccResult<T>) -> AccResult<T> {
    if !accjit_runtime::prof::active() {
        return f();
    }
    let ty = device::current_type();
    let ev = |kind, tool_info| accjit_runtime::Event {
        kind,
        construct: acc_construct_data,
        device_type: ty.to_acc(),
        device_num: device::current_num(ty) as i32,
        var: Some(var),
        loc,
        tool_info,
        ..Default::default()
    };
    let t = accjit_runtime::prof::emit(&ev(start, 0));
    let r = f();
    accjit_runtime::prof::emit(&ev(end, t));
    r
}

/// region_enter(kind, a, name=None, loc=None): the entry action of data clause `kind` with the structured reference count.
#[pyfunction]
#[pyo3(signature = (kind, a, name = None, loc = None))]
fn region_enter(py: Python<'_>, kind: &str, a: &Bound<'_, PyAny>, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    crate::guard(|| {
        let c = region_clause(kind)?;
        let h = host_array(&format!("data({kind}=...)"), a)?;
        if matches!(c, Clause::Copy | Clause::CopyOut) {
            need_writeable(&format!("data({kind}=...)"), &h)?;
        }
        let var = match name {
            Some(n) => format!("{kind}({n})"),
            None => format!("{kind}({})", h.desc()),
        };
        let ctx = Ctx::directive(Some(&var), loc.as_deref(), acc_construct_data);
        py.detach(|| {
            bracketed(acc_ev_enter_data_start, acc_ev_enter_data_end, &var, loc.as_deref(), || {
                current().and_then(|d| data::enter(d, c, h.addr, h.bytes, flags::STRUCTURED, acc_async_sync, ctx))
            })
        })
        .map(|_| ())
        .map_err(|e| py_err(py, e, loc.as_deref()))
    })
}

/// region_exit(kind, a, name=None, loc=None): the exit action matching `region_enter`.
#[pyfunction]
#[pyo3(signature = (kind, a, name = None, loc = None))]
fn region_exit(py: Python<'_>, kind: &str, a: &Bound<'_, PyAny>, name: Option<String>, loc: Option<String>) -> PyResult<()> {
    crate::guard(|| {
        let c = region_clause(kind)?;
        let h = host_array(&format!("data({kind}=...)"), a)?;
        let var = match name {
            Some(n) => format!("{kind}({n})"),
            None => format!("{kind}({})", h.desc()),
        };
        let ctx = Ctx::directive(Some(&var), loc.as_deref(), acc_construct_data);
        py.detach(|| {
            bracketed(acc_ev_exit_data_start, acc_ev_exit_data_end, &var, loc.as_deref(), || {
                current().and_then(|d| data::exit(d, c, h.addr, h.bytes, flags::STRUCTURED, acc_async_sync, ctx))
            })
        })
        .map_err(|e| py_err(py, e, loc.as_deref()))
    })
}

// --- device memory -------------------------------------------------------------------

/// Blocks handed out by `acc.malloc` (start → bytes), so that Python code
/// can only free, map and copy to memory that really is device memory.
static BLOCKS: Mutex<BTreeMap<usize, usize>> = Mutex::new(BTreeMap::new());

fn blocks() -> std::sync::MutexGuard<'static, BTreeMap<usize, usize>> {
    BLOCKS.lock().unwrap_or_else(|p| p.into_inner())
}

/// Is `[d, d+bytes)` device memory accjit knows: inside an `acc.malloc`
/// block, or inside the device copy of present data?
fn known_device_range(d: usize, bytes: usize) -> AccResult<bool> {
    if let Some((&s, &n)) = blocks().range(..=d).next_back() {
        if d + bytes <= s + n {
            return Ok(true);
        }
    }
    let dev = current()?;
    let t = dev.table();
    Ok(match t.host_of(d) {
        Some(h) => t.find(h, bytes.max(1)).is_some_and(|e| e.dev_of(h) == d),
        None => false,
    })
}

fn check_device_range(py: Python<'_>, what: &str, d: usize, bytes: usize) -> PyResult<()> {
    match known_device_range(d, bytes) {
        Ok(true) => Ok(()),
        Ok(false) => Err(PyValueError::new_err(format!(
            "{what}(): {d:#x} (+{bytes} bytes) is not device memory known to accjit; use an address from acc.malloc() or \
             acc.deviceptr() of present data, within its size"
        ))),
        Err(e) => Err(acc_error(py, e)),
    }
}

/// malloc(bytes): acc_malloc — `bytes` of device memory; returns its device address (0 for 0 bytes).
#[pyfunction]
fn malloc(py: Python<'_>, bytes: usize) -> PyResult<usize> {
    crate::guard(|| {
        let p = api::malloc(bytes).map_err(|e| py_err(py, e, None))?;
        if p != 0 {
            blocks().insert(p, bytes);
        }
        Ok(p)
    })
}

/// free(d): acc_free — release memory from `malloc` (0: no action).
#[pyfunction]
fn free(py: Python<'_>, d: usize) -> PyResult<()> {
    crate::guard(|| {
        if d == 0 {
            return Ok(());
        }
        if blocks().remove(&d).is_none() {
            return Err(PyValueError::new_err(format!("free(): {d:#x} was not returned by acc.malloc() (or was freed already)")));
        }
        api::free(d).map_err(|e| py_err(py, e, None))
    })
}

/// map_data(a, d): acc_map_data — make `a` present with device copy at `d` (from `malloc`; dynamic count 1).
#[pyfunction]
fn map_data(py: Python<'_>, a: &Bound<'_, PyAny>, d: usize) -> PyResult<()> {
    crate::guard(|| {
        let h = host_array("map_data", a)?;
        if h.bytes == 0 {
            return Err(PyValueError::new_err("map_data(): cannot map an empty array"));
        }
        check_device_range(py, "map_data", d, h.bytes)?;
        api::map_data(h.addr, d, h.bytes).map_err(|e| py_err(py, e.with_var(Some(&h.desc())), None))
    })
}

/// unmap_data(a): acc_unmap_data — undo `map_data` (the device memory stays allocated).
#[pyfunction]
fn unmap_data(py: Python<'_>, a: &Bound<'_, PyAny>) -> PyResult<()> {
    crate::guard(|| {
        let h = host_array("unmap_data", a)?;
        api::unmap_data(h.addr).map_err(|e| py_err(py, e.with_var(Some(&h.desc())), None))
    })
}

fn byte_count(what: &str, given: Option<usize>, limit: usize) -> PyResult<usize> {
    match given {
        None => Ok(limit),
        Some(b) if b <= limit => Ok(b),
        Some(b) => Err(PyValueError::new_err(format!("{what}(): {b} bytes requested but the array has only {limit}"))),
    }
}

/// memcpy_to_device(d, src, bytes=None, async_=None): acc_memcpy_to_device — host array `src` → device address `d` (default: all of `src`).
#[pyfunction]
#[pyo3(signature = (d, src, bytes = None, async_ = None))]
fn memcpy_to_device(py: Python<'_>, d: usize, src: &Bound<'_, PyAny>, bytes: Option<usize>, async_: Option<i64>) -> PyResult<()> {
    crate::guard(|| {
        let h = host_array("memcpy_to_device", src)?;
        let b = byte_count("memcpy_to_device", bytes, h.bytes)?;
        if b == 0 {
            return Ok(());
        }
        check_device_range(py, "memcpy_to_device", d, b)?;
        let a = async_arg(async_);
        py.detach(|| api::memcpy_to_device(d, h.addr, b, a)).map_err(|e| py_err(py, e, None))
    })
}

/// memcpy_from_device(dst, d, bytes=None, async_=None): acc_memcpy_from_device — device address `d` → host array `dst`.
#[pyfunction]
#[pyo3(signature = (dst, d, bytes = None, async_ = None))]
fn memcpy_from_device(py: Python<'_>, dst: &Bound<'_, PyAny>, d: usize, bytes: Option<usize>, async_: Option<i64>) -> PyResult<()> {
    crate::guard(|| {
        let h = host_array("memcpy_from_device", dst)?;
        need_writeable("memcpy_from_device", &h)?;
        let b = byte_count("memcpy_from_device", bytes, h.bytes)?;
        if b == 0 {
            return Ok(());
        }
        check_device_range(py, "memcpy_from_device", d, b)?;
        let a = async_arg(async_);
        py.detach(|| api::memcpy_from_device(h.addr, d, b, a)).map_err(|e| py_err(py, e, None))
    })
}

/// memcpy_device(dst, src, bytes, async_=None): acc_memcpy_device — device → device on the current device.
#[pyfunction]
#[pyo3(signature = (dst, src, bytes, async_ = None))]
fn memcpy_device(py: Python<'_>, dst: usize, src: usize, bytes: usize, async_: Option<i64>) -> PyResult<()> {
    crate::guard(|| {
        if bytes == 0 {
            return Ok(());
        }
        check_device_range(py, "memcpy_device", dst, bytes)?;
        check_device_range(py, "memcpy_device", src, bytes)?;
        let a = async_arg(async_);
        py.detach(|| api::memcpy_device(dst, src, bytes, a)).map_err(|e| py_err(py, e, None))
    })
}

// --- async ---------------------------------------------------------------------------

/// wait(*queues, async_=None, device_num=None): acc_wait / acc_wait_all (no queues),
/// or with `async_`: acc_wait_async — queue `async_` waits instead of the host.
#[pyfunction]
#[pyo3(signature = (*queues, async_ = None, device_num = None))]
fn wait(py: Python<'_>, queues: Vec<i64>, async_: Option<i64>, device_num: Option<i32>) -> PyResult<()> {
    crate::guard(|| {
        let r = py.detach(|| -> AccResult<()> {
            match (queues.is_empty(), async_, device_num) {
                (true, None, None) => api::wait_all(),
                (true, None, Some(n)) => api::wait_all_device(n),
                (true, Some(a), None) => api::wait_all_async(a),
                (true, Some(a), Some(n)) => api::wait_all_device_async(a, n),
                (false, a, n) => queues.iter().try_for_each(|&q| match (a, n) {
                    (None, None) => api::wait(q),
                    (None, Some(n)) => api::wait_device(q, n),
                    (Some(a), None) => api::wait_async(q, a),
                    (Some(a), Some(n)) => api::wait_device_async(q, a, n),
                }),
            }
        });
        r.map_err(|e| py_err(py, e, None))
    })
}

/// async_test(queue=None, device_num=None): acc_async_test[_all][_device] — True when the queue (all queues) is idle.
#[pyfunction]
#[pyo3(signature = (queue = None, device_num = None))]
fn async_test(py: Python<'_>, queue: Option<i64>, device_num: Option<i32>) -> PyResult<bool> {
    crate::guard(|| {
        let r = match (queue, device_num) {
            (Some(q), None) => api::async_test(q),
            (Some(q), Some(n)) => api::async_test_device(q, n),
            (None, None) => api::async_test_all(),
            (None, Some(n)) => api::async_test_all_device(n),
        };
        r.map_err(|e| py_err(py, e, None))
    })
}

/// wait_any(queues, device_num=None): acc_wait_any — waits until one of `queues` is idle; returns its index (-1 when none applies).
#[pyfunction]
#[pyo3(signature = (queues, device_num = None))]
fn wait_any(py: Python<'_>, queues: Vec<i64>, device_num: Option<i32>) -> PyResult<i32> {
    crate::guard(|| {
        py.detach(|| match device_num {
            None => api::wait_any(&queues),
            Some(n) => api::wait_any_device(&queues, n),
        })
        .map_err(|e| py_err(py, e, None))
    })
}

/// get_default_async(): acc_get_default_async.
#[pyfunction]
fn get_default_async() -> i64 {
    api::get_default_async()
}

/// set_default_async(a): acc_set_default_async.
#[pyfunction]
fn set_default_async(py: Python<'_>, a: i64) -> PyResult<()> {
    api::set_default_async(a).map_err(|e| py_err(py, e, None))
}

// --- devices ---------------------------------------------------------------------------

fn type_arg(t: Option<&str>) -> PyResult<i32> {
    match t {
        None => Ok(api::get_device_type()),
        Some(s) => DeviceType::parse(s)
            .map(DeviceType::to_acc)
            .ok_or_else(|| PyValueError::new_err(format!("unknown device type {s:?} (host, multicore, nvidia, opencl, radeon)"))),
    }
}

/// set_device_num(num, device_type=None): acc_set_device_num — select device `num` of the type (default: current) and make the type current.
#[pyfunction]
#[pyo3(signature = (num, device_type = None))]
fn set_device_num(py: Python<'_>, num: i32, device_type: Option<&str>) -> PyResult<()> {
    crate::guard(|| {
        let t = type_arg(device_type)?;
        api::set_device_num(num, t).map_err(|e| py_err(py, e, None))
    })
}

/// get_device_num(device_type=None): acc_get_device_num (-1 when the type has no devices).
#[pyfunction]
#[pyo3(signature = (device_type = None))]
fn get_device_num(device_type: Option<&str>) -> PyResult<i32> {
    Ok(api::get_device_num(type_arg(device_type)?))
}

/// The property names `get_property` accepts, with their `acc_device_property_t` values.
const PROPERTIES: [(&str, i32); 6] = [
    ("memory", acc_property_memory),
    ("free_memory", acc_property_free_memory),
    ("shared_memory_support", acc_property_shared_memory_support),
    ("name", acc_property_name),
    ("vendor", acc_property_vendor),
    ("driver", acc_property_driver),
];

fn property_code(prop: &Bound<'_, PyAny>) -> PyResult<i32> {
    if let Ok(s) = prop.extract::<String>() {
        let key = s.trim().to_ascii_lowercase();
        let key = key.strip_prefix("acc_property_").unwrap_or(&key);
        return PROPERTIES.iter().find(|(n, _)| *n == key).map(|(_, v)| *v).ok_or_else(|| {
            let names: Vec<&str> = PROPERTIES.iter().map(|(n, _)| *n).collect();
            PyValueError::new_err(format!("unknown device property {s:?} ({})", names.join(", ")))
        });
    }
    prop.extract::<i32>().map_err(|_| PyTypeError::new_err("get_property(): the property is a name such as 'memory' or an acc_property_* number"))
}

/// get_property(prop, device_num=None, device_type=None): acc_get_property / acc_get_property_string.
/// `prop`: 'memory', 'free_memory', 'shared_memory_support' (ints), 'name', 'vendor', 'driver' (strings).
#[pyfunction]
#[pyo3(signature = (prop, device_num = None, device_type = None))]
fn get_property(py: Python<'_>, prop: &Bound<'_, PyAny>, device_num: Option<i32>, device_type: Option<&str>) -> PyResult<Py<PyAny>> {
    crate::guard(|| {
        let code = property_code(prop)?;
        let t = type_arg(device_type)?;
        let num = device_num.unwrap_or_else(|| api::get_device_num(t).max(0));
        if code >= acc_property_name {
            Ok(api::get_property_string(num, t, code).into_pyobject(py)?.unbind())
        } else {
            Ok(api::get_property(num, t, code).into_pyobject(py)?.into_any().unbind())
        }
    })
}

/// Adds the `data_api` submodule to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let sub = PyModule::new(m.py(), "data_api")?;
    sub.add_function(wrap_pyfunction!(copyin, &sub)?)?;
    sub.add_function(wrap_pyfunction!(create, &sub)?)?;
    sub.add_function(wrap_pyfunction!(copyout, &sub)?)?;
    sub.add_function(wrap_pyfunction!(delete, &sub)?)?;
    sub.add_function(wrap_pyfunction!(update_device, &sub)?)?;
    sub.add_function(wrap_pyfunction!(update_self, &sub)?)?;
    sub.add_function(wrap_pyfunction!(is_present, &sub)?)?;
    sub.add_function(wrap_pyfunction!(deviceptr, &sub)?)?;
    sub.add_function(wrap_pyfunction!(hostptr, &sub)?)?;
    sub.add_function(wrap_pyfunction!(ref_counts, &sub)?)?;
    sub.add_function(wrap_pyfunction!(present_table, &sub)?)?;
    sub.add_function(wrap_pyfunction!(attach, &sub)?)?;
    sub.add_function(wrap_pyfunction!(detach, &sub)?)?;
    sub.add_function(wrap_pyfunction!(attach_count, &sub)?)?;
    sub.add_function(wrap_pyfunction!(region_enter, &sub)?)?;
    sub.add_function(wrap_pyfunction!(region_exit, &sub)?)?;
    sub.add_function(wrap_pyfunction!(malloc, &sub)?)?;
    sub.add_function(wrap_pyfunction!(free, &sub)?)?;
    sub.add_function(wrap_pyfunction!(map_data, &sub)?)?;
    sub.add_function(wrap_pyfunction!(unmap_data, &sub)?)?;
    sub.add_function(wrap_pyfunction!(memcpy_to_device, &sub)?)?;
    sub.add_function(wrap_pyfunction!(memcpy_from_device, &sub)?)?;
    sub.add_function(wrap_pyfunction!(memcpy_device, &sub)?)?;
    sub.add_function(wrap_pyfunction!(wait, &sub)?)?;
    sub.add_function(wrap_pyfunction!(async_test, &sub)?)?;
    sub.add_function(wrap_pyfunction!(wait_any, &sub)?)?;
    sub.add_function(wrap_pyfunction!(get_default_async, &sub)?)?;
    sub.add_function(wrap_pyfunction!(set_default_async, &sub)?)?;
    sub.add_function(wrap_pyfunction!(set_device_num, &sub)?)?;
    sub.add_function(wrap_pyfunction!(get_device_num, &sub)?)?;
    sub.add_function(wrap_pyfunction!(get_property, &sub)?)?;
    m.add_submodule(&sub)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_readable() {
        assert_eq!(describe("float64", &[1000], false, 0x1000), "float64[1000] at 0x1000");
        assert_eq!(describe("int32", &[4, 3], true, 0x20), "int32[4,3] (F order) at 0x20");
        assert_eq!(describe("uint8", &[], false, 0x20), "uint8[] at 0x20");
    }

    #[test]
    fn errors_name_the_routine() {
        let e = AccError::not_present("update self", 0x10, 8, "multicore");
        let r = rename(e, "acc_update_self");
        assert!(r.message.starts_with("acc_update_self: data is not present"), "{}", r.message);
        assert_eq!(Op::CopyOut.routine(true), "acc_copyout_finalize");
        assert_eq!(Op::Delete.routine(false), "acc_delete");
    }

    #[test]
    fn malloc_blocks_are_known_device_memory() {
        let _g = crate::profile::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let p = api::malloc(64).unwrap();
        blocks().insert(p, 64);
        assert!(known_device_range(p, 64).unwrap());
        assert!(known_device_range(p + 8, 56).unwrap());
        assert!(!known_device_range(p + 8, 64).unwrap());
        blocks().remove(&p);
        assert!(!known_device_range(p, 8).unwrap());
        api::free(p).unwrap();
    }

    #[test]
    fn present_device_copies_are_known_device_memory() {
        let _g = crate::profile::TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let buf = [0u8; 32];
        let h = buf.as_ptr() as usize;
        api::copyin(h, 32, acc_async_sync).unwrap();
        assert!(known_device_range(h, 32).unwrap());
        assert!(known_device_range(h + 16, 16).unwrap());
        assert!(!known_device_range(h + 16, 17).unwrap());
        api::delete(h, 32, false, acc_async_sync).unwrap();
        assert!(!known_device_range(h, 32).unwrap());
    }
}

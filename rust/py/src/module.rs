//! `accjit._core.Module`: one compiled C program, its exported functions and
//! the ways to call them.

use crate::caller::{run_interruptible, CallFailure, CallSize, ShortCalls};
use crate::marshal::{marshal, required_dtype, unmarshal};
use accjit_driver::{FunctionInfo, Program};
use accjit_ir::Type;
use accjit_runtime::hosted::Outcome;
use pyo3::exceptions::{PyAttributeError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Arc;

#[pyclass(module = "accjit._core", name = "Module", frozen)]
pub struct PyProgram {
    pub program: Arc<Program>,
    pub from_cache: bool,
    /// The past calls of each exported function (as `program.functions()`)
    /// and of `main`: whether the next call may run gangs on the Python
    /// thread (`caller::ShortCalls`).
    calls: Vec<ShortCalls>,
    main_calls: ShortCalls,
}

impl PyProgram {
    pub fn new(program: Arc<Program>, from_cache: bool) -> PyProgram {
        let calls = program.functions().iter().map(|_| ShortCalls::default()).collect();
        PyProgram { program, from_cache, calls, main_calls: ShortCalls::default() }
    }

    /// The past calls of `f`, one of this program's functions.
    fn calls_of(&self, f: &FunctionInfo) -> &ShortCalls {
        let i = self.program.functions().iter().position(|g| std::ptr::eq(g, f));
        i.and_then(|i| self.calls.get(i)).unwrap_or(&self.main_calls)
    }
}

fn find<'a>(p: &'a Program, name: &str) -> PyResult<&'a FunctionInfo> {
    p.function_info(name).ok_or_else(|| {
        let names: Vec<&str> = p.functions().iter().map(|f| f.name.as_str()).collect();
        PyAttributeError::new_err(format!("{}: no exported function '{name}' (functions: {})", p.name(), names.join(", ")))
    })
}

fn kind_of(ty: &Type) -> &'static str {
    match ty {
        Type::Scalar(s) if s.is_float() => "float",
        Type::Scalar(accjit_ir::Scalar::Bool) => "bool",
        Type::Scalar(_) => "int",
        Type::Ptr(_) | Type::Array(..) => "pointer",
        Type::Complex(_) => "complex",
        _ => "other",
    }
}

impl PyProgram {
    /// Calls `f` (one of this program's functions, whose past calls are
    /// `calls`) with `args`.
    fn call_function(&self, py: Python<'_>, f: &FunctionInfo, calls: &ShortCalls, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let m = marshal(f, args)?;
        let tramp = f.trampoline;
        let program = self.program.clone();
        let (slots, mapped, arrays) = (m.slots, m.mapped, m.arrays);
        let ret = run_interruptible(py, true, calls, m.size, m.keep, move || {
            let mut ret = [0u64; 2];
            // NumPy arrays a kernel uses with no data clause: copied implicitly (discrete devices).
            let _arrays = (!arrays.is_empty()).then(|| accjit_runtime::compute::CallArrays::enter(&arrays));
            program.prepare();
            // SAFETY: `slots` matches the signature (checked by `marshal`);
            // the arrays behind pointer slots are kept alive by `keep`
            // (see `run_interruptible`) and the code by `program` until the
            // call returns (or, if the program ends early, forever).
            unsafe { tramp(slots.as_ptr(), ret.as_mut_ptr()) };
            mapped.into_iter().for_each(crate::interop::unmap);
            drop(program);
            ret
        })?
        .map_err(|e| crate::errors::call_failure(py, &format!("{}()", f.name), e))?;
        unmarshal(py, &f.sig.ret, ret)
    }
}

impl PyProgram {
    /// Calls the Fortran procedure `iface` (IR function `f`) with `args`.
    fn call_procedure(&self, py: Python<'_>, iface: &accjit_front_fortran::ProcInterface, f: &FunctionInfo, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let mut temps = Vec::new();
        let m = crate::fortran::marshal_fortran(iface, f, args, &mut temps)?;
        let tramp = f.trampoline;
        let program = self.program.clone();
        let (slots, mapped, arrays) = (m.slots, m.mapped, m.arrays);
        let ret = run_interruptible(py, true, self.calls_of(f), m.size, m.keep, move || {
            let mut ret = [0u64; 2];
            let _arrays = (!arrays.is_empty()).then(|| accjit_runtime::compute::CallArrays::enter(&arrays));
            program.prepare();
            // SAFETY: `slots` matches the signature (checked by
            // `marshal_fortran`); arrays and temporaries behind pointer
            // slots are kept alive by `keep` (see `run_interruptible`)
            // and `temps`, and the code by `program` until the call
            // returns (or forever, if the program ends early).
            unsafe { tramp(slots.as_ptr(), ret.as_mut_ptr()) };
            mapped.into_iter().for_each(crate::interop::unmap);
            drop(program);
            (ret, temps)
        })?
        .map_err(|e| crate::errors::call_failure(py, &format!("{}()", iface.name), e))?;
        crate::fortran::result_value(py, iface, &f.sig.ret, ret.0, &ret.1)
    }
}

/// One Fortran procedure of a module, callable with its arguments
/// (`accjit.FProcedure` derives from it), as [`PyFunction`] for C.
#[pyclass(module = "accjit._core", name = "Procedure", subclass, frozen)]
pub struct PyProcedure {
    module: Py<PyProgram>,
    /// Index in the program's Fortran procedures.
    iface: usize,
    /// Index in the program's functions.
    function: usize,
    params: usize,
}

#[pymethods]
impl PyProcedure {
    /// The procedure `info["name"]` of `module` (`info`: an entry of `module.fortran_procedures()`).
    #[new]
    fn new(module: Bound<'_, PyProgram>, info: &Bound<'_, PyAny>) -> PyResult<Self> {
        crate::guard(|| {
            let name: String = info.get_item("name")?.extract()?;
            let program = &module.get().program;
            let (iface, f) = crate::fortran::find(program, &name)?;
            let ifaces = &program.fortran().map(|i| &i.procedures[..]).unwrap_or(&[]);
            let iface_index = ifaces.iter().position(|q| std::ptr::eq(q, iface)).unwrap_or(0);
            let function = program.functions().iter().position(|g| std::ptr::eq(g, f)).unwrap_or(0);
            let params = iface.params.len();
            Ok(PyProcedure { module: module.clone().unbind(), iface: iface_index, function, params })
        })
    }

    /// Calls the procedure; keyword arguments, and optional arguments left
    /// out, are bound by the subclass's `_bind_call`.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(slf: &Bound<'_, Self>, args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
        crate::guard(|| {
            let me = slf.get();
            let p = me.module.get();
            let (Some(iface), Some(f)) = (p.program.fortran().and_then(|i| i.procedures.get(me.iface)), p.program.functions().get(me.function)) else {
                return Err(PyRuntimeError::new_err("internal error in accjit: a procedure of no program"));
            };
            if kwargs.is_some_and(|k| !k.is_empty()) || args.len() < me.params {
                let bound = slf.call_method1("_bind_call", (args, kwargs))?;
                return p.call_procedure(slf.py(), iface, f, bound.cast::<PyTuple>()?);
            }
            p.call_procedure(slf.py(), iface, f, args)
        })
    }
}

/// One exported C function of a module, callable with the function's
/// arguments (`accjit.CFunction` derives from it): the call goes from
/// Python's call slot straight to the marshalling, with no Python frame
/// and no lookup of the function by name.
#[pyclass(module = "accjit._core", name = "Function", subclass, frozen)]
pub struct PyFunction {
    module: Py<PyProgram>,
    index: usize,
}

#[pymethods]
impl PyFunction {
    /// The function `info["name"]` of `module` (`info`: an entry of `module.functions()`).
    #[new]
    fn new(module: Bound<'_, PyProgram>, info: &Bound<'_, PyAny>) -> PyResult<Self> {
        crate::guard(|| {
            let name: String = info.get_item("name")?.extract()?;
            let index = module.get().program.functions().iter().position(|f| f.name == name);
            let index = index.ok_or_else(|| find(&module.get().program, &name).err().unwrap_or_else(|| PyAttributeError::new_err(name.clone())))?;
            Ok(PyFunction { module: module.unbind(), index })
        })
    }

    /// Calls the function; keyword arguments are bound to the parameters
    /// by name (through the subclass's `_bind`).
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(slf: &Bound<'_, Self>, args: &Bound<'_, PyTuple>, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Py<PyAny>> {
        crate::guard(|| {
            let me = slf.get();
            let p = me.module.get();
            let (f, calls) = (&p.program.functions()[me.index], &p.calls[me.index]);
            match kwargs {
                Some(kw) if !kw.is_empty() => {
                    let bound = slf.call_method1("_bind", (args, kw))?;
                    p.call_function(slf.py(), f, calls, bound.cast::<PyTuple>()?)
                }
                _ => p.call_function(slf.py(), f, calls, args),
            }
        })
    }
}

#[pymethods]
impl PyProgram {
    /// The name the source was compiled under.
    #[getter]
    fn name(&self) -> &str {
        self.program.name()
    }

    #[getter]
    fn device_type(&self) -> &str {
        self.program.device_type()
    }

    /// True when this module came from the in-process cache.
    #[getter(from_cache)]
    fn is_from_cache(&self) -> bool {
        self.from_cache
    }

    /// Exported functions: a list of dicts `{name, signature, ret, params: [{name, ctype, kind, dtype, const}]}`.
    fn functions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::guard(|| {
            let out = PyList::empty(py);
            for f in self.program.functions() {
                let d = PyDict::new(py);
                d.set_item("name", &f.name)?;
                d.set_item("signature", f.signature())?;
                d.set_item("ret", &f.ret_ctype)?;
                d.set_item("variadic", f.sig.variadic)?;
                let ps = PyList::empty(py);
                for p in &f.params {
                    let pd = PyDict::new(py);
                    pd.set_item("name", &p.name)?;
                    pd.set_item("ctype", &p.ctype)?;
                    pd.set_item("kind", kind_of(&p.ty))?;
                    let dt = match &p.ty {
                        Type::Ptr(t) | Type::Array(t, _) => required_dtype(t),
                        _ => None,
                    };
                    pd.set_item("dtype", dt)?;
                    pd.set_item("const", p.const_pointee)?;
                    ps.append(pd)?;
                }
                d.set_item("params", ps)?;
                out.append(d)?;
            }
            Ok(out)
        })
    }

    /// The C signature of function `name`.
    fn signature(&self, name: &str) -> PyResult<String> {
        crate::guard(|| Ok(find(&self.program, name)?.signature()))
    }

    /// Call exported function `name` with the tuple `args` (see the package docs
    /// for the conversions). The GIL is released while native code runs; Ctrl-C
    /// abandons a call on a worker thread (it finishes on its own thread) and
    /// raises KeyboardInterrupt.
    fn call(&self, py: Python<'_>, name: &str, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        crate::guard(|| {
            let f = find(&self.program, name)?;
            self.call_function(py, f, self.calls_of(f), args)
        })
    }

    /// The procedures of a program compiled from Fortran (see
    /// `fortran::procedures`); an empty list for C.
    fn fortran_procedures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        crate::guard(|| match self.program.fortran() {
            Some(info) => crate::fortran::procedures(py, info),
            None => Ok(PyList::empty(py)),
        })
    }

    /// Call the Fortran procedure `name` (any case) with the tuple `args`,
    /// marshalled by its Fortran interface (`fortran.rs`); otherwise as `call`.
    fn call_fortran(&self, py: Python<'_>, name: &str, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        crate::guard(|| {
            let (iface, f) = crate::fortran::find(&self.program, name)?;
            self.call_procedure(py, iface, f, args)
        })
    }

    /// Run `main(argc, argv)` and return its status. Hosted (the default),
    /// `exit(n)` in the program ends only the program and its status `n` is
    /// returned, as `return n` from main would; a runtime error raises
    /// `AccError`, `abort()`/a failed `assert` raise `ProgramAbort`. With
    /// `hosted=False` (the `accjit run` command) they end the process.
    #[pyo3(signature = (argv, hosted = true))]
    fn run_main(&self, py: Python<'_>, argv: Vec<String>, hosted: bool) -> PyResult<i32> {
        crate::guard(|| {
            let program = self.program.clone();
            // Integer arguments may be sizes, as for a function's.
            let mut size = CallSize::default();
            argv.iter().filter_map(|a| a.parse::<i128>().ok()).for_each(|v| size.add_int(v));
            let r = match run_interruptible(py, hosted, &self.main_calls, size, Default::default(), move || accjit_driver::run_main(&program, &argv))? {
                Ok(r) => r,
                Err(CallFailure::Program(Outcome::Exit(code))) => return Ok(code),
                Err(e) => return Err(crate::errors::call_failure(py, "main()", e)),
            };
            r.map_err(|e| PyRuntimeError::new_err(e.0))
        })
    }

    /// CLIF text (only when compiled with `keep_clif=True`).
    fn clif(&self) -> String {
        self.program.clif().to_string()
    }

    /// The PTX the nvidia back end makes of this program's kernels (as
    /// lowered for the device type it was compiled for; `accjit ptx` and
    /// `ptx_text` lower for the nvidia device). Raises `CompileError` when a
    /// kernel uses what the back end does not support.
    fn ptx(&self, py: Python<'_>) -> PyResult<String> {
        crate::guard(|| accjit_driver::module_ptx(self.program.module(), self.program.source_map()).map_err(|e| crate::compile_error(py, &e)))
    }

    /// The lowered IR as text.
    fn ir(&self) -> PyResult<String> {
        crate::guard(|| Ok(self.program.ir_text()))
    }

    /// Seconds spent in each stage: `{parse, lower, codegen, total}`.
    fn timings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let t = self.program.timings();
        let d = PyDict::new(py);
        d.set_item("parse", t.parse.as_secs_f64())?;
        d.set_item("lower", t.lower.as_secs_f64())?;
        d.set_item("codegen", t.codegen.as_secs_f64())?;
        d.set_item("total", t.total.as_secs_f64())?;
        Ok(d)
    }

    /// The compile report: a dict of `name`, `device_type`, `regions` (each
    /// compute region's clauses, the implicit attributes with why, launch
    /// clauses, kernels), `loops` (line, schedule, reason), `kernels`,
    /// `timings`. `accjit._report` renders it.
    fn report<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::guard(|| crate::report::program_report(py, &self.program))
    }

    /// Number of outlined compute regions (kernels).
    #[getter]
    fn kernel_count(&self) -> usize {
        self.program.kernel_count()
    }

    fn __repr__(&self) -> String {
        let names: Vec<&str> = self.program.functions().iter().map(|f| f.name.as_str()).collect();
        format!("<accjit module {} [{}] functions: {}>", self.program.name(), self.program.device_type(), names.join(", "))
    }
}

//! A compiled program: the source map, the lowered IR, the runtime's kernel
//! slots and the native code, kept alive together; plus `run_main`. A
//! program loaded from a direct entry of the disk cache (`direct.rs`) has
//! its code, slots and exported functions at once, and makes its source
//! map, IR and report from its source when one is first asked for.
//!
//! Field order is drop order: the compiled code goes first, then the kernel
//! slots its launch sites point at, then the IR.
//!
//! Globals with `declare create/copyin/device_resident` are entered by
//! lower's `__accjit_declare_init` ([`accjit_lower::DECLARE_INIT`]), which
//! [`Program::prepare`] runs once, before the first function of the program
//! runs (`run_main` and the Python call path call it). Their device copies
//! live as long as the program (spec: the implicit data region of the whole
//! program); when the program is dropped they are released (no copy back),
//! so that the present table never keeps ranges of freed JIT data.
//! Functions named `__accjit_*` are not listed among the exports.

use crate::ctype::{self, ParamInfo};
use crate::rt;
use accjit_back_clif::{CompiledModule, Trampoline};
use accjit_ir::{FuncSig, Module, SourceMap};
use std::ffi::CString;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering::*};
use std::sync::OnceLock;
use std::time::Duration;

/// Wall time of each pipeline stage of one compilation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// Preprocess + parse + type check (the C front end).
    pub parse: Duration,
    pub lower: Duration,
    /// Cranelift code generation and linking (and the PTX for nvidia);
    /// with `from_disk`, loading both from the disk cache instead.
    pub codegen: Duration,
    pub total: Duration,
    /// The code came from the disk cache (`disk.rs`), not the back ends.
    pub from_disk: bool,
}

/// An exported function, as callers see it.
#[derive(Clone, Debug)]
pub struct FunctionInfo {
    pub name: String,
    pub sig: FuncSig,
    pub params: Vec<ParamInfo>,
    /// C spelling of the return type.
    pub ret_ctype: String,
    pub trampoline: Trampoline,
}

impl FunctionInfo {
    /// `void saxpy(int n, float a, const float *x, float *y)`
    pub fn signature(&self) -> String {
        let ps: Vec<String> = self.params.iter().map(|p| p.declaration()).collect();
        let ps = if ps.is_empty() { "void".to_string() } else { ps.join(", ") };
        let ps = if self.sig.variadic { format!("{ps}, ...") } else { ps };
        let sep = if self.ret_ctype.ends_with('*') { "" } else { " " };
        format!("{}{sep}{}({ps})", self.ret_ctype, self.name)
    }
}

pub struct Program {
    compiled: CompiledModule,
    slots: Vec<rt::Slot>,
    functions: Vec<FunctionInfo>,
    /// The source map, the lowered IR and the report: made with the
    /// program, or, for a program loaded from the disk cache without them
    /// (`direct.rs`), made again from its source the first time one is
    /// asked for.
    lowered: OnceLock<Lowered>,
    relower: Option<Box<crate::direct::Relower>>,
    name: String,
    device_type: String,
    timings: Timings,
    declare: DeclaredGlobals,
    /// Fortran programs: the procedures' interfaces and the main program.
    fortran: Option<crate::FortranInfo>,
}

/// What a program keeps of its compilation besides the code.
pub(crate) struct Lowered {
    pub sm: SourceMap,
    pub module: Module,
    /// What the compiler made of the compute regions and loops (`report.rs`).
    pub report: crate::Report,
}

/// What a program needs to know of an IR global once its code is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GlobalFacts {
    pub declare: Declare,
    /// Its size (`accjit_ir::size_of`).
    pub bytes: u64,
}

/// A global's `declare` directive, as far as running the program goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Declare {
    None,
    /// `declare link`: the device copy is the global's device symbol.
    Link,
    /// Any other `declare` clause: entered by `__accjit_declare_init`.
    Entered,
}

impl GlobalFacts {
    /// The facts of every global of the lowered `m`.
    pub fn of(m: &Module) -> Vec<GlobalFacts> {
        m.globals
            .iter()
            .map(|g| GlobalFacts {
                declare: match g.declare.as_ref().map(|d| d.kind) {
                    None => Declare::None,
                    Some(accjit_ir::DataClauseKind::Link) => Declare::Link,
                    Some(_) => Declare::Entered,
                },
                bytes: accjit_ir::size_of(&g.ty, &m.structs),
            })
            .collect()
    }
}

/// The `declare`d globals of a program and whether they were entered.
struct DeclaredGlobals {
    init: Option<Trampoline>,
    /// 0 not entered, 1 entering, 2 entered.
    state: AtomicU8,
    /// `&'static Device` the globals were entered on (0: none yet).
    device: AtomicUsize,
    /// (host address, bytes) of each declared global.
    globals: Vec<(usize, usize)>,
}

// SAFETY: after finalisation the native code and the IR are immutable; the
// Cranelift JIT module inside `CompiledModule` is only touched again when the
// program is dropped (by whichever thread drops the last `Arc`). Kernel slots
// are the runtime's and are designed to be shared by launching threads.
unsafe impl Send for Program {}
unsafe impl Sync for Program {}

impl Program {
    pub(crate) fn new(
        name: String,
        device_type: String,
        sm: SourceMap,
        module: Module,
        slots: Vec<rt::Slot>,
        compiled: CompiledModule,
        timings: Timings,
    ) -> Program {
        let functions = functions_of(&compiled, &module);
        let declare = DeclaredGlobals::new(&compiled, &GlobalFacts::of(&module));
        let lowered = OnceLock::from(Lowered { sm, module, report: crate::Report::default() });
        Program { compiled, slots, functions, lowered, relower: None, name, device_type, timings, declare, fortran: None }
    }

    /// A program whose code was loaded without its IR (`direct.rs`): its
    /// exported `functions`, and the `globals` of its module; `relower`
    /// makes the source map, IR and report when they are asked for.
    pub(crate) fn without_ir(
        device_type: String,
        slots: Vec<rt::Slot>,
        compiled: CompiledModule,
        timings: Timings,
        functions: Vec<FunctionInfo>,
        globals: &[GlobalFacts],
        relower: crate::direct::Relower,
    ) -> Program {
        let declare = DeclaredGlobals::new(&compiled, globals);
        Program {
            compiled,
            slots,
            functions,
            lowered: OnceLock::new(),
            name: relower.name().to_string(),
            relower: Some(Box::new(relower)),
            device_type,
            timings,
            declare,
            fortran: None,
        }
    }

    fn lowered(&self) -> &Lowered {
        self.lowered.get_or_init(|| crate::direct::relowered(self.relower.as_deref(), &self.device_type))
    }

    fn lowered_mut(&mut self) -> &mut Lowered {
        self.lowered();
        self.lowered.get_mut().expect("made by lowered()")
    }

    pub(crate) fn set_report(&mut self, report: crate::Report) {
        self.lowered_mut().report = report;
    }

    pub(crate) fn report_mut(&mut self) -> &mut crate::Report {
        &mut self.lowered_mut().report
    }

    /// The compile report: each compute region with its clauses (implicit
    /// ones with the reason), each loop with the levels it runs on and why.
    pub fn report(&self) -> &crate::Report {
        &self.lowered().report
    }

    pub(crate) fn set_fortran(&mut self, info: crate::FortranInfo) {
        self.fortran = Some(info);
    }

    /// The Fortran view of a program compiled from Fortran.
    pub fn fortran(&self) -> Option<&crate::FortranInfo> {
        self.fortran.as_ref()
    }

    /// The function `run_main` runs: `main`, or a Fortran main program's.
    pub fn main_name(&self) -> &str {
        self.fortran.as_ref().and_then(|f| f.main.as_deref()).unwrap_or("main")
    }

    /// Enters the program's `declare`d globals on the current device, once,
    /// before any of its functions runs (later calls return at once). Call
    /// it on the thread that then calls into the program: a runtime error in
    /// it ends the program like any other (hosted: the caller gets it, and
    /// a later call tries again).
    pub fn prepare(&self) {
        let Some(init) = self.declare.init else { return };
        loop {
            match self.declare.state.compare_exchange(0, 1, AcqRel, Acquire) {
                Ok(_) => break,
                Err(2) => return,
                Err(_) => std::thread::yield_now(),
            }
        }
        let state = &self.declare.state as *const AtomicU8 as usize;
        // SAFETY: a hosted call that ends early keeps its `Arc<Program>`
        // forever (its thread parks), so the state outlives the cleanup.
        rt::on_early_end(Box::new(move || unsafe { (*(state as *const AtomicU8)).store(0, Release) }));
        let dev = rt::current_device().map_or(0, |d| d as *const _ as usize);
        let mut ret = [0u64; 2];
        // SAFETY: `void __accjit_declare_init(void)`: no arguments, no result.
        unsafe { init([].as_ptr(), ret.as_mut_ptr()) };
        rt::keep_references();
        self.declare.device.store(dev, Release);
        self.declare.state.store(2, Release);
    }

    /// The display name the source was compiled under.
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn device_type(&self) -> &str {
        &self.device_type
    }
    /// Signature and entry trampoline of exported function `name`.
    pub fn function(&self, name: &str) -> Option<(FuncSig, Trampoline)> {
        self.function_info(name).map(|f| (f.sig.clone(), f.trampoline))
    }
    pub fn function_info(&self, name: &str) -> Option<&FunctionInfo> {
        self.functions.iter().find(|f| f.name == name)
    }
    /// Every exported function, in definition order.
    pub fn functions(&self) -> &[FunctionInfo] {
        &self.functions
    }
    /// CLIF text of every function and kernel (empty unless compiled with `keep_clif`).
    pub fn clif(&self) -> &str {
        &self.compiled.clif
    }
    /// The lowered IR as text.
    pub fn ir_text(&self) -> String {
        crate::ir_text(&self.lowered().module)
    }
    pub fn module(&self) -> &Module {
        &self.lowered().module
    }
    pub fn source_map(&self) -> &SourceMap {
        &self.lowered().sm
    }
    pub fn timings(&self) -> Timings {
        self.timings
    }
    pub fn kernel_count(&self) -> usize {
        self.slots.len()
    }
}

/// The exported functions of `compiled`, as callers see them (`module`'s
/// parameter names and C types).
fn functions_of(compiled: &CompiledModule, module: &Module) -> Vec<FunctionInfo> {
    let mut functions = Vec::new();
    for cf in compiled.functions.iter().filter(|f| !f.name.starts_with("__accjit_")) {
        let (params, ret) = match module.functions.iter().find(|f| f.name == cf.name) {
            Some(f) => (ctype::params_of(f, &module.structs), ctype::type_name(&f.sig.ret, &module.structs)),
            None => {
                let ps = cf
                    .sig
                    .params
                    .iter()
                    .enumerate()
                    .map(|(i, t)| ParamInfo { name: format!("arg{i}"), ty: t.clone(), ctype: ctype::type_name(t, &module.structs), const_pointee: None })
                    .collect();
                (ps, ctype::type_name(&cf.sig.ret, &module.structs))
            }
        };
        functions.push(FunctionInfo { name: cf.name.clone(), sig: cf.sig.clone(), params, ret_ctype: ret, trampoline: cf.trampoline });
    }
    functions
}

impl DeclaredGlobals {
    /// The globals of `globals` (facts of each IR global) that a `declare`
    /// enters, at their addresses in `compiled`.
    fn new(compiled: &CompiledModule, globals: &[GlobalFacts]) -> DeclaredGlobals {
        DeclaredGlobals {
            init: compiled.function(accjit_lower::DECLARE_INIT).map(|f| f.trampoline),
            state: AtomicU8::new(0),
            device: AtomicUsize::new(0),
            globals: globals
                .iter()
                .enumerate()
                .filter(|(_, g)| g.declare == Declare::Entered)
                .filter_map(|(i, g)| {
                    let addr = compiled.globals.get(i).copied().filter(|a| *a != 0)?;
                    Some((addr, g.bytes as usize))
                })
                .collect(),
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // Async launches of this program may still be queued; its code must
        // outlive them. (Fields drop after this: code, then slots.)
        if !self.slots.is_empty() {
            rt::drain_queues();
        }
        // The declared globals' memory goes with the code: leave the present table.
        if self.declare.state.load(Acquire) == 2 {
            let dev = self.declare.device.load(Acquire);
            if dev != 0 {
                // SAFETY: devices are statics of the runtime.
                let dev = unsafe { &*(dev as *const accjit_runtime::device::Device) };
                for &(addr, bytes) in &self.declare.globals {
                    rt::release_declared(dev, addr, bytes);
                }
            }
        }
    }
}

/// Why `run_main` could not start the program.
#[derive(Clone, Debug, PartialEq)]
pub struct RunError(pub String);

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

extern "C" {
    fn fflush(stream: *mut std::ffi::c_void) -> i32;
}

/// Calls the program's `main` with `argv` (`argv[0]` is the program name) and
/// returns its result. Accepted forms: `int main(void)`, `int main(int, char **)`,
/// `int main(int, char **, char **)` (the environment) and `void main(...)`
/// (returns 0). The program's `declare`d globals are entered first
/// ([`Program::prepare`]). When `main` returns, async queues are drained
/// (`accjit_runtime::program_finished`) and C stdio is flushed. A call to
/// `exit()` in the program ends the whole process, as it would for a C
/// program — unless the calling thread is hosted (`accjit_runtime::hosted`),
/// where it ends only the program and the host gets the outcome.
pub fn run_main(program: &Program, argv: &[String]) -> Result<i32, RunError> {
    let main = program.main_name();
    let what = if program.fortran().is_some() { "main program" } else { "function 'main'" };
    let f = program.function_info(main).ok_or_else(|| RunError(format!("{}: no {what} to run", program.name())))?;
    let nparams = f.sig.params.len();
    if ![0, 2, 3].contains(&nparams) {
        return Err(RunError(format!("{}: main must take (void), (int, char **) or (int, char **, char **); it is {}", program.name(), f.signature())));
    }
    let to_c = |s: &String| CString::new(s.replace('\0', "")).unwrap_or_default();
    let args: Vec<CString> = argv.iter().map(to_c).collect();
    let mut argv_ptrs: Vec<*const i8> = args.iter().map(|c| c.as_ptr()).collect();
    argv_ptrs.push(std::ptr::null());
    let env: Vec<CString> = std::env::vars_os().filter_map(|(k, v)| CString::new(format!("{}={}", k.to_string_lossy(), v.to_string_lossy())).ok()).collect();
    let mut env_ptrs: Vec<*const i8> = env.iter().map(|c| c.as_ptr()).collect();
    env_ptrs.push(std::ptr::null());
    let call_args: [u64; 3] = [args.len() as u64, argv_ptrs.as_ptr() as u64, env_ptrs.as_ptr() as u64];
    let mut ret = [0u64; 2];
    // Fortran's get_command_argument reads it from the runtime
    accjit_runtime::fortran::intrinsics::set_command_line(argv);
    program.prepare();
    // SAFETY: the trampoline reads `nparams` slots of `call_args` and writes
    // `ret[0]`; argv/envp and their strings outlive the call.
    unsafe {
        (f.trampoline)(call_args.as_ptr(), ret.as_mut_ptr());
    }
    // Async work still queued finishes before the program counts as done.
    crate::rt::program_finished();
    // SAFETY: fflush(NULL) flushes every C stdio stream.
    unsafe {
        fflush(std::ptr::null_mut());
    }
    Ok(match f.sig.ret {
        accjit_ir::Type::Void => 0,
        _ => ret[0] as u32 as i32,
    })
}

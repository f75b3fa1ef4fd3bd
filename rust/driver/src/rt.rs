//! The driver's only contact with the runtime crate: kernel slots and the
//! symbol table the JIT linker binds. Kept in one file so that the rest of the
//! driver does not change when the runtime's Rust API does.

use accjit_ir::{ComputeKind, Kernel, ParamKind};
use accjit_runtime::consts;

/// A runtime kernel slot owned by a [`crate::Program`]. Its address is baked
/// into generated launch code, so it must outlive the compiled code (the
/// program drops its code first).
pub struct Slot {
    inner: Box<accjit_runtime::KernelSlot>,
}

/// What a kernel's runtime slot is made from: the kernel's name, the kind
/// (`accjit_runtime::PARAM_*`) and name of each parameter, its `num_gangs`
/// bound, whether only gang loops partition it and its construct
/// (`acc_construct_*`). Read off the lowered IR, or kept on disk beside the
/// program's code (`direct.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelSpec {
    pub name: String,
    pub kinds: Vec<u8>,
    pub param_names: Vec<String>,
    pub max_gangs: Option<u64>,
    pub splittable: bool,
    pub construct: i32,
}

impl KernelSpec {
    pub fn of(kernel: &Kernel) -> KernelSpec {
        let kinds = kernel
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Value => accjit_runtime::PARAM_VALUE,
                ParamKind::DeviceAddr => accjit_runtime::PARAM_DEVICE_ADDR,
                ParamKind::Snapshot => accjit_runtime::PARAM_SNAPSHOT,
            })
            .collect();
        KernelSpec {
            name: kernel.name.clone(),
            kinds,
            param_names: kernel.params.iter().map(|p| p.name.clone()).collect(),
            max_gangs: kernel.max_gangs,
            splittable: kernel.only_gang_loops(),
            construct: match kernel.construct {
                ComputeKind::Kernels => consts::acc_construct_kernels,
                ComputeKind::Parallel => consts::acc_construct_parallel,
                ComputeKind::Serial => consts::acc_construct_serial,
            },
        }
    }
}

impl Slot {
    /// A slot for `kernel`, created before code generation.
    pub fn for_kernel(kernel: &Kernel) -> Slot {
        Slot::new(&KernelSpec::of(kernel))
    }

    /// A slot made from `spec`.
    pub fn new(spec: &KernelSpec) -> Slot {
        let inner = accjit_runtime::KernelSlot::new(spec.name.clone(), spec.kinds.clone(), spec.max_gangs);
        inner.set_param_names(spec.param_names.clone());
        inner.set_splittable(spec.splittable);
        inner.set_construct(spec.construct);
        Slot { inner }
    }

    /// The address generated code passes to `__accjit_launch`.
    pub fn addr(&self) -> usize {
        self.inner.addr()
    }

    /// Install the kernel's PTX form: its entry in the program's `module`
    /// (shared by the program's slots) and the launch facts of the PTX back end.
    pub fn set_ptx(&self, module: &std::sync::Arc<accjit_runtime::PtxModuleText>, k: &crate::gpu::PtxKernel) {
        self.inner.set_ptx(
            accjit_runtime::PtxForm::new(
                module.clone(),
                k.entry.clone(),
                k.param_bytes.clone(),
                k.vector,
                k.workers,
                k.max_gangs,
                k.gang_dims,
                k.default_gangs,
            )
            .ending_program(k.ends_program),
        );
    }

    /// Install the compiled multicore kernel `void k(const u64 *args, i64
    /// gang, i64 num_gangs)`, and whether its gangs may run on any thread.
    pub fn set_host_fn(&self, addr: usize, any_thread: bool) {
        self.inner.set_host_fn(addr);
        self.inner.set_any_thread(any_thread);
    }
}

/// A program's PTX module for the runtime: the text, and for each global
/// the module defines, its symbol, host address, size and whether it has a
/// `declare` (then the symbol becomes its device copy).
pub fn ptx_module(text: String, globals: Vec<accjit_runtime::PtxGlobalRef>) -> std::sync::Arc<accjit_runtime::PtxModuleText> {
    accjit_runtime::PtxModuleText::new(text, globals)
}

pub use accjit_runtime::PtxGlobalRef;

/// Gets the kernels of `module` ready on the current nvidia device ahead of
/// their first launch, when that device is open (runtime's `nvidia::preload`).
pub fn preload(module: &std::sync::Arc<accjit_runtime::PtxModuleText>, kernels: &[crate::gpu::PtxKernel]) {
    // The thread needs no join: a launch waits for the load it started.
    let _ = accjit_runtime::nvidia::preload(module, kernels.iter().map(|k| (k.entry.clone(), k.vector.max(1) * k.workers.max(1))).collect());
}

/// Runtime symbols (`__accjit_*`, `acc_*`) for the JIT linker, and the
/// runtime's `exit`/`_Exit`/`_exit`/`abort`, which the linker must take
/// ahead of libc's (`dlsym`): a program hosted by Python ends without ending
/// the process. Built once per process (the addresses are fixed); each
/// compilation shares it.
pub fn symbols() -> accjit_back_clif::Symbols {
    static TABLE: std::sync::OnceLock<accjit_back_clif::Symbols> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| {
            let mut s = accjit_runtime::symbols();
            s.extend(accjit_runtime::libc_overrides());
            s.into()
        })
        .clone()
}

/// `main` returned: drain every async queue, emit the runtime-shutdown
/// event. An async task that ended the program ends it now (through
/// `fatal`: hosted, the caller gets the error).
pub fn program_finished() {
    if let Err(e) = accjit_runtime::program_finished() {
        accjit_runtime::fatal(&e);
    }
}

/// Waits until no async work is queued on any device (before code that
/// queued work may be freed). Failures of async tasks are not reported here.
pub fn drain_queues() {
    for d in accjit_runtime::device::all_devices() {
        let _ = d.queues.wait_all(None);
    }
}

/// The device that data entered now goes to (for the later teardown).
pub fn current_device() -> Option<&'static accjit_runtime::device::Device> {
    accjit_runtime::device::current_device().ok()
}

/// A hosted call that ends early runs `f` first (see `accjit_runtime::hosted`).
pub fn on_early_end(f: Box<dyn FnOnce()>) {
    accjit_runtime::hosted::push_cleanup(f);
}

/// The call went on normally: drop the latest [`on_early_end`] action and
/// keep the structured references taken so far (they outlive the call).
pub fn keep_references() {
    accjit_runtime::hosted::pop_cleanup();
    accjit_runtime::hosted::commit();
}

/// Removes one `declare`d global from the present table when its memory
/// goes away: the structured exit of its declare, then (if `enter data`
/// still holds it) a finalizing dynamic exit; no copy back.
pub fn release_declared(dev: &'static accjit_runtime::device::Device, addr: usize, bytes: usize) {
    use accjit_runtime::data::{exit, flags, Ctx};
    let ctx = Ctx::directive(None, None, consts::acc_construct_data);
    let (create, sync) = (accjit_runtime::Clause::Create, consts::acc_async_sync);
    let _ = exit(dev, create, addr, bytes, flags::STRUCTURED, sync, ctx);
    let _ = exit(dev, create, addr, bytes, flags::FINALIZE, sync, ctx);
}

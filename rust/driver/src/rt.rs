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

impl Slot {
    /// A slot for `kernel`, created before code generation.
    pub fn for_kernel(kernel: &Kernel) -> Slot {
        let kinds: Vec<u8> = kernel
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Value => accjit_runtime::PARAM_VALUE,
                ParamKind::DeviceAddr => accjit_runtime::PARAM_DEVICE_ADDR,
            })
            .collect();
        let inner = accjit_runtime::KernelSlot::new(kernel.name.clone(), kinds, kernel.max_gangs);
        inner.set_construct(match kernel.construct {
            ComputeKind::Kernels => consts::acc_construct_kernels,
            ComputeKind::Parallel => consts::acc_construct_parallel,
            ComputeKind::Serial => consts::acc_construct_serial,
        });
        Slot { inner }
    }

    /// The address generated code passes to `__accjit_launch`.
    pub fn addr(&self) -> usize {
        self.inner.addr()
    }

    /// Install the compiled multicore kernel `void k(const u64 *args, i64 gang, i64 num_gangs)`.
    pub fn set_host_fn(&self, addr: usize) {
        self.inner.set_host_fn(addr);
    }
}

/// Runtime symbols (`__accjit_*`, `acc_*`) for the JIT linker.
pub fn symbols() -> Vec<(String, usize)> {
    accjit_runtime::symbols()
}

/// `main` returned: drain every async queue, emit the runtime-shutdown event.
pub fn program_finished() {
    accjit_runtime::program_finished();
}

/// Waits until no async work is queued on any device (before code that
/// queued work may be freed).
pub fn drain_queues() {
    for d in accjit_runtime::device::all_devices() {
        d.queues.wait_all(None);
    }
}

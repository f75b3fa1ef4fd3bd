//! Kernel launches: [`KernelSlot`] (one per outlined kernel, created before
//! code generation so that generated code can embed its address) and
//! [`launch`], which `__accjit_launch` calls.
//!
//! A slot holds one compiled form per kind of device: the native (Cranelift)
//! `KernelFn` that the host and multicore devices run, and — for programs
//! compiled for nvidia — a [`PtxForm`] (the program's PTX module, shared by
//! its slots, with the kernel's entry and launch facts). A launch resolves
//! the queue and the current device and hands the rest to the device's
//! `compute::Compute` (gang count, argument translation, `wait` clause,
//! running or enqueueing). `if(false)`/`self` (flag bit 0) runs the native
//! form on the calling thread whatever the device: the one host fallback
//! per kernel (issue 9 A.7).

use crate::consts::*;
use crate::device;
use crate::error::{AccError, AccResult};
use crate::queue;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex, OnceLock};

/// Native kernel entry: `void k(const uint64_t *args, int64_t gang, int64_t num_gangs)`.
pub type KernelFn = unsafe extern "C" fn(*const u64, i64, i64);

/// Default gangs per pool thread of a kernel whose work is all in gang
/// loops: each thread owns that many consecutive gangs (the static share it
/// would have had as one gang) and a thread that finishes early takes over
/// the remaining gangs of a slower one (see `pool`), so a busy core or a
/// slower path to memory no longer holds up the whole launch.
pub const GANGS_PER_THREAD: u64 = 4;

/// Parameter kind codes of [`KernelSlot::new`].
pub const PARAM_VALUE: u8 = 0;
pub const PARAM_DEVICE_ADDR: u8 = 1;
/// A device address (translated like [`PARAM_DEVICE_ADDR`]) of data the
/// kernel copies from, whose byte count is the next argument: an
/// asynchronous launch on a shared-memory device passes a copy taken when it
/// is enqueued (firstprivate values are those at the construct).
pub const PARAM_SNAPSHOT: u8 = 2;

/// A host global that a PTX module defines as a device symbol (issue 9
/// A.6): once the module is loaded on a device, the symbol is the device
/// copy of the host global in that device's present table.
#[derive(Clone, Debug)]
pub struct PtxGlobalRef {
    /// The `.global` symbol's name in the module.
    pub symbol: String,
    /// The host global's address (the program's JIT data).
    pub host: usize,
    pub bytes: usize,
    /// The global has a `declare` (create, copyin, device_resident): the
    /// symbol is entered in the present table as its device copy. Other
    /// globals that device code names only get their initial bytes.
    pub declared: bool,
    /// The global has `declare link`: the symbol is where its device copy
    /// lives whenever a data clause makes it (or a section) present.
    pub link: bool,
}

/// A program's PTX module, shared by the slots of its kernels; loaded once
/// per device (and again after the device recovers from a fault).
pub struct PtxModuleText {
    pub text: String,
    pub globals: Vec<PtxGlobalRef>,
    /// What each device made of it (see `nvidia.rs`): keyed by the device's
    /// ordinal and generation.
    pub(crate) loaded: Mutex<Vec<crate::nvidia::Loaded>>,
}

impl Drop for PtxModuleText {
    fn drop(&mut self) {
        crate::nvidia::unbind_globals(self);
    }
}

impl PtxModuleText {
    pub fn new(text: String, globals: Vec<PtxGlobalRef>) -> Arc<PtxModuleText> {
        Arc::new(PtxModuleText { text, globals, loaded: Mutex::new(Vec::new()) })
    }
}

/// The PTX form of one kernel (CONTRACT9.md, "Kernel ABI on the GPU").
pub struct PtxForm {
    pub module: Arc<PtxModuleText>,
    /// The `.entry` name.
    pub entry: String,
    /// Per parameter: 0 = a u64 slot, n = a by-value aggregate of n bytes
    /// copied from the host address the argument holds.
    pub param_bytes: Vec<u32>,
    /// Default blockDim.x (vector lanes) and blockDim.y (workers).
    pub vector: u32,
    pub workers: u32,
    /// Most useful gangs (1 for serial).
    pub max_gangs: Option<u64>,
    /// Gang grid dimensions (1..=3).
    pub gang_dims: u8,
    /// Suggested grid size when `num_gangs` is absent.
    pub default_gangs: Option<u64>,
    /// Some parameter is a by-value aggregate (`param_bytes` not all 0):
    /// the launch packs only then.
    pub(crate) has_aggregates: bool,
    /// The kernel may end the program (`exit`, `abort`, a failed `assert`
    /// in device code): each launch is completed and the module's
    /// `accjit_abi::device_end` record read (see `nvidia.rs`).
    pub ends_program: bool,
    /// Set by [`KernelSlot::set_ptx`]: some parameter is a
    /// [`PARAM_SNAPSHOT`] (staged in device memory per launch).
    pub(crate) has_snapshots: bool,
    /// The loaded function per (device ordinal, generation).
    pub(crate) functions: Mutex<Vec<crate::nvidia::LoadedFn>>,
    /// Blocks that fill the device, per (device ordinal, generation, block
    /// size): the occupancy query is a driver call, not for every launch.
    pub(crate) fills: Mutex<Vec<(usize, u64, u32, u64)>>,
}

impl PtxForm {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        module: Arc<PtxModuleText>,
        entry: String,
        param_bytes: Vec<u32>,
        vector: u32,
        workers: u32,
        max_gangs: Option<u64>,
        gang_dims: u8,
        default_gangs: Option<u64>,
    ) -> PtxForm {
        let has_aggregates = param_bytes.iter().any(|&b| b > 0);
        PtxForm {
            module,
            entry,
            param_bytes,
            vector,
            workers,
            max_gangs,
            gang_dims,
            default_gangs,
            has_aggregates,
            has_snapshots: true,
            ends_program: false,
            functions: Mutex::new(Vec::new()),
            fills: Mutex::new(Vec::new()),
        }
    }
}

impl PtxForm {
    /// The same form, saying whether the kernel may end the program
    /// (`accjit_back_ptx::PtxKernel::ends_program`).
    pub fn ending_program(mut self, yes: bool) -> PtxForm {
        self.ends_program = yes;
        self
    }
}

/// The runtime's record of one kernel. Boxed, so its address is stable for
/// the life of the box: code generation embeds `&*slot as *const _ as usize`
/// and passes it to `__accjit_launch`.
#[repr(C)]
pub struct KernelSlot {
    host_fn: AtomicUsize,
    construct: AtomicI32,
    /// The native kernel can neither end the program nor need a big stack:
    /// its gangs may run on any thread, a pool guest's too (`pool::Guest`).
    any_thread: AtomicBool,
    /// All of the kernel's work is in gang loops: more gangs than threads
    /// add no work, and the default gang count is [`GANGS_PER_THREAD`] per thread.
    splittable: AtomicBool,
    pub name: String,
    /// One per parameter: [`PARAM_VALUE`], [`PARAM_DEVICE_ADDR`] or [`PARAM_SNAPSHOT`].
    pub param_kinds: Vec<u8>,
    /// Upper bound on useful gangs, if known (1 for `serial`).
    pub max_gangs: Option<u64>,
    /// The variables the parameters stand for (messages).
    param_names: OnceLock<Vec<String>>,
    /// The GPU form, for programs compiled for nvidia.
    ptx: OnceLock<PtxForm>,
}

impl KernelSlot {
    pub fn new(name: String, param_kinds: Vec<u8>, max_gangs: Option<u64>) -> Box<KernelSlot> {
        Box::new(KernelSlot {
            host_fn: AtomicUsize::new(0),
            construct: AtomicI32::new(acc_construct_parallel),
            any_thread: AtomicBool::new(false),
            splittable: AtomicBool::new(false),
            name,
            param_kinds,
            max_gangs,
            param_names: OnceLock::new(),
            ptx: OnceLock::new(),
        })
    }

    /// The native kernel, if installed.
    pub fn native_fn(&self) -> Option<KernelFn> {
        match self.host_fn.load(Acquire) {
            0 => None,
            // SAFETY: set_host_fn stores the address of a `KernelFn`.
            a => Some(unsafe { std::mem::transmute::<usize, KernelFn>(a) }),
        }
    }

    pub fn is_splittable(&self) -> bool {
        self.splittable.load(Acquire)
    }

    pub fn is_any_thread(&self) -> bool {
        self.any_thread.load(Acquire)
    }

    pub fn construct(&self) -> i32 {
        self.construct.load(Relaxed)
    }

    /// Names the variables the parameters stand for (error messages).
    pub fn set_param_names(&self, names: Vec<String>) {
        let _ = self.param_names.set(names);
    }

    /// The variable parameter `i` stands for (`p<i>` when unnamed).
    pub fn param_name(&self, i: usize) -> String {
        self.param_name_ref(i).map_or_else(|| format!("p{i}"), str::to_string)
    }

    /// The variable parameter `i` stands for, if named.
    pub fn param_name_ref(&self, i: usize) -> Option<&str> {
        self.param_names.get().and_then(|n| n.get(i)).map(String::as_str)
    }

    /// Installs the PTX form (once).
    pub fn set_ptx(&self, mut form: PtxForm) {
        form.has_snapshots = self.param_kinds.contains(&PARAM_SNAPSHOT);
        let _ = self.ptx.set(form);
    }

    pub fn ptx(&self) -> Option<&PtxForm> {
        self.ptx.get()
    }

    /// Sets the native `KernelFn` address (multicore/host code).
    pub fn set_host_fn(&self, addr: usize) {
        self.host_fn.store(addr, Release);
    }

    pub fn host_fn(&self) -> usize {
        self.host_fn.load(Acquire)
    }

    /// Declares that the native kernel's gangs may run on any thread (the
    /// back end's judgement: see `pool::Guest` for what that requires).
    pub fn set_any_thread(&self, yes: bool) {
        self.any_thread.store(yes, Release);
    }

    /// Declares that all of the kernel's work is partitioned over gangs (the
    /// lowering's `Kernel::only_gang_loops`), so that it may run with more
    /// gangs than threads.
    pub fn set_splittable(&self, yes: bool) {
        self.splittable.store(yes, Release);
    }

    /// The `acc_construct_*` reported to profilers (parallel by default).
    pub fn set_construct(&self, construct: i32) {
        self.construct.store(construct, Relaxed);
    }

    /// The address to embed in generated code.
    pub fn addr(&self) -> usize {
        self as *const KernelSlot as usize
    }
}

/// Launch parameters besides the arguments (see docs/runtime-abi.md).
#[derive(Clone, Debug)]
pub struct LaunchOpts<'a> {
    /// ≤ 0: device default.
    pub num_gangs: i64,
    pub num_workers: i64,
    pub vector_length: i64,
    pub async_: i64,
    /// `None`: no wait clause; `Some(&[])`: wait for all queues.
    pub wait: Option<&'a [i64]>,
    /// Run on the local thread (`if(false)`, `self`).
    pub local: bool,
    pub loc: Option<&'a str>,
}

impl Default for LaunchOpts<'_> {
    fn default() -> Self {
        LaunchOpts { num_gangs: 0, num_workers: 0, vector_length: 0, async_: acc_async_sync, wait: None, local: false, loc: None }
    }
}

/// The arguments of a queued launch, and the snapshots they point to.
pub(crate) struct SendArgs(Vec<u64>, Vec<Vec<u128>>);

impl SendArgs {
    pub(crate) fn new(args: Vec<u64>) -> SendArgs {
        SendArgs(args, vec![])
    }

    pub(crate) fn args(&self) -> *const u64 {
        self.0.as_ptr()
    }

    /// Replace every `PARAM_SNAPSHOT` argument by a copy of its bytes (16-byte aligned).
    pub(crate) fn take_snapshots(&mut self, kinds: &[u8]) {
        for (i, k) in kinds.iter().enumerate() {
            let (Some(&addr), Some(&bytes)) = (self.0.get(i), self.0.get(i + 1)) else { continue };
            if *k != PARAM_SNAPSHOT || addr == 0 || bytes as i64 <= 0 {
                continue;
            }
            let mut copy = vec![0u128; (bytes as usize).div_ceil(16)];
            // SAFETY: the construct's firstprivate section is `bytes` readable
            // bytes at `addr` (shared memory: the host's own data).
            unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, copy.as_mut_ptr() as *mut u8, bytes as usize) };
            self.0[i] = copy.as_ptr() as u64;
            self.1.push(copy);
        }
    }
}

/// Runs the kernel of `slot` with `args` (translated in place) on the
/// current device, or — `o.local` — its native form on the calling thread.
pub fn launch(slot: &KernelSlot, args: &mut [u64], o: &LaunchOpts) -> AccResult<()> {
    let with_loc = |e: AccError| e.with_loc(o.loc);
    let q = queue::resolve(o.async_).map_err(with_loc)?;
    let dev = device::current_device().map_err(with_loc)?;
    if o.local {
        let f = slot.native_fn().ok_or_else(|| with_loc(AccError::new(acc_error_other, format!("kernel {} has no host code", slot.name))))?;
        if let Some(w) = o.wait {
            queue::wait(dev, crate::compute::wait_list(w).as_deref(), acc_async_sync, o.loc, false).map_err(with_loc)?;
        }
        let n = if o.num_gangs > 0 { o.num_gangs } else { 1 };
        crate::compute::run_native(false, acc_device_host, f, args.as_ptr(), n, false);
        return Ok(());
    }
    dev.compute.launch(dev, slot, args, o, q).map_err(with_loc)
}

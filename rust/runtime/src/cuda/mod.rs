//! The CUDA layer: everything in the runtime that talks to the NVIDIA
//! driver (through cudarc's `sys` bindings, loaded at run time), behind a
//! small API the `nvidia` device is built on. Nothing here knows of the
//! present table, queues or kernels of the IR.
//!
//! - discovery and the per-device [`Gpu`] (this file): [`available`] and
//!   [`device_count`] never panic (no libcuda → false / 0); [`gpu`] opens a
//!   device's primary context on first use and keeps it for the process;
//!   [`prewarm`] does that (and loads the PTX JIT) on a background thread
//!   as soon as it is known that the GPU will be used; device attributes
//!   for `acc_get_property`; the context made current on the calling thread
//!   once (remembered per thread, so a launch makes no context call).
//! - `driver.rs`: library presence, `cuInit`, `CUresult` → `AccError`.
//! - `alloc.rs`: the caching device allocator; `memory.rs`: the
//!   [`crate::memory::Memory`] implementation over it ([`GpuMemory`]).
//! - `staging.rs`: host↔device copies of pageable memory through pinned
//!   staging buffers, pipelined in chunks, the host side in parallel.
//! - `stream.rs`: a stream per async queue, the sync queue's stream,
//!   events for stream-waits-stream.
//! - `module.rs` (with `cache.rs`, the disk cache): PTX → cubin → module,
//!   functions and globals of a module.
//! - `launch.rs`: kernel launch, faults, and [`Gpu::recover`] (a fresh
//!   primary context after a sticky error; [`Gpu::generation`] counts them,
//!   and everything of an older generation — modules, device addresses,
//!   streams — is invalid).

mod alloc;
pub mod cache;
mod driver;
mod launch;
mod memory;
mod module;
mod staging;
mod stream;

pub use alloc::PoolStats;
pub use cache::{CacheKey, CacheUsage, DiskCache};
pub use cudarc::driver::sys::CUdevice_attribute as Attr;
pub use driver::{driver_version, fork_error, forked_error, inherited, init_timings};
pub use launch::RECOVERY_STRATEGIES;
pub use memory::GpuMemory;
pub use module::{GpuFunction, GpuModule, LoadTimings, ModuleOrigin, RawFunction};
pub use staging::CopyTuning;

use crate::consts::*;
use crate::error::{AccError, AccResult};
use cudarc::driver::sys::{self, CUresult};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Mutex, OnceLock};

thread_local! {
    /// The context this layer last made current on this thread, with the
    /// generation of its device then: (context, generation). A launch on a
    /// thread whose context is already ours makes no context call at all.
    static CURRENT: Cell<(usize, u64)> = const { Cell::new((0, u64::MAX)) };
}

/// Forgets which context this thread has current (after code outside the
/// layer may have changed it: the next call into the layer sets it again).
pub fn forget_current_context() {
    CURRENT.with(|c| c.set((0, u64::MAX)));
}

/// With `ACCJIT_CUDA_TRACE` set (non-empty, not 0): one line on stderr per
/// costly step of the layer (device open, module load or compile, pinned
/// buffers, driver allocations), with its time — to see where the first
/// construct's time goes.
pub fn tracing() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("ACCJIT_CUDA_TRACE").is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// Each line starts with the CLOCK_MONOTONIC time in ms (Python's
/// `time.perf_counter()` on Linux), so that a script's own marks place the
/// steps; then the thread, as the prewarm runs beside the program.
pub(crate) fn trace(line: impl FnOnce() -> String) {
    if tracing() {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: a valid timespec to fill.
        unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
        let at = ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6;
        let thread = std::thread::current();
        eprintln!("accjit-cuda: [{at:.3} ms {}] {}", thread.name().unwrap_or("-"), line());
    }
}

/// Starts, on background threads, what the first use of nvidia device 0
/// costs: loading libcuda and `cuInit`, opening the device's context and
/// its sync stream, and meanwhile loading the driver's JIT library
/// (`libnvidia-ptxjitcompiler`); then, only when the program has not asked
/// for the device yet (it is still compiling), warming the JIT up (a link
/// of a trivial module). Idempotent and cheap after the
/// first call; [`gpu`] waits for the opening still running. Call it as soon
/// as it is known that a program will run on an NVIDIA GPU (before
/// compiling it), so the start-up overlaps the compilation. Nothing else
/// is done ahead: on the H100, pinning the staging buffers or compiling
/// beside the program's own first construct made it slower (the driver
/// serialises them).
pub fn prewarm() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        driver::note_use();
        // The driver's PTX JIT lives in a library of its own, loaded at the
        // first compile (tens of ms); loading it beside cuInit and the
        // context makes the driver's own dlopen find it in memory.
        let busy = PrewarmBusy::enter();
        let _ = std::thread::Builder::new().name("accjit-cuda-prewarm-jit".into()).spawn(move || {
            let _busy = busy;
            if EXITING.load(Acquire) {
                return;
            }
            let t0 = std::time::Instant::now();
            // Never closed: the driver uses it for the life of the process.
            let h = unsafe { libc::dlopen(c"libnvidia-ptxjitcompiler.so.1".as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL) };
            trace(|| format!("prewarm: JIT library {} in {:.1} ms", if h.is_null() { "not found" } else { "loaded" }, t0.elapsed().as_secs_f64() * 1e3));
        });
        let busy = PrewarmBusy::enter();
        let spawned = std::thread::Builder::new().name("accjit-cuda-prewarm".into()).spawn(move || {
            let _busy = busy;
            if EXITING.load(Acquire) {
                return;
            }
            let t0 = std::time::Instant::now();
            if let Ok(g) = gpu(0) {
                let _ = g.sync_stream_handle();
                if !WANTED.load(Acquire) && !EXITING.load(Acquire) {
                    g.warm_jit();
                }
                trace(|| format!("prewarm done in {:.1} ms", t0.elapsed().as_secs_f64() * 1e3));
            }
        });
        // No thread: the first use pays, as without prewarm.
        drop(spawned);
    });
}

/// Prewarm threads that may still be inside the driver (counted from
/// before they are spawned), and the condition [`settle_before_exit`]
/// waits on.
static PREWARM_BUSY: Mutex<usize> = Mutex::new(0);
static PREWARM_IDLE: std::sync::Condvar = std::sync::Condvar::new();
/// The process is ending: a prewarm thread not yet in the driver stays out.
static EXITING: AtomicBool = AtomicBool::new(false);

/// One prewarm thread's share of [`PREWARM_BUSY`], given back on drop
/// (also when the thread could not be spawned).
struct PrewarmBusy;

impl PrewarmBusy {
    fn enter() -> PrewarmBusy {
        *PREWARM_BUSY.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        PrewarmBusy
    }
}

impl Drop for PrewarmBusy {
    fn drop(&mut self) {
        let mut n = PREWARM_BUSY.lock().unwrap_or_else(|p| p.into_inner());
        *n = n.saturating_sub(1);
        PREWARM_IDLE.notify_all();
    }
}

/// Call before the process exits (`exit()` of a program, the end of the
/// Python interpreter): waits, at most `limit`, until no prewarm thread is
/// inside the driver, and keeps those that have not started out of it.
/// The driver's exit handlers (registered by `cuInit`, so they run before
/// any `atexit` handler of ours) tear the driver down; a prewarm thread
/// still in `cuInit`, the context creation or the JIT then crashes the
/// exiting process (seen once: fortran/050, a program with no construct,
/// ended while the prewarm was still warming the JIT). Returns at once
/// when no prewarm ever started.
pub fn settle_before_exit(limit: std::time::Duration) {
    EXITING.store(true, Release);
    if driver::inherited() {
        return; // the prewarm threads counted were the parent's (fork)
    }
    let n = PREWARM_BUSY.lock().unwrap_or_else(|p| p.into_inner());
    let _ = PREWARM_IDLE.wait_timeout_while(n, limit, |n| *n > 0);
}

/// A program asked for a device ([`gpu`] on a thread other than the
/// prewarm's): the prewarm does no more than open it.
static WANTED: AtomicBool = AtomicBool::new(false);

/// libcuda is present and `cuInit` succeeded. Never panics.
pub fn available() -> bool {
    driver::initialised()
}

/// The number of CUDA devices (0 when the driver is unavailable).
pub fn device_count() -> usize {
    static COUNT: OnceLock<usize> = OnceLock::new();
    if driver::inherited() {
        return 0;
    }
    *COUNT.get_or_init(|| {
        let mut n = 0;
        if available() && unsafe { sys::cuDeviceGetCount(&mut n) } == CUresult::CUDA_SUCCESS {
            n.max(0) as usize
        } else {
            0
        }
    })
}

/// The CUDA device that device memory at `ptr` belongs to (memory of any
/// allocator in the process: ours, CuPy's, PyTorch's; managed memory too):
/// `Some(ordinal)`, or `None` for host memory and unknown addresses. For
/// arrays handed over through `__cuda_array_interface__`/DLPack.
pub fn pointer_device(ptr: usize) -> Option<usize> {
    if !available() || ptr == 0 {
        return None;
    }
    let attr = |a: sys::CUpointer_attribute| {
        let mut v: std::ffi::c_uint = 0;
        let r = unsafe { sys::cuPointerGetAttribute((&mut v as *mut std::ffi::c_uint).cast(), a, ptr as sys::CUdeviceptr) };
        (r == CUresult::CUDA_SUCCESS).then_some(v)
    };
    let kind = attr(sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE)?;
    let managed = attr(sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_IS_MANAGED).unwrap_or(0) != 0;
    if kind != sys::CUmemorytype::CU_MEMORYTYPE_DEVICE as std::ffi::c_uint && !managed {
        return None;
    }
    attr(sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL).map(|o| o as usize)
}

/// Device `ordinal`, its primary context opened on the first call.
/// Errors: `acc_error_device_unavailable` naming the ordinal (no such
/// device, no driver, or the context cannot be created; a later call tries
/// again).
pub fn gpu(ordinal: usize) -> AccResult<&'static Gpu> {
    driver::usable_here()?;
    if !WANTED.load(Relaxed) && std::thread::current().name() != Some("accjit-cuda-prewarm") {
        WANTED.store(true, Release);
    }
    static OPENING: Mutex<()> = Mutex::new(());
    let slots = gpu_slots();
    let slot = slots.get(ordinal).ok_or_else(|| {
        AccError::new(
            acc_error_device_unavailable,
            format!("nvidia device {ordinal} is not available ({} CUDA device(s){})", slots.len(), if available() { "" } else { ": no CUDA driver" }),
        )
    })?;
    if let Some(g) = slot.get() {
        return Ok(g);
    }
    let _opening = OPENING.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(g) = slot.get() {
        return Ok(g);
    }
    let t0 = std::time::Instant::now();
    let g: &'static Gpu = Box::leak(Box::new(Gpu::open(ordinal)?));
    trace(|| {
        let init = init_timings().map(|(l, s, i)| format!(" (earlier: libcuda {:.1} ms, cuInit {:.1} ms)", (l + s).as_secs_f64() * 1e3, i.as_secs_f64() * 1e3));
        format!("device {ordinal} opened in {:.1} ms{}", t0.elapsed().as_secs_f64() * 1e3, init.unwrap_or_default())
    });
    ahead_queue();
    Ok(*slot.get_or_init(|| g))
}

/// Work done ahead of need (`nvidia::preload`).
pub(crate) type AheadJob = Box<dyn FnOnce() + Send>;

/// The queue of the layer's thread for work done ahead of need, started
/// when a device first opens: handing it a job then costs a queue push on
/// the program's thread, not a thread spawn (tens of µs on a VM), which
/// would land in the first call it is meant to shorten. `None` when the
/// thread could not be started.
fn ahead_queue() -> Option<&'static std::sync::mpsc::Sender<AheadJob>> {
    static QUEUE: OnceLock<Option<std::sync::mpsc::Sender<AheadJob>>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (tx, rx) = std::sync::mpsc::channel::<AheadJob>();
            let spawned = std::thread::Builder::new().name("accjit-cuda-ahead".into()).spawn(move || {
                for job in rx {
                    job();
                }
            });
            spawned.ok().map(|_| tx)
        })
        .as_ref()
}

/// Runs `job` on the layer's thread for work done ahead of need; `false`
/// when there is none (the job is dropped: the work is then done when
/// needed). Like a prewarm thread, a queued job keeps the process's exit
/// waiting ([`settle_before_exit`]) and does not start once it is ending.
pub(crate) fn ahead(job: AheadJob) -> bool {
    let Some(q) = ahead_queue() else { return false };
    let busy = PrewarmBusy::enter();
    let job: AheadJob = Box::new(move || {
        let _busy = busy;
        if !EXITING.load(Acquire) {
            job();
        }
    });
    q.send(job).is_ok()
}

/// The opened devices, by ordinal ([`gpu`] opens them).
fn gpu_slots() -> &'static [OnceLock<&'static Gpu>] {
    static SLOTS: OnceLock<Vec<OnceLock<&'static Gpu>>> = OnceLock::new();
    SLOTS.get_or_init(|| (0..device_count()).map(|_| OnceLock::new()).collect())
}

/// Device `ordinal` when it is open already; never opens it (nor waits for
/// an opening in progress).
pub fn opened(ordinal: usize) -> Option<&'static Gpu> {
    if !driver::initialised_already() {
        return None;
    }
    gpu_slots().get(ordinal).and_then(|s| s.get().copied())
}

/// One CUDA device with its primary context, for the life of the process.
pub struct Gpu {
    ordinal: usize,
    dev: sys::CUdevice,
    name: String,
    cc: (u32, u32),
    sm_count: u32,
    total_memory: usize,
    /// The context (`CUcontext`): the primary context, or after a
    /// [`Gpu::recover`] that could not reuse it, one of our own.
    ctx: AtomicUsize,
    /// `ctx` is a context this layer created (`cuCtxCreate`), not the
    /// primary context.
    own_ctx: AtomicBool,
    /// We hold a reference to the primary context (released by a recovery).
    primary_held: AtomicBool,
    /// How the last recovery went ([`Gpu::last_recovery`]).
    last_recovery: Mutex<String>,
    /// Recovery failed: every call fails with this message.
    lost: OnceLock<String>,
    /// The CUDA error name of the fault that poisoned the context.
    fault: Mutex<String>,
    /// Bumped by every [`Gpu::recover`].
    generation: AtomicU64,
    /// A sticky error (kernel fault) was seen: the context is unusable
    /// until [`Gpu::recover`].
    poisoned: AtomicBool,
    /// The first error of an operation that cannot return one (the
    /// `Memory` trait's copies and frees), until [`Gpu::take_error`].
    pending: Mutex<Option<AccError>>,
    /// `pending` holds an error.
    has_pending: AtomicBool,
    /// Held by [`Gpu::recover`] while it swaps the context.
    resetting: Mutex<()>,
    pub(crate) pool: alloc::CachingAllocator,
    pub(crate) staging: staging::Staging,
    pub(crate) streams: stream::Streams,
    pub(crate) modules: module::Modules,
}

// SAFETY: the driver handles kept (context, device) are process-wide and
// the driver API is thread-safe; all mutable state is behind atomics/mutexes.
unsafe impl Send for Gpu {}
unsafe impl Sync for Gpu {}

fn unavailable(ordinal: usize, e: AccError) -> AccError {
    AccError::new(acc_error_device_unavailable, format!("nvidia device {ordinal} cannot be opened: {}", e.message))
}

impl Gpu {
    fn open(ordinal: usize) -> AccResult<Gpu> {
        let mut dev: sys::CUdevice = 0;
        driver::check(unsafe { sys::cuDeviceGet(&mut dev, ordinal as i32) }, "cuDeviceGet").map_err(|e| unavailable(ordinal, e))?;
        let attr = |a: Attr| {
            let mut v = 0;
            let r = unsafe { sys::cuDeviceGetAttribute(&mut v, a, dev) };
            if r == CUresult::CUDA_SUCCESS {
                v.max(0) as u32
            } else {
                0
            }
        };
        let mut buf = [0 as std::ffi::c_char; 256];
        let name = if unsafe { sys::cuDeviceGetName(buf.as_mut_ptr(), buf.len() as i32, dev) } == CUresult::CUDA_SUCCESS {
            unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned()
        } else {
            format!("CUDA device {ordinal}")
        };
        let mut total_memory = 0usize;
        let _ = unsafe { sys::cuDeviceTotalMem_v2(&mut total_memory, dev) };
        // A synchronous wait spins rather than sleeping (the wake-up of a
        // blocking wait costs more than a small kernel); only when no one
        // (CuPy, PyTorch) has opened the primary context with flags of their own.
        let (mut flags, mut active) = (0u32, 0i32);
        if unsafe { sys::cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active) } == CUresult::CUDA_SUCCESS && active == 0 {
            let _ = unsafe { sys::cuDevicePrimaryCtxSetFlags_v2(dev, sys::CUctx_flags::CU_CTX_SCHED_SPIN as u32) };
        }
        let mut ctx: sys::CUcontext = std::ptr::null_mut();
        driver::check(unsafe { sys::cuDevicePrimaryCtxRetain(&mut ctx, dev) }, "cuDevicePrimaryCtxRetain").map_err(|e| unavailable(ordinal, e))?;
        let g = Gpu {
            ordinal,
            dev,
            name,
            cc: (attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)),
            sm_count: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
            total_memory,
            ctx: AtomicUsize::new(ctx as usize),
            own_ctx: AtomicBool::new(false),
            primary_held: AtomicBool::new(true),
            last_recovery: Mutex::new(String::new()),
            lost: OnceLock::new(),
            fault: Mutex::new(String::new()),
            generation: AtomicU64::new(0),
            poisoned: AtomicBool::new(false),
            pending: Mutex::new(None),
            has_pending: AtomicBool::new(false),
            resetting: Mutex::new(()),
            pool: alloc::CachingAllocator::default(),
            staging: staging::Staging::default(),
            streams: stream::Streams::default(),
            modules: module::Modules::default(),
        };
        if let Err(e) = g.enter() {
            let _ = unsafe { sys::cuDevicePrimaryCtxRelease_v2(dev) };
            return Err(unavailable(ordinal, e));
        }
        // The device heap holds gang-private copies (`private(c[0:n])`,
        // reductions of arrays): the driver's 8 MiB default is too small for
        // a grid of gangs each copying tens of KiB. A failure only leaves the
        // default (kernels needing more then fail with a launch error).
        let _ = unsafe { sys::cuCtxSetLimit(sys::CUlimit::CU_LIMIT_MALLOC_HEAP_SIZE, device_heap_bytes(total_memory)) };
        Ok(g)
    }

    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// (major, minor), e.g. (9, 0) for an H100.
    pub fn compute_capability(&self) -> (u32, u32) {
        self.cc
    }

    pub fn sm_count(&self) -> u32 {
        self.sm_count
    }

    /// Device memory in bytes (`cuDeviceTotalMem`).
    pub fn total_memory(&self) -> usize {
        self.total_memory
    }

    /// A device attribute (`cuDeviceGetAttribute`); -1 when the driver
    /// does not know it.
    pub fn attribute(&self, a: Attr) -> i64 {
        let mut v = 0;
        if unsafe { sys::cuDeviceGetAttribute(&mut v, a, self.dev) } == CUresult::CUDA_SUCCESS {
            v as i64
        } else {
            -1
        }
    }

    /// The `CUdevice` handle (for `acc_get_current_cuda_device`).
    pub fn cu_device(&self) -> i32 {
        self.dev
    }

    /// The device's context (`CUcontext` as an integer, for
    /// `acc_get_current_cuda_context`): the primary context, unless a
    /// recovery had to replace it with one of the layer's own.
    pub fn cu_context(&self) -> usize {
        self.ctx.load(Acquire)
    }

    /// Total and free bytes of device memory; free counts the allocator's
    /// cached blocks (this process can reuse them at once).
    pub fn mem_info(&self) -> (usize, usize) {
        let (mut free, mut total) = (0usize, 0usize);
        if self.enter().is_ok() && unsafe { sys::cuMemGetInfo_v2(&mut free, &mut total) } == CUresult::CUDA_SUCCESS {
            (total, (free + self.pool.stats().cached_bytes).min(total))
        } else {
            (self.total_memory, 0)
        }
    }

    /// The device's memory: caching allocator and staged copies.
    pub fn memory(&'static self) -> Box<dyn crate::memory::Memory> {
        Box::new(GpuMemory::new(self))
    }

    /// Counts of [`Gpu::recover`] so far: modules, device addresses and
    /// streams obtained in an earlier generation are invalid.
    pub fn generation(&self) -> u64 {
        self.generation.load(Acquire)
    }

    /// A kernel fault (a sticky error) poisoned the context: call
    /// [`Gpu::recover`]. Other errors — bad launch configurations included,
    /// although they are `acc_error_execution` too — leave it false: the
    /// device's state is intact. False again once the device is lost.
    pub fn poisoned(&self) -> bool {
        self.poisoned.load(Acquire) && self.lost.get().is_none()
    }

    /// [`Gpu::recover`] failed: the device cannot be used again in this
    /// process (every call fails with [`Gpu::lost_error`]).
    pub fn lost(&self) -> bool {
        self.lost.get().is_some()
    }

    /// The error of every call on a lost device
    /// (`acc_error_device_unavailable`).
    pub fn lost_error(&self) -> AccError {
        let why = self.lost.get().map(String::as_str).unwrap_or("");
        AccError::new(
            acc_error_device_unavailable,
            format!("nvidia device {} was lost after a kernel fault ({why}); restart the process to use it again", self.ordinal),
        )
    }

    /// The first error met by an operation without an error return (the
    /// `Memory` trait's copies, frees and fills) since the last call.
    pub fn take_error(&self) -> Option<AccError> {
        // Every data action asks: no lock while there is nothing.
        if !self.has_pending.load(Acquire) {
            return None;
        }
        let mut p = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        self.has_pending.store(false, Release);
        p.take()
    }

    pub(crate) fn keep_error(&self, e: AccError) {
        let mut p = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        if p.is_none() {
            *p = Some(e);
        }
        self.has_pending.store(true, Release);
    }

    /// Makes this device's context current on the calling thread. The
    /// context set last is remembered per thread, so the usual case is a
    /// thread-local read and no driver call; a context error of a later
    /// call ([`Gpu::check`]) forgets it (code outside the layer, say CuPy
    /// on another GPU, may have changed the thread's context since).
    #[inline]
    pub(crate) fn enter(&self) -> AccResult<()> {
        driver::usable_here()?;
        let want = (self.ctx.load(Acquire), self.generation.load(Acquire));
        if CURRENT.with(|c| c.get()) == want && self.lost.get().is_none() {
            return Ok(());
        }
        self.enter_slow(want)
    }

    #[cold]
    fn enter_slow(&self, want: (usize, u64)) -> AccResult<()> {
        if self.lost.get().is_some() {
            return Err(self.lost_error());
        }
        self.check(unsafe { sys::cuCtxSetCurrent(want.0 as sys::CUcontext) }, "cuCtxSetCurrent")?;
        CURRENT.with(|c| c.set(want));
        Ok(())
    }

    /// `Ok` for success, else an [`AccError`] naming the device, the call
    /// and the CUDA error; a fault marks the device [`Gpu::poisoned`].
    #[inline]
    pub(crate) fn check(&self, r: CUresult, what: &str) -> AccResult<()> {
        if r == CUresult::CUDA_SUCCESS {
            return Ok(());
        }
        Err(self.failure(r, what))
    }

    /// The error of a failed call `what`, its consequences recorded: a
    /// fault poisons the device, a context error forgets the thread's
    /// current context.
    #[cold]
    pub(crate) fn failure(&self, r: CUresult, what: &str) -> AccError {
        if self.lost.get().is_some() {
            return self.lost_error();
        }
        if driver::is_fault(r) {
            let mut f = self.fault.lock().unwrap_or_else(|p| p.into_inner());
            if !self.poisoned.swap(true, AcqRel) || f.is_empty() {
                *f = driver::error_name(r);
            }
        }
        if matches!(r, CUresult::CUDA_ERROR_INVALID_CONTEXT | CUresult::CUDA_ERROR_CONTEXT_IS_DESTROYED) {
            forget_current_context();
        }
        driver::cuda_error(r, &format!("nvidia device {}: {what}", self.ordinal))
    }

    /// Pins `bytes` of host memory at `host` in place (`cuMemHostRegister`),
    /// so copies to and from it run at DMA speed without staging.
    ///
    /// # Safety
    /// The range must be valid until [`Gpu::unregister_host`].
    pub unsafe fn register_host(&self, host: *mut u8, bytes: usize) -> AccResult<()> {
        self.enter()?;
        self.check(sys::cuMemHostRegister_v2(host.cast(), bytes, sys::CU_MEMHOSTREGISTER_PORTABLE), "cuMemHostRegister")
    }

    /// Undoes [`Gpu::register_host`].
    ///
    /// # Safety
    /// `host` must have been registered.
    pub unsafe fn unregister_host(&self, host: *mut u8) -> AccResult<()> {
        self.enter()?;
        self.check(sys::cuMemHostUnregister(host.cast()), "cuMemHostUnregister")
    }

    /// Device memory of at least `bytes` from the caching allocator.
    pub fn alloc(&self, bytes: usize) -> AccResult<usize> {
        self.enter()?;
        self.pool.alloc(self, bytes).map_err(|r| {
            let mut e = driver::cuda_error(r, &format!("nvidia device {}: cannot allocate {bytes} bytes", self.ordinal));
            if r == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
                e.code = acc_error_out_of_memory;
            }
            e
        })
    }

    /// Returns a block of [`Gpu::alloc`] to the cache (unknown addresses,
    /// such as those of an earlier generation, are ignored).
    pub fn free(&self, dev: usize) {
        self.pool.free(dev);
    }

    /// The allocated size of a live block of [`Gpu::alloc`].
    pub fn block_size(&self, dev: usize) -> Option<usize> {
        self.pool.size_of(dev)
    }

    /// Returns every cached block to the driver.
    pub fn trim_pool(&self) {
        if self.enter().is_ok() {
            self.pool.trim(self);
        }
    }

    pub fn pool_stats(&self) -> PoolStats {
        self.pool.stats()
    }
}

impl alloc::RawDevice for Gpu {
    type Error = CUresult;
    fn raw_alloc(&self, bytes: usize) -> Result<usize, CUresult> {
        let mut p: sys::CUdeviceptr = 0;
        let t0 = std::time::Instant::now();
        match unsafe { sys::cuMemAlloc_v2(&mut p, bytes) } {
            CUresult::CUDA_SUCCESS => {
                trace(|| format!("cuMemAlloc of {bytes} B: {:.3} ms", t0.elapsed().as_secs_f64() * 1e3));
                Ok(p as usize)
            }
            r => {
                if driver::is_fault(r) {
                    let _ = self.failure(r, "cuMemAlloc");
                }
                Err(r)
            }
        }
    }
    fn raw_free(&self, ptr: usize) {
        let _ = unsafe { sys::cuMemFree_v2(ptr as sys::CUdeviceptr) };
    }
    fn is_out_of_memory(e: &CUresult) -> bool {
        *e == CUresult::CUDA_ERROR_OUT_OF_MEMORY
    }
}

/// The device heap size set on every context: `ACCJIT_DEVICE_HEAP_MB` if
/// given, else 1/32 of the device memory, between 256 MiB and 2 GiB.
fn device_heap_bytes(total_memory: usize) -> usize {
    if let Some(mb) = std::env::var("ACCJIT_DEVICE_HEAP_MB").ok().and_then(|v| v.trim().parse::<usize>().ok()) {
        return mb << 20;
    }
    (total_memory / 32).clamp(256 << 20, 2 << 30)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_never_panics_and_agrees() {
        let n = device_count();
        if !available() {
            assert_eq!(n, 0);
            let e = gpu(0).err().expect("no device without a driver");
            assert_eq!(e.code, acc_error_device_unavailable);
            assert!(e.message.contains("nvidia device 0"), "{}", e.message);
        }
        let e = gpu(n + 3).err().expect("beyond the device count");
        assert_eq!(e.code, acc_error_device_unavailable);
    }

    #[test]
    fn settling_without_a_prewarm_returns_at_once() {
        let t0 = std::time::Instant::now();
        settle_before_exit(std::time::Duration::from_secs(5));
        assert!(t0.elapsed() < std::time::Duration::from_millis(500), "{:?}", t0.elapsed());
        assert_eq!(*PREWARM_BUSY.lock().unwrap(), 0);
    }
}

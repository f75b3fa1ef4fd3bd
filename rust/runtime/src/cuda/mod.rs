//! The CUDA layer: everything in the runtime that talks to the NVIDIA
//! driver (through cudarc's `sys` bindings, loaded at run time), behind a
//! small API the `nvidia` device is built on. Nothing here knows of the
//! present table, queues or kernels of the IR.
//!
//! - discovery and the per-device [`Gpu`] (this file): [`available`] and
//!   [`device_count`] never panic (no libcuda → false / 0); [`gpu`] opens a
//!   device's primary context on first use and keeps it for the process;
//!   device attributes for `acc_get_property`; the context made current on
//!   the calling thread before each driver call.
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
pub use cache::{CacheKey, DiskCache};
pub use cudarc::driver::sys::CUdevice_attribute as Attr;
pub use driver::driver_version;
pub use memory::GpuMemory;
pub use module::{GpuFunction, GpuModule, ModuleOrigin};
pub use staging::CopyTuning;

use crate::consts::*;
use crate::error::{AccError, AccResult};
use cudarc::driver::sys::{self, CUresult};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Mutex, OnceLock};

/// libcuda is present and `cuInit` succeeded. Never panics.
pub fn available() -> bool {
    driver::initialised()
}

/// The number of CUDA devices (0 when the driver is unavailable).
pub fn device_count() -> usize {
    static COUNT: OnceLock<usize> = OnceLock::new();
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
    static SLOTS: OnceLock<Vec<OnceLock<&'static Gpu>>> = OnceLock::new();
    static OPENING: Mutex<()> = Mutex::new(());
    let slots = SLOTS.get_or_init(|| (0..device_count()).map(|_| OnceLock::new()).collect());
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
    let g: &'static Gpu = Box::leak(Box::new(Gpu::open(ordinal)?));
    Ok(*slot.get_or_init(|| g))
}

/// One CUDA device with its primary context, for the life of the process.
pub struct Gpu {
    ordinal: usize,
    dev: sys::CUdevice,
    name: String,
    cc: (u32, u32),
    sm_count: u32,
    total_memory: usize,
    /// The primary context (`CUcontext`), replaced by [`Gpu::recover`].
    ctx: AtomicUsize,
    /// Bumped by every [`Gpu::recover`].
    generation: AtomicU64,
    /// A sticky error (kernel fault) was seen: the context is unusable
    /// until [`Gpu::recover`].
    poisoned: AtomicBool,
    /// The first error of an operation that cannot return one (the
    /// `Memory` trait's copies and frees), until [`Gpu::take_error`].
    pending: Mutex<Option<AccError>>,
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
            generation: AtomicU64::new(0),
            poisoned: AtomicBool::new(false),
            pending: Mutex::new(None),
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

    /// The current primary context (`CUcontext` as an integer, for
    /// `acc_get_current_cuda_context`).
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

    /// A kernel fault poisoned the context: call [`Gpu::recover`].
    pub fn poisoned(&self) -> bool {
        self.poisoned.load(Acquire)
    }

    /// The first error met by an operation without an error return (the
    /// `Memory` trait's copies, frees and fills) since the last call.
    pub fn take_error(&self) -> Option<AccError> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    pub(crate) fn keep_error(&self, e: AccError) {
        let mut p = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        if p.is_none() {
            *p = Some(e);
        }
    }

    /// Makes this device's context current on the calling thread (only
    /// when another one is: the check is a thread-local read in the driver).
    pub(crate) fn enter(&self) -> AccResult<()> {
        let want = self.ctx.load(Acquire) as sys::CUcontext;
        let mut cur: sys::CUcontext = std::ptr::null_mut();
        let got = unsafe { sys::cuCtxGetCurrent(&mut cur) };
        if got != CUresult::CUDA_SUCCESS || cur != want {
            self.check(unsafe { sys::cuCtxSetCurrent(want) }, "cuCtxSetCurrent")?;
        }
        Ok(())
    }

    /// `Ok` for success, else an [`AccError`] naming the device, the call
    /// and the CUDA error; a fault marks the device [`Gpu::poisoned`].
    pub(crate) fn check(&self, r: CUresult, what: &str) -> AccResult<()> {
        if r == CUresult::CUDA_SUCCESS {
            return Ok(());
        }
        if driver::is_fault(r) {
            self.poisoned.store(true, Release);
        }
        Err(driver::cuda_error(r, &format!("nvidia device {}: {what}", self.ordinal)))
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
        match unsafe { sys::cuMemAlloc_v2(&mut p, bytes) } {
            CUresult::CUDA_SUCCESS => Ok(p as usize),
            r => {
                if driver::is_fault(r) {
                    self.poisoned.store(true, Release);
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
}

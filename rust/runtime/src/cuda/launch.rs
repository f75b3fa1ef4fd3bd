//! Kernel launch, faults, and recovery from them.
//!
//! [`Gpu::launch`] is `cuLaunchKernel` with the block checked against the
//! kernel's limit first (a clearer message than the driver's
//! `CUDA_ERROR_INVALID_VALUE`) and nothing else on the way: the context is
//! current already (remembered per thread, see `Gpu::enter`), the function's
//! limits were read when it was looked up, and no message is formatted
//! unless the launch fails. A bad launch configuration is
//! `acc_error_execution` but leaves the device intact ([`Gpu::poisoned`]
//! false). A fault of the running kernel (illegal address, trap, …) comes
//! back from the next synchronising call as `acc_error_execution` and
//! poisons the context ("sticky" error): every later call fails the same
//! way. [`Gpu::recover`] then tries, in order:
//!
//! 1. resetting the primary context (`cuDevicePrimaryCtxRelease` of our
//!    reference, `cuDevicePrimaryCtxReset`, `cuDevicePrimaryCtxRetain`);
//! 2. a context of our own (`cuCtxCreate`) beside the dead one (a context
//!    of our own that faulted is destroyed first);
//!
//! each checked by a probe (allocate, fill, synchronise, free). What
//! belonged to the old context (modules, device memory, streams, events,
//! staging buffers) is forgotten here and [`Gpu::generation`] moves on so
//! callers drop what they kept of it. CUDA documents the sticky errors as
//! leaving "the process in an inconsistent state"; where neither way works
//! the device is lost ([`Gpu::lost`]): every later call on it fails with
//! "nvidia device N was lost after a kernel fault (CUDA_ERROR_…); restart
//! the process to use it again" — an error, never a crash or a hang.

use super::Gpu;
use crate::consts::*;
use crate::error::{AccError, AccResult};
use cudarc::driver::sys::{self, CUresult};
use std::ffi::c_void;
use std::sync::atomic::Ordering::*;

/// The ways [`Gpu::recover`] tries, in order (names as the selftest prints them).
pub const RECOVERY_STRATEGIES: &[&str] = &["primary-reset", "new-context"];

impl Gpu {
    /// Launches `f` with `grid` blocks of `block` threads, `shared` bytes
    /// of dynamic shared memory and the parameter pointers `params` (one
    /// per kernel parameter, each pointing at the parameter's bytes) on
    /// stream `stream`.
    #[inline]
    pub fn launch(&self, f: &super::GpuFunction, grid: [u32; 3], block: [u32; 3], shared: u32, params: &mut [*mut c_void], stream: usize) -> AccResult<()> {
        self.launch_raw(f.raw(), f.name(), grid, block, shared, params, stream)
    }

    /// [`Gpu::launch`] through a [`super::RawFunction`] (named `name` in
    /// errors), for a caller that keeps the function alive itself: the
    /// runtime's launch path, which takes no reference on the module.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn launch_raw(
        &self,
        f: super::RawFunction,
        name: &str,
        grid: [u32; 3],
        block: [u32; 3],
        shared: u32,
        params: &mut [*mut c_void],
        stream: usize,
    ) -> AccResult<()> {
        if f.generation != self.generation() {
            return Err(self.stale_function());
        }
        let threads = block[0] as u64 * block[1] as u64 * block[2] as u64;
        if threads == 0 || grid.contains(&0) || threads > f.max_threads as u64 {
            return Err(self.bad_launch(name, f.max_threads, grid, block));
        }
        self.enter()?;
        let raw = |p: &mut [*mut c_void]| unsafe {
            sys::cuLaunchKernel(
                f.handle as sys::CUfunction,
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                shared,
                stream as sys::CUstream,
                if p.is_empty() { std::ptr::null_mut() } else { p.as_mut_ptr() },
                std::ptr::null_mut(),
            )
        };
        let mut r = raw(params);
        if r == CUresult::CUDA_SUCCESS {
            return Ok(());
        }
        if r == CUresult::CUDA_ERROR_INVALID_CONTEXT {
            // Someone else changed this thread's context: set ours again, once.
            super::forget_current_context();
            self.enter()?;
            r = raw(params);
        }
        self.check(r, &format!("launch of kernel '{name}'"))
    }

    #[cold]
    fn stale_function(&self) -> AccError {
        if self.lost() {
            return self.lost_error();
        }
        AccError::new(acc_error_other, format!("nvidia device {}: the module was loaded before the device was reset; load it again", self.ordinal()))
    }

    #[cold]
    fn bad_launch(&self, name: &str, max_threads: u32, grid: [u32; 3], block: [u32; 3]) -> AccError {
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        if threads == 0 || grid.contains(&0) {
            return AccError::new(acc_error_execution, format!("kernel '{name}': empty launch configuration grid {grid:?} block {block:?}"));
        }
        AccError::new(
            acc_error_execution,
            format!("kernel '{name}': a block of {threads} threads exceeds the kernel's limit of {max_threads} on nvidia device {}", self.ordinal()),
        )
    }

    /// Waits for all work of the device (every stream).
    pub fn synchronize(&self) -> AccResult<()> {
        self.enter()?;
        self.check(unsafe { sys::cuCtxSynchronize() }, "cuCtxSynchronize")
    }

    /// After a kernel fault: a working context again (see the module doc
    /// for how), or the device is lost and this and every later call fail
    /// with [`Gpu::lost_error`]. Everything of the old context is invalid
    /// afterwards; the generation counter moves on.
    pub fn recover(&self) -> AccResult<()> {
        let _resetting = self.resetting.lock().unwrap_or_else(|p| p.into_inner());
        if self.lost() {
            return Err(self.lost_error());
        }
        self.generation.fetch_add(1, AcqRel);
        self.modules.forget();
        self.pool.forget_all();
        self.staging.forget();
        self.streams.forget();
        super::forget_current_context();
        let _ = unsafe { sys::cuCtxSetCurrent(std::ptr::null_mut()) };
        let mut failures = Vec::new();
        for (i, how) in RECOVERY_STRATEGIES.iter().enumerate() {
            match self.try_recovery(i) {
                Ok(ctx) => {
                    self.ctx.store(ctx as usize, Release);
                    self.own_ctx.store(i == 1, Release);
                    self.poisoned.store(false, Release);
                    self.fault.lock().unwrap_or_else(|p| p.into_inner()).clear();
                    let note = if failures.is_empty() { how.to_string() } else { format!("{how} (after {})", failures.join("; ")) };
                    *self.last_recovery.lock().unwrap_or_else(|p| p.into_inner()) = note;
                    super::forget_current_context();
                    return self.enter();
                }
                Err(e) => failures.push(format!("{how}: {}", e.message)),
            }
        }
        let fault = self.fault.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let _ = self.lost.set(if fault.is_empty() { "the context could not be recreated".into() } else { fault });
        *self.last_recovery.lock().unwrap_or_else(|p| p.into_inner()) = format!("none worked: {}", failures.join("; "));
        let e = self.lost_error();
        Err(AccError { message: format!("{} (recovery tried {})", e.message, failures.join("; ")), ..e })
    }

    /// How the last [`Gpu::recover`] went: the strategy that worked (and
    /// those that failed before it), or why none did. Empty before any.
    pub fn last_recovery(&self) -> String {
        self.last_recovery.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Recovery strategy `i` of [`RECOVERY_STRATEGIES`]: the new context,
    /// probed, or why not.
    fn try_recovery(&self, i: usize) -> AccResult<sys::CUcontext> {
        let what = |r: CUresult, call: &str| super::driver::check(r, &format!("nvidia device {}: {call}", self.ordinal()));
        let old = self.ctx.load(Acquire) as sys::CUcontext;
        let mut ctx: sys::CUcontext = std::ptr::null_mut();
        unsafe {
            if self.own_ctx.swap(false, AcqRel) {
                // A context of our own faulted: it goes first.
                let _ = sys::cuCtxDestroy_v2(old);
            }
            if i == 0 {
                if self.primary_held.swap(false, AcqRel) {
                    let _ = sys::cuDevicePrimaryCtxRelease_v2(self.dev);
                }
                what(sys::cuDevicePrimaryCtxReset_v2(self.dev), "cuDevicePrimaryCtxReset")?;
                what(sys::cuDevicePrimaryCtxRetain(&mut ctx, self.dev), "cuDevicePrimaryCtxRetain")?;
                self.primary_held.store(true, Release);
            } else {
                what(sys::cuCtxCreate_v2(&mut ctx, sys::CUctx_flags::CU_CTX_SCHED_SPIN as u32, self.dev), "cuCtxCreate")?;
            }
            let probed = probe(ctx).map_err(|(r, call)| super::driver::cuda_error(r, &format!("nvidia device {}: {call} in the new context", self.ordinal())));
            if let Err(e) = probed {
                let _ = sys::cuCtxSetCurrent(std::ptr::null_mut());
                if i == 0 {
                    if self.primary_held.swap(false, AcqRel) {
                        let _ = sys::cuDevicePrimaryCtxRelease_v2(self.dev);
                    }
                } else {
                    let _ = sys::cuCtxDestroy_v2(ctx);
                }
                return Err(e);
            }
        }
        Ok(ctx)
    }
}

/// Makes `ctx` current and checks that it works: allocate, fill,
/// synchronise, free.
unsafe fn probe(ctx: sys::CUcontext) -> Result<(), (CUresult, &'static str)> {
    let ok = |r: CUresult, call: &'static str| if r == CUresult::CUDA_SUCCESS { Ok(()) } else { Err((r, call)) };
    ok(sys::cuCtxSetCurrent(ctx), "cuCtxSetCurrent")?;
    let mut p: sys::CUdeviceptr = 0;
    ok(sys::cuMemAlloc_v2(&mut p, 4096), "cuMemAlloc")?;
    let filled = ok(sys::cuMemsetD8Async(p, 0, 4096, std::ptr::null_mut()), "cuMemsetD8Async").and_then(|()| ok(sys::cuCtxSynchronize(), "cuCtxSynchronize"));
    let _ = sys::cuMemFree_v2(p);
    filled
}

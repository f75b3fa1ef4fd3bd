//! Kernel launch and recovery from kernel faults.
//!
//! [`Gpu::launch`] is `cuLaunchKernel` with the block checked against the
//! kernel's limit first (a clearer message than the driver's
//! `CUDA_ERROR_INVALID_VALUE`). Launch errors come back at once; a fault of
//! the running kernel (illegal address, trap, …) comes back from the next
//! synchronising call on the device as `acc_error_execution` and poisons
//! the context: every later call fails the same way. [`Gpu::recover`]
//! then resets the device's primary context and opens a fresh one, so the
//! device is usable again; what belonged to the old context (modules,
//! device memory, streams, events, staging buffers) is forgotten here and
//! [`Gpu::generation`] moves on so callers drop what they kept of it.

use super::Gpu;
use crate::consts::*;
use crate::error::{AccError, AccResult};
use cudarc::driver::sys;
use std::ffi::c_void;
use std::sync::atomic::Ordering::*;

impl Gpu {
    /// Launches `f` with `grid` blocks of `block` threads, `shared` bytes
    /// of dynamic shared memory and the parameter pointers `params` (one
    /// per kernel parameter, each pointing at the parameter's bytes) on
    /// stream `stream`.
    pub fn launch(&self, f: &super::GpuFunction, grid: [u32; 3], block: [u32; 3], shared: u32, params: &mut [*mut c_void], stream: usize) -> AccResult<()> {
        f.check_live()?;
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        if threads == 0 || grid.contains(&0) {
            return Err(AccError::new(acc_error_execution, format!("kernel '{}': empty launch configuration grid {grid:?} block {block:?}", f.name())));
        }
        if threads > f.max_threads_per_block() as u64 {
            return Err(AccError::new(
                acc_error_execution,
                format!(
                    "kernel '{}': a block of {threads} threads exceeds the kernel's limit of {} on nvidia device {}",
                    f.name(),
                    f.max_threads_per_block(),
                    self.ordinal()
                ),
            ));
        }
        self.enter()?;
        let r = unsafe {
            sys::cuLaunchKernel(
                f.handle(),
                grid[0],
                grid[1],
                grid[2],
                block[0],
                block[1],
                block[2],
                shared,
                stream as sys::CUstream,
                if params.is_empty() { std::ptr::null_mut() } else { params.as_mut_ptr() },
                std::ptr::null_mut(),
            )
        };
        self.check(r, &format!("launch of kernel '{}'", f.name()))
    }

    /// Waits for all work of the device (every stream).
    pub fn synchronize(&self) -> AccResult<()> {
        self.enter()?;
        self.check(unsafe { sys::cuCtxSynchronize() }, "cuCtxSynchronize")
    }

    /// After a kernel fault: resets the primary context and opens a fresh
    /// one. Everything of the old context is invalid afterwards (see the
    /// module doc); the generation counter moves on.
    pub fn recover(&self) -> AccResult<()> {
        let _resetting = self.resetting.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, AcqRel);
        self.modules.forget();
        self.pool.forget_all();
        self.staging.forget();
        self.streams.forget();
        unsafe {
            // Our reference first (when it was the last, the context goes
            // with it), then a reset for references others hold.
            let _ = sys::cuDevicePrimaryCtxRelease_v2(self.dev);
            let reset = sys::cuDevicePrimaryCtxReset_v2(self.dev);
            let mut ctx: sys::CUcontext = std::ptr::null_mut();
            let r = sys::cuDevicePrimaryCtxRetain(&mut ctx, self.dev);
            if r != sys::CUresult::CUDA_SUCCESS {
                return Err(super::driver::cuda_error(r, &format!("nvidia device {}: cannot reopen after a reset (reset: {reset:?})", self.ordinal())));
            }
            self.ctx.store(ctx as usize, Release);
            self.check(sys::cuCtxSetCurrent(ctx), "cuCtxSetCurrent")?;
        }
        self.poisoned.store(false, Release);
        Ok(())
    }
}

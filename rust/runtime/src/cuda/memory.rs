//! [`GpuMemory`]: the [`Memory`] implementation of an NVIDIA device. Device
//! copies and `acc_malloc` blocks come from the device's caching allocator;
//! copies are synchronous on the device's sync-queue stream, through the
//! staged pipeline of `staging.rs`. The trait's copies and frees cannot
//! return errors: the first one is kept for [`Gpu::take_error`].

use super::Gpu;
use crate::error::AccResult;
use crate::memory::Memory;

/// The memory of one GPU (any number of handles share the device's pool).
pub struct GpuMemory {
    gpu: &'static Gpu,
}

impl GpuMemory {
    pub fn new(gpu: &'static Gpu) -> GpuMemory {
        GpuMemory { gpu }
    }

    pub fn gpu(&self) -> &'static Gpu {
        self.gpu
    }

    /// Runs `op` on the sync stream and waits for it.
    fn on_sync_stream(&self, op: impl FnOnce(usize) -> AccResult<()>) {
        let g = self.gpu;
        let r = g.sync_stream_handle().and_then(|s| op(s).and_then(|()| g.sync_stream(s)));
        if let Err(e) = r {
            g.keep_error(e);
        }
    }
}

impl Memory for GpuMemory {
    fn is_shared(&self) -> bool {
        false
    }

    fn alloc_copy(&self, _host: usize, bytes: usize) -> AccResult<usize> {
        self.gpu.alloc(bytes)
    }

    fn free_copy(&self, dev: usize, _host: usize, _bytes: usize) {
        self.gpu.free(dev);
    }

    fn malloc(&self, bytes: usize) -> AccResult<usize> {
        if bytes == 0 {
            return Ok(0);
        }
        self.gpu.alloc(bytes)
    }

    fn free(&self, dev: usize) {
        if dev != 0 {
            self.gpu.free(dev);
        }
    }

    unsafe fn copy_to(&self, dev: usize, host: *const u8, bytes: usize) {
        self.on_sync_stream(|s| self.gpu.copy_to_async(dev, host, bytes, s));
    }

    unsafe fn copy_from(&self, host: *mut u8, dev: usize, bytes: usize) {
        self.on_sync_stream(|s| self.gpu.copy_from_async(host, dev, bytes, s));
    }

    unsafe fn copy_within(&self, dst: usize, src: usize, bytes: usize) {
        self.on_sync_stream(|s| self.gpu.copy_device_async(dst, src, bytes, s));
    }

    unsafe fn zero(&self, dev: usize, bytes: usize) {
        self.on_sync_stream(|s| self.gpu.zero_async(dev, bytes, s));
    }

    fn memory_info(&self) -> (usize, usize) {
        self.gpu.mem_info()
    }
}

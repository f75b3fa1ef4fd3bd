//! Stand-in for engineer "cuda"'s layer (`rust/runtime/src/cuda/`) until it
//! lands: the API of CONTRACT9.md with no devices, so the nvidia device
//! code builds and reports "no nvidia device" everywhere.

#![allow(dead_code, clippy::missing_safety_doc)]

use crate::consts::acc_error_device_unavailable;
use crate::error::{AccError, AccResult};

fn none<T>() -> AccResult<T> {
    Err(AccError::new(acc_error_device_unavailable, "no nvidia device (the CUDA layer is not built in)"))
}

pub fn available() -> bool {
    false
}

pub fn device_count() -> usize {
    0
}

pub struct Gpu {
    _private: (),
}

pub fn gpu(_ordinal: usize) -> AccResult<&'static Gpu> {
    none()
}

impl Gpu {
    pub fn ordinal(&self) -> usize {
        0
    }
    pub fn name(&self) -> &str {
        ""
    }
    pub fn compute_capability(&self) -> (u32, u32) {
        (0, 0)
    }
    pub fn sm_count(&self) -> u32 {
        0
    }
    pub fn memory(&self) -> Box<dyn crate::memory::Memory> {
        Box::new(crate::memory::SharedMemory::default())
    }
    pub fn mem_info(&self) -> (usize, usize) {
        (0, 0)
    }
    pub fn stream(&self, _queue: i64) -> AccResult<usize> {
        none()
    }
    pub fn set_stream(&self, _queue: i64, _s: usize) {}
    pub fn sync_stream(&self, _s: usize) -> AccResult<()> {
        none()
    }
    pub fn query_stream(&self, _s: usize) -> AccResult<bool> {
        none()
    }
    pub fn stream_wait_stream(&self, _waiter: usize, _waited: usize) -> AccResult<()> {
        none()
    }
    pub fn copy_to_async(&self, _dev: usize, _host: *const u8, _bytes: usize, _s: usize) -> AccResult<()> {
        none()
    }
    pub fn copy_from_async(&self, _host: *mut u8, _dev: usize, _bytes: usize, _s: usize) -> AccResult<()> {
        none()
    }
    pub fn load_module(&self, _ptx: &str) -> AccResult<GpuModule> {
        none()
    }
    pub fn launch(
        &self,
        _f: &GpuFunction,
        _grid: [u32; 3],
        _block: [u32; 3],
        _shared: u32,
        _params: &mut [*mut std::ffi::c_void],
        _stream: usize,
    ) -> AccResult<()> {
        none()
    }
    pub fn recover(&self) -> AccResult<()> {
        none()
    }
}

pub struct GpuModule {
    _private: (),
}

impl GpuModule {
    pub fn function(&self, _entry: &str) -> AccResult<GpuFunction> {
        none()
    }
    pub fn global(&self, _sym: &str) -> AccResult<(usize, usize)> {
        none()
    }
}

#[derive(Clone)]
pub struct GpuFunction {
    _private: (),
}

impl GpuFunction {
    pub fn max_threads_per_block(&self) -> u32 {
        1024
    }
}

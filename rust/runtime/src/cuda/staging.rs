//! Host↔device copies at pinned-memory speed for pageable host memory
//! (NumPy arrays): a few pinned staging buffers per device
//! (`cuMemHostAlloc`, [`STAGING_BUFFERS`] × [`STAGING_CHUNK`]), and large
//! copies cut into chunks and pipelined through them: while the DMA engine
//! moves chunk k, host threads copy chunk k+1 into the next buffer (a
//! buffer is reused once the event recorded after its DMA has fired). The
//! host side of one chunk runs on up to [`COPY_THREADS`] threads of a small
//! persistent pool, since one core's `memcpy` is slower than the PCIe/C2C
//! link. Copies of at most [`DIRECT_COPY_MAX`] bytes, and copies to or from
//! memory that is already pinned (`cuMemHostAlloc`ed or registered), go to
//! the driver directly.
//!
//! Host → device returns once every byte has left the host buffer (the last
//! DMAs may still run on the stream, reading the staging buffers, which is
//! what async queues need); device → host returns when the bytes are in the
//! host buffer. [`CopyTuning`] changes the constants at run time (the
//! selftest sweeps them).

use super::Gpu;
use crate::error::AccResult;
use cudarc::driver::sys::{self, CUresult};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Bytes per pipelined chunk (and per staging buffer).
pub const STAGING_CHUNK: usize = 16 << 20;
/// Staging buffers per device (the H100's sweep: 6 × 16 MiB with 16 host
/// threads was the fastest).
pub const STAGING_BUFFERS: usize = 6;
/// Copies up to this size go to the driver directly.
pub const DIRECT_COPY_MAX: usize = 1 << 20;
/// Host threads copying one chunk (capped by the machine's cores).
pub const COPY_THREADS: usize = 16;
/// A host thread copies at least this much of a chunk.
const THREAD_MIN_BYTES: usize = 1 << 20;

/// The staged-copy parameters of a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyTuning {
    pub chunk_bytes: usize,
    pub buffers: usize,
    pub threads: usize,
    pub direct_max: usize,
}

impl Default for CopyTuning {
    fn default() -> CopyTuning {
        CopyTuning { chunk_bytes: STAGING_CHUNK, buffers: STAGING_BUFFERS, threads: COPY_THREADS.min(cores()), direct_max: DIRECT_COPY_MAX }
    }
}

/// The machine's cores (asked once: `available_parallelism` reads cgroup
/// files on every call).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

struct Buf {
    host: usize,
    event: usize,
    /// A DMA of this buffer was recorded and not yet waited for.
    busy: bool,
}

#[derive(Default)]
struct State {
    tuning: Option<CopyTuning>,
    bufs: Vec<Buf>,
}

#[derive(Default)]
pub(crate) struct Staging {
    state: Mutex<State>,
}

impl Staging {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets the buffers (their context was destroyed).
    pub(crate) fn forget(&self) {
        self.state().bufs.clear();
    }
}

/// The pool whose threads copy the host side of chunks.
fn copy_pool() -> &'static crate::pool::Pool {
    static POOL: OnceLock<crate::pool::Pool> = OnceLock::new();
    POOL.get_or_init(|| crate::pool::Pool::new(cores().min(16)))
}

/// The chunk of a staged copy of `bytes`: at most the buffer size, and
/// small enough that a mid-sized copy is still cut into a few chunks whose
/// host copies overlap the DMA of the previous ones.
fn pipeline_chunk(bytes: usize, t: &CopyTuning) -> usize {
    (bytes / 4).next_multiple_of(4096).clamp(THREAD_MIN_BYTES.min(t.chunk_bytes), t.chunk_bytes)
}

/// `memcpy` of `len` bytes on up to `threads` threads.
///
/// # Safety
/// Both ranges valid for `len` bytes and disjoint.
unsafe fn par_copy(src: *const u8, dst: *mut u8, len: usize, threads: usize) {
    let parts = threads.min(len / THREAD_MIN_BYTES).max(1);
    if parts == 1 {
        std::ptr::copy_nonoverlapping(src, dst, len);
        return;
    }
    let piece = len.div_ceil(parts).next_multiple_of(4096);
    let (s, d) = (src as usize, dst as usize);
    let copy = move |i: i64| {
        let from = (i as usize * piece).min(len);
        let to = (from + piece).min(len);
        unsafe { std::ptr::copy_nonoverlapping((s + from) as *const u8, (d + from) as *mut u8, to - from) };
    };
    let _ = copy_pool().run(parts as i64, 0, &copy);
}

impl Gpu {
    pub fn copy_tuning(&self) -> CopyTuning {
        self.staging.state().tuning.unwrap_or_default()
    }

    /// Changes the staged-copy parameters (the buffers are reallocated at
    /// the next staged copy).
    pub fn set_copy_tuning(&self, t: CopyTuning) {
        let mut st = self.staging.state();
        self.release_buffers(&mut st);
        st.tuning =
            Some(CopyTuning { chunk_bytes: t.chunk_bytes.max(1 << 16), buffers: t.buffers.max(1), threads: t.threads.max(1), direct_max: t.direct_max });
    }

    fn release_buffers(&self, st: &mut State) {
        if st.bufs.is_empty() || self.enter().is_err() {
            st.bufs.clear();
            return;
        }
        for b in st.bufs.drain(..) {
            unsafe {
                if b.busy {
                    let _ = sys::cuEventSynchronize(b.event as sys::CUevent);
                }
                let _ = sys::cuEventDestroy_v2(b.event as sys::CUevent);
                let _ = sys::cuMemFreeHost(b.host as *mut std::ffi::c_void);
            }
        }
    }

    /// At least `want` staging buffers (at most the tuning's count),
    /// allocated as copies first need them (a copy of a few chunks does not
    /// pin the whole set); false when no pinned memory can be had (copies
    /// then go to the driver directly).
    fn ensure_buffers(&self, st: &mut State, want: usize) -> bool {
        let t = st.tuning.unwrap_or_default();
        if st.bufs.len() > t.buffers {
            self.release_buffers(st);
        }
        let want = want.clamp(1, t.buffers);
        let (t0, had) = (std::time::Instant::now(), st.bufs.len());
        while st.bufs.len() < want {
            let mut host: *mut std::ffi::c_void = std::ptr::null_mut();
            if unsafe { sys::cuMemHostAlloc(&mut host, t.chunk_bytes, 0) } != CUresult::CUDA_SUCCESS {
                break;
            }
            match self.take_event() {
                Ok(event) => st.bufs.push(Buf { host: host as usize, event, busy: false }),
                Err(_) => {
                    let _ = unsafe { sys::cuMemFreeHost(host) };
                    break;
                }
            }
        }
        if st.bufs.len() > had {
            super::trace(|| {
                format!("{} pinned staging buffer(s) of {} MiB: {:.2} ms", st.bufs.len() - had, t.chunk_bytes >> 20, t0.elapsed().as_secs_f64() * 1e3)
            });
        }
        !st.bufs.is_empty()
    }

    /// True when `host` is page-locked memory (`cuMemHostAlloc`ed or
    /// registered) that the DMA engine reads directly. Asks
    /// `cuMemHostGetFlags`, which knows only page-locked memory (unlike the
    /// pointer's memory type, which heterogeneous memory management may
    /// report as host memory for any pageable address).
    pub fn is_pinned_host(&self, host: *const u8) -> bool {
        let mut flags: std::ffi::c_uint = 0;
        self.enter().is_ok() && unsafe { sys::cuMemHostGetFlags(&mut flags, host as *mut std::ffi::c_void) } == CUresult::CUDA_SUCCESS
    }

    fn wait_buffer(&self, b: &mut Buf) -> AccResult<()> {
        if b.busy {
            b.busy = false;
            self.check(unsafe { sys::cuEventSynchronize(b.event as sys::CUevent) }, "cuEventSynchronize (staging)")?;
        }
        Ok(())
    }

    /// Host → device on stream `s` (see the module doc for when it returns).
    ///
    /// # Safety
    /// `host` valid for `bytes`; `dev` a device range of this device.
    pub unsafe fn copy_to_async(&self, dev: usize, host: *const u8, bytes: usize, s: usize) -> AccResult<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.enter()?;
        let stream = s as sys::CUstream;
        let mut st = self.staging.state();
        let t = st.tuning.unwrap_or_default();
        let chunk = pipeline_chunk(bytes, &t);
        if bytes <= t.direct_max || self.is_pinned_host(host) || !self.ensure_buffers(&mut st, bytes.div_ceil(chunk)) {
            drop(st);
            return self.check(sys::cuMemcpyHtoDAsync_v2(dev as sys::CUdeviceptr, host.cast(), bytes, stream), "cuMemcpyHtoDAsync");
        }
        let n = st.bufs.len();
        let (mut off, mut k) = (0, 0);
        while off < bytes {
            let len = chunk.min(bytes - off);
            let b = &mut st.bufs[k % n];
            self.wait_buffer(b)?;
            par_copy(host.add(off), b.host as *mut u8, len, t.threads);
            self.check(
                sys::cuMemcpyHtoDAsync_v2((dev + off) as sys::CUdeviceptr, b.host as *const std::ffi::c_void, len, stream),
                "cuMemcpyHtoDAsync (staged)",
            )?;
            self.check(sys::cuEventRecord(b.event as sys::CUevent, stream), "cuEventRecord (staging)")?;
            b.busy = true;
            off += len;
            k += 1;
        }
        Ok(())
    }

    /// Device → host after the work on stream `s`. Pageable memory: the
    /// bytes are in `host` on return. Pinned memory: the copy is enqueued
    /// (done when the stream is).
    ///
    /// # Safety
    /// `host` valid for `bytes`; `dev` a device range of this device.
    pub unsafe fn copy_from_async(&self, host: *mut u8, dev: usize, bytes: usize, s: usize) -> AccResult<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.enter()?;
        let stream = s as sys::CUstream;
        let mut st = self.staging.state();
        let t = st.tuning.unwrap_or_default();
        let chunk = pipeline_chunk(bytes, &t);
        let chunks = bytes.div_ceil(chunk);
        if bytes <= t.direct_max || self.is_pinned_host(host) || !self.ensure_buffers(&mut st, chunks) {
            drop(st);
            return self.check(sys::cuMemcpyDtoHAsync_v2(host.cast(), dev as sys::CUdeviceptr, bytes, stream), "cuMemcpyDtoHAsync");
        }
        let n = st.bufs.len();
        let span = |k: usize| (k * chunk, chunk.min(bytes - k * chunk));
        let issue = |gpu: &Gpu, b: &mut Buf, k: usize| -> AccResult<()> {
            let (off, len) = span(k);
            gpu.wait_buffer(b)?;
            gpu.check(sys::cuMemcpyDtoHAsync_v2(b.host as *mut std::ffi::c_void, (dev + off) as sys::CUdeviceptr, len, stream), "cuMemcpyDtoHAsync (staged)")?;
            gpu.check(sys::cuEventRecord(b.event as sys::CUevent, stream), "cuEventRecord (staging)")?;
            b.busy = true;
            Ok(())
        };
        for k in 0..chunks.min(n) {
            issue(self, &mut st.bufs[k], k)?;
        }
        for k in 0..chunks {
            let b = &mut st.bufs[k % n];
            self.wait_buffer(b)?;
            let (off, len) = span(k);
            par_copy(b.host as *const u8, host.add(off), len, t.threads);
            if k + n < chunks {
                issue(self, b, k + n)?;
            }
        }
        Ok(())
    }

    /// Device → device on stream `s`.
    ///
    /// # Safety
    /// Both device ranges valid for `bytes` on this device.
    pub unsafe fn copy_device_async(&self, dst: usize, src: usize, bytes: usize, s: usize) -> AccResult<()> {
        if bytes == 0 || dst == src {
            return Ok(());
        }
        self.enter()?;
        self.check(sys::cuMemcpyDtoDAsync_v2(dst as sys::CUdeviceptr, src as sys::CUdeviceptr, bytes, s as sys::CUstream), "cuMemcpyDtoDAsync")
    }

    /// Device → device from another GPU's memory (`src` on `from`) into
    /// this one's, on this device's stream `s` (peer-to-peer where the
    /// devices can, through the host otherwise: the driver picks).
    ///
    /// # Safety
    /// `dst` valid for `bytes` on this device, `src` on `from`.
    pub unsafe fn copy_peer_async(&self, dst: usize, from: &Gpu, src: usize, bytes: usize, s: usize) -> AccResult<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.enter()?;
        self.check(
            sys::cuMemcpyPeerAsync(
                dst as sys::CUdeviceptr,
                self.cu_context() as sys::CUcontext,
                src as sys::CUdeviceptr,
                from.cu_context() as sys::CUcontext,
                bytes,
                s as sys::CUstream,
            ),
            "cuMemcpyPeerAsync",
        )
    }

    /// Zero bytes on stream `s`.
    ///
    /// # Safety
    /// The device range valid for `bytes` on this device.
    pub unsafe fn zero_async(&self, dev: usize, bytes: usize, s: usize) -> AccResult<()> {
        if bytes == 0 {
            return Ok(());
        }
        self.enter()?;
        self.check(sys::cuMemsetD8Async(dev as sys::CUdeviceptr, 0, bytes, s as sys::CUstream), "cuMemsetD8Async")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_fit_the_buffers_and_cut_mid_sized_copies() {
        let t = CopyTuning::default();
        assert_eq!(pipeline_chunk(1 << 30, &t), t.chunk_bytes);
        assert_eq!(pipeline_chunk(8 << 20, &t), 2 << 20);
        assert_eq!(pipeline_chunk((1 << 20) + 1, &t), THREAD_MIN_BYTES);
        let small = CopyTuning { chunk_bytes: 1 << 16, ..t };
        assert_eq!(pipeline_chunk(1 << 30, &small), 1 << 16);
    }

    #[test]
    fn parallel_copy_copies_every_byte() {
        for &len in &[0usize, 1, 4095, 1 << 20, (3 << 20) + 17, 9 << 20] {
            let src: Vec<u8> = (0..len).map(|i| (i * 131 + i / 7) as u8).collect();
            let mut dst = vec![0u8; len];
            unsafe { par_copy(src.as_ptr(), dst.as_mut_ptr(), len, 4) };
            assert!(src == dst, "len {len}");
        }
    }
}

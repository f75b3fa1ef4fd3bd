//! Streams and events of one device: a stream per async queue id (created
//! on first use, non-blocking so it never waits for the legacy default
//! stream), one stream for the sync queue (`acc_async_sync`), streams set
//! by the program (`acc_set_cuda_stream`, not ours to destroy), and a pool
//! of timing-free events used to make one stream wait for another without
//! creating and destroying an event per wait.
//!
//! Stream handles cross the API as `usize` (`CUstream` as an integer).

use super::Gpu;
use crate::consts::acc_async_sync;
use crate::error::AccResult;
use cudarc::driver::sys::{self, CUresult};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};

#[derive(Default)]
struct Books {
    /// Queue id → stream (`acc_async_sync` for the sync queue); ordered,
    /// not hashed: every launch asks, and a queue id's hash cost more than
    /// the few comparisons.
    by_queue: BTreeMap<i64, usize>,
    /// Streams this layer created (destroyed never: they live with the
    /// context; forgotten by a reset).
    created: Vec<usize>,
    /// Idle events.
    events: Vec<usize>,
}

#[derive(Default)]
pub(crate) struct Streams {
    books: Mutex<Books>,
}

impl Streams {
    fn books(&self) -> MutexGuard<'_, Books> {
        self.books.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets every stream and event (their context was destroyed).
    pub(crate) fn forget(&self) {
        *self.books() = Books::default();
    }
}

impl Gpu {
    /// The stream of async queue `queue` (`acc_async_sync`: the sync
    /// queue's stream), created on first use.
    pub fn stream(&self, queue: i64) -> AccResult<usize> {
        let mut b = self.streams.books();
        if let Some(&s) = b.by_queue.get(&queue) {
            return Ok(s);
        }
        self.enter()?;
        let mut s: sys::CUstream = std::ptr::null_mut();
        self.check(unsafe { sys::cuStreamCreate(&mut s, sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32) }, "cuStreamCreate")?;
        b.by_queue.insert(queue, s as usize);
        b.created.push(s as usize);
        Ok(s as usize)
    }

    /// The sync queue's stream.
    pub fn sync_stream_handle(&self) -> AccResult<usize> {
        self.stream(acc_async_sync)
    }

    /// `acc_set_cuda_stream`: queue `queue` uses stream `s` from now on
    /// (the program's stream; this layer never destroys it).
    pub fn set_stream(&self, queue: i64, s: usize) {
        self.streams.books().by_queue.insert(queue, s);
    }

    /// Waits until all work on `s` is done; a kernel fault found here is
    /// an `acc_error_execution` error and poisons the device.
    pub fn sync_stream(&self, s: usize) -> AccResult<()> {
        self.enter()?;
        self.check(unsafe { sys::cuStreamSynchronize(s as sys::CUstream) }, "cuStreamSynchronize")
    }

    /// True when all work on `s` is done.
    pub fn query_stream(&self, s: usize) -> AccResult<bool> {
        self.enter()?;
        match unsafe { sys::cuStreamQuery(s as sys::CUstream) } {
            CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            r => self.check(r, "cuStreamQuery").map(|()| true),
        }
    }

    /// Work enqueued on `waiter` from now on starts after the work
    /// enqueued on `waited` so far (an event recorded on `waited`, waited
    /// for on `waiter`; the host does not block).
    pub fn stream_wait_stream(&self, waiter: usize, waited: usize) -> AccResult<()> {
        if waiter == waited {
            return Ok(());
        }
        let ev = self.take_event()?;
        let r = self
            .check(unsafe { sys::cuEventRecord(ev as sys::CUevent, waited as sys::CUstream) }, "cuEventRecord")
            .and_then(|()| self.check(unsafe { sys::cuStreamWaitEvent(waiter as sys::CUstream, ev as sys::CUevent, 0) }, "cuStreamWaitEvent"));
        // The wait captured the event's state: it may be recorded again at once.
        self.give_event(ev);
        r
    }

    /// An idle event from the pool (created when the pool is empty).
    pub(crate) fn take_event(&self) -> AccResult<usize> {
        if let Some(ev) = self.streams.books().events.pop() {
            return Ok(ev);
        }
        self.enter()?;
        let mut ev: sys::CUevent = std::ptr::null_mut();
        self.check(unsafe { sys::cuEventCreate(&mut ev, sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32) }, "cuEventCreate")?;
        Ok(ev as usize)
    }

    /// Returns an event of [`Gpu::take_event`] to the pool.
    pub(crate) fn give_event(&self, ev: usize) {
        self.streams.books().events.push(ev);
    }
}

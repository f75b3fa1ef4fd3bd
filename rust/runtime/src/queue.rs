//! Async queues (spec §2.16, §3.2.9–3.2.14): one in-order queue per
//! (device, async value), each served by its own worker thread on the
//! multicore device (the host device runs queued work at once, on the
//! calling thread: legal, since `async` only *allows* overlap).
//!
//! Async values map onto at most [`PHYSICAL`] physical queues per device
//! (`v % PHYSICAL`, and one for `acc_async_noval`): values sharing a queue
//! are ordered more strictly than required, which the spec allows. A queue
//! counts submitted and completed tasks; `test` compares them, `wait` blocks
//! until the count seen at the call has completed; a wait enqueued on
//! another queue (`wait async`) snapshots the counts first, so it can never
//! wait on itself.
//!
//! A device whose queues are hardware streams (`compute::Streams`: the
//! nvidia device's CUDA streams) gives them to its [`Queues`]: work is
//! enqueued on the stream without a host thread, `wait` synchronises the
//! stream, `wait async` makes one stream wait for an event of another, and
//! a host task submitted to such a queue runs on the caller once the
//! stream has drained (ordered after the queue's work, as required).
//!
//! A task that ends the program (`hosted.rs`) is recorded on its queue as
//! failed and counted done; a fresh thread serves the rest of the queue,
//! and the next host wait on that queue returns the failure as an error
//! (`acc_error_execution` for `exit`/`abort` in an async task).
//!
//! A child of `fork()` starts with empty queues: the parent's queue threads
//! do not exist there, and work the parent had queued and not waited for
//! does not run in the child (see `fork.rs`).

use crate::compute::Streams;
use crate::consts::*;
use crate::device::{self, Device};
use crate::error::{AccError, AccResult};
use crate::fork::PerProcess;
use crate::hosted::Outcome;
use crate::prof::{self, Event};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// Work run on a queue.
pub type Task = Box<dyn FnOnce() + Send + 'static>;

/// Physical queues per device for non-negative async values.
pub const PHYSICAL: i64 = 32;

#[derive(Default)]
struct QState {
    tasks: VecDeque<Task>,
    submitted: u64,
    completed: u64,
    started: bool,
    /// A task of this queue ended the program; reported by the next wait.
    failed: Option<Outcome>,
}

/// One in-order queue.
#[derive(Default)]
pub struct Queue {
    st: Mutex<QState>,
    done: Condvar,
    work: Condvar,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, QState> {
        self.st.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Number of tasks submitted so far (a ticket to wait for).
    pub fn snapshot(&self) -> u64 {
        self.lock().submitted
    }

    /// True when everything submitted has completed.
    pub fn idle(&self) -> bool {
        let s = self.lock();
        s.completed == s.submitted
    }

    /// Blocks until the first `ticket` tasks have completed; then reports
    /// (once) a task of the queue that ended the program.
    pub fn wait_for(&self, ticket: u64) -> AccResult<()> {
        let failed = {
            let mut s = self.wait_done(ticket);
            s.failed.take()
        };
        match failed {
            None => Ok(()),
            Some(Outcome::Error(e)) => Err(AccError { message: format!("an async operation failed: {}", e.message), ..e }),
            Some(Outcome::Exit(c)) => Err(AccError::new(acc_error_execution, format!("an async kernel called exit({c})"))),
            Some(Outcome::Abort(m)) => Err(AccError::new(acc_error_execution, format!("an async kernel aborted: {m}"))),
        }
    }

    /// Blocks until the first `ticket` tasks have completed.
    fn wait_done(&self, ticket: u64) -> MutexGuard<'_, QState> {
        let mut s = self.lock();
        while s.completed < ticket {
            s = self.done.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        s
    }

    /// Starts a thread serving the queue (with the state lock held).
    fn start(self: &Arc<Self>, s: &mut QState) -> bool {
        s.started = true;
        let q = self.clone();
        let spawned = std::thread::Builder::new().name("accjit-queue".into()).spawn(move || q.serve());
        if spawned.is_err() {
            s.started = false;
        }
        spawned.is_ok()
    }

    fn submit(self: &Arc<Self>, t: Task) {
        let mut s = self.lock();
        s.tasks.push_back(t);
        s.submitted += 1;
        if !s.started && !self.start(&mut s) {
            // No thread: run everything queued now, in order.
            let tasks: Vec<Task> = s.tasks.drain(..).collect();
            drop(s);
            for t in tasks {
                t();
                let mut s = self.lock();
                s.completed += 1;
                self.done.notify_all();
            }
            return;
        }
        self.work.notify_one();
    }

    fn serve(self: Arc<Self>) {
        CURRENT.with(|c| *c.borrow_mut() = Some(self.clone()));
        loop {
            let task = {
                let mut s = self.lock();
                loop {
                    if let Some(t) = s.tasks.pop_front() {
                        break t;
                    }
                    s = self.work.wait(s).unwrap_or_else(|p| p.into_inner());
                }
            };
            task();
            let mut s = self.lock();
            s.completed += 1;
            self.done.notify_all();
        }
    }
}

thread_local! {
    /// The queue this thread serves.
    static CURRENT: RefCell<Option<Arc<Queue>>> = const { RefCell::new(None) };
}

/// True on a thread serving an async queue.
pub fn in_queue_thread() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

/// The running task ended the program: record `o` on the queue, count the
/// task done, hand the rest of the queue to a fresh thread, park forever.
pub(crate) fn fail_task(o: Outcome) -> ! {
    let Some(q) = CURRENT.with(|c| c.borrow_mut().take()) else { crate::hosted::terminate_here(o) };
    crate::support::release_lock_if_held();
    {
        let mut s = q.lock();
        s.failed.get_or_insert(o);
        s.completed += 1;
        s.started = false;
        if !s.tasks.is_empty() {
            q.start(&mut s);
        }
        q.done.notify_all();
    }
    crate::hosted::park_forever()
}

/// The queues of one device.
pub struct Queues {
    inline: bool,
    /// A child of `fork()` starts with no queues (their threads are gone;
    /// see `fork.rs`).
    map: PerProcess<Mutex<HashMap<i64, Arc<Queue>>>>,
    /// Hardware streams replace the threads (see the module docs).
    streams: Option<Box<dyn Streams>>,
}

fn no_queues() -> Mutex<HashMap<i64, Arc<Queue>>> {
    Mutex::new(HashMap::new())
}

fn physical(v: i64) -> i64 {
    if v < 0 {
        -1
    } else {
        v % PHYSICAL
    }
}

impl Queues {
    /// `inline`: run submitted work at once on the caller (host device).
    pub fn new(inline: bool) -> Queues {
        Queues { inline, map: PerProcess::new(no_queues), streams: None }
    }

    /// Queues served by hardware streams.
    pub fn with_streams(streams: Box<dyn Streams>) -> Queues {
        Queues { inline: false, map: PerProcess::new(no_queues), streams: Some(streams) }
    }

    /// The device's streams, when its queues are streams.
    pub fn streams(&self) -> Option<&dyn Streams> {
        self.streams.as_deref()
    }

    fn map(&self) -> MutexGuard<'_, HashMap<i64, Arc<Queue>>> {
        self.map.get().lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The queue of async value `v` (a resolved value: ≥ 0 or noval).
    pub fn queue(&self, v: i64) -> Arc<Queue> {
        self.map().entry(physical(v)).or_default().clone()
    }

    fn existing(&self, v: i64) -> Option<Arc<Queue>> {
        self.map().get(&physical(v)).cloned()
    }

    /// Runs `t` after everything already on queue `v`.
    pub fn submit(&self, v: i64, t: Task) {
        if let Some(s) = &self.streams {
            // After the stream's work; a stream error is reported by the next wait.
            let _ = s.sync(Some(v));
            t();
        } else if self.inline {
            t();
        } else {
            self.queue(v).submit(t);
        }
    }

    /// `acc_async_test`: nonzero when queue `v` is idle.
    pub fn test(&self, v: i64) -> bool {
        if let Some(s) = &self.streams {
            return s.idle(v).unwrap_or(true);
        }
        self.existing(v).is_none_or(|q| q.idle())
    }

    pub fn test_all(&self) -> bool {
        if let Some(s) = &self.streams {
            return s.used().into_iter().all(|v| s.idle(v).unwrap_or(true));
        }
        self.map().values().all(|q| q.idle())
    }

    /// (queue, ticket) of every queue, or of the listed async values.
    pub fn snapshot(&self, which: Option<&[i64]>) -> Vec<(i64, Arc<Queue>, u64)> {
        match which {
            None => self.map().iter().map(|(k, q)| (*k, q.clone(), q.snapshot())).collect(),
            Some(vs) => vs.iter().filter_map(|v| self.existing(*v).map(|q| (*v, q.clone(), q.snapshot()))).collect(),
        }
    }

    /// Blocks until every queue (but `except`) has drained what it had;
    /// the first failed task found is the error.
    pub fn wait_all(&self, except: Option<i64>) -> AccResult<()> {
        let mut r = Ok(());
        if let Some(s) = &self.streams {
            for v in s.used().into_iter().filter(|v| Some(*v) != except) {
                let w = s.sync(Some(v));
                if r.is_ok() {
                    r = w;
                }
            }
            return r;
        }
        for (k, q, t) in self.snapshot(None) {
            if Some(k) != except.map(physical) {
                let w = q.wait_for(t);
                if r.is_ok() {
                    r = w;
                }
            }
        }
        r
    }
}

/// Resolves an async argument: `None` for synchronous, `Some(queue value)`.
pub fn resolve(async_: i64) -> AccResult<Option<i64>> {
    match async_ {
        acc_async_sync => Ok(None),
        acc_async_noval | acc_async_default => match device::default_async() {
            acc_async_sync => Ok(None),
            v => Ok(Some(v)),
        },
        v if v >= 0 => Ok(Some(v)),
        v => Err(AccError::invalid_async(v)),
    }
}

/// Resolves a wait argument (a queue to wait for): `None` for
/// `acc_async_sync` (nothing to wait for).
pub fn resolve_wait(v: i64) -> AccResult<Option<i64>> {
    resolve(v)
}

/// The `wait` directive / `acc_wait*` family on device `dev`: waits for the
/// listed queues (`None`: all), blocking the host when `async_` is
/// `acc_async_sync`, else enqueueing the wait on `async_`'s queue.
pub fn wait(dev: &'static Device, queues: Option<&[i64]>, async_: i64, loc: Option<&str>, implicit: bool) -> AccResult<()> {
    let resolved: Option<Vec<i64>> = match queues {
        None => None,
        Some(qs) => Some(qs.iter().map(|q| resolve_wait(*q)).collect::<AccResult<Vec<_>>>()?.into_iter().flatten().collect()),
    };
    let target = resolve(async_)?;
    if let Some(s) = dev.queues.streams() {
        let list = resolved.unwrap_or_else(|| s.used());
        for v in list {
            match target {
                Some(t) if t == v => {}
                Some(t) => s.order(Some(t), v)?,
                None => {
                    let ev = |kind, tool_info| Event {
                        kind,
                        construct: acc_construct_wait,
                        implicit,
                        device_type: dev.ty.to_acc(),
                        device_num: dev.num as i32,
                        async_: v,
                        loc,
                        tool_info,
                        ..Event::default()
                    };
                    let ti = if prof::active() { prof::emit(&ev(acc_ev_wait_start, 0)) } else { 0 };
                    let r = s.sync(Some(v));
                    if prof::active() {
                        prof::emit(&ev(acc_ev_wait_end, ti));
                    }
                    r?;
                }
            }
        }
        return Ok(());
    }
    let mut snaps = dev.queues.snapshot(resolved.as_deref());
    if let Some(t) = target {
        // Waiting on the target queue itself is implied by its order.
        snaps.retain(|(k, _, _)| physical(*k) != physical(t));
        if snaps.is_empty() {
            return Ok(());
        }
        dev.queues.submit(
            t,
            Box::new(move || {
                // A failure stays recorded on its own queue for its own waiters.
                for (_, q, ticket) in snaps {
                    drop(q.wait_done(ticket));
                }
            }),
        );
        return Ok(());
    }
    for (k, q, ticket) in snaps {
        let ev = |kind, tool_info| Event {
            kind,
            construct: acc_construct_wait,
            implicit,
            device_type: dev.ty.to_acc(),
            device_num: dev.num as i32,
            async_: k,
            loc,
            tool_info,
            ..Event::default()
        };
        let ti = if prof::active() { prof::emit(&ev(acc_ev_wait_start, 0)) } else { 0 };
        let r = q.wait_for(ticket);
        if prof::active() {
            prof::emit(&ev(acc_ev_wait_end, ti));
        }
        r?;
    }
    Ok(())
}

/// `acc_wait_any`: index of a listed queue that is idle (waiting until one
/// is), -1 when all entries are `acc_async_sync` or the list is empty.
pub fn wait_any(dev: &'static Device, queues: &[i64]) -> AccResult<i32> {
    let mut live = Vec::new();
    for (i, q) in queues.iter().enumerate() {
        if let Some(v) = resolve_wait(*q)? {
            live.push((i, v));
        }
    }
    if live.is_empty() {
        return Ok(-1);
    }
    let mut spins = 0u32;
    loop {
        for &(i, v) in &live {
            if dev.queues.test(v) {
                return Ok(i as i32);
            }
        }
        spins += 1;
        if spins < 100 {
            std::thread::yield_now();
        } else {
            std::thread::sleep(std::time::Duration::from_micros(50));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn in_order_and_wait() {
        let qs = Queues::new(false);
        let log = Arc::new(Mutex::new(Vec::new()));
        for i in 0..20 {
            let l = log.clone();
            qs.submit(
                3,
                Box::new(move || {
                    if i == 0 {
                        std::thread::sleep(Duration::from_millis(200));
                    }
                    l.lock().unwrap().push(i)
                }),
            );
        }
        assert!(!qs.test(3), "first task sleeps, so the queue cannot be idle yet");
        assert!(qs.test(4), "an unused queue is idle");
        qs.wait_all(None).unwrap();
        assert!(qs.test(3) && qs.test_all());
        assert_eq!(*log.lock().unwrap(), (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn cross_queue_wait_orders_work() {
        let qs = Arc::new(Queues::new(false));
        let log = Arc::new(Mutex::new(Vec::new()));
        let l = log.clone();
        qs.submit(
            1,
            Box::new(move || {
                std::thread::sleep(Duration::from_millis(30));
                l.lock().unwrap().push("q1");
            }),
        );
        // queue 2 waits for queue 1's current work, then logs
        let snaps = qs.snapshot(Some(&[1]));
        qs.submit(
            2,
            Box::new(move || {
                for (_, q, t) in snaps {
                    q.wait_for(t).unwrap();
                }
            }),
        );
        let l = log.clone();
        qs.submit(2, Box::new(move || l.lock().unwrap().push("q2")));
        qs.wait_all(None).unwrap();
        assert_eq!(*log.lock().unwrap(), vec!["q1", "q2"]);
    }

    #[test]
    fn inline_queues_run_at_once() {
        let qs = Queues::new(true);
        let hit = Arc::new(Mutex::new(false));
        let h = hit.clone();
        qs.submit(0, Box::new(move || *h.lock().unwrap() = true));
        assert!(*hit.lock().unwrap());
    }

    #[test]
    fn resolve_async_values() {
        assert_eq!(resolve(acc_async_sync).unwrap(), None);
        assert_eq!(resolve(5).unwrap(), Some(5));
        assert_eq!(resolve(acc_async_noval).unwrap(), Some(device::default_async()));
        assert_eq!(resolve(-7).unwrap_err().code, acc_error_invalid_async);
    }
}

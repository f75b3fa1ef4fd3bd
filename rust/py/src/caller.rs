//! Running native code from Python: inline when short, else off the Python
//! thread, interruptibly.
//!
//! A call expected to be short ([`ShortCalls`]: the callee's last call took
//! < [`GUEST_MAX`] and this one is no bigger) runs *inline*: on the calling
//! thread, with the GIL released, on a big stack of its own (a coroutine on
//! a per-thread [`STACK_BYTES`] stack with a guard page, reused from call
//! to call), so a handful of microseconds of hand-off to another core is
//! saved. When the C program ends early there, the runtime's abandon hook
//! (`hosted::AbandonHook`) suspends the coroutine for good: the caller gets
//! the [`Outcome`] and the abandoned stack is leaked with what the call
//! borrowed, never reused — the same contract as a parked worker thread.
//! Such a call cannot be interrupted; it is short. `ACCJIT_CALL_INLINE=0`
//! turns this off.
//!
//! Any other call (a first call, one after a long call, a bigger one) runs
//! on a worker thread of a small persistent
//! pool while the calling thread waits with the GIL released, in slices of
//! [`SLICE`], running Python's signal handlers between slices. Ctrl-C thus
//! raises `KeyboardInterrupt` in Python within ~50 ms. The native call itself
//! cannot be stopped: it is *abandoned* — it keeps its worker thread (and the
//! arrays it was given, which the job owns) until it returns on its own; its
//! result is then dropped.
//!
//! A *hosted* call (the default) runs under `accjit_runtime::hosted`: when
//! the C program ends early — a runtime error, `exit`, `abort`, a failed
//! `assert` — the runtime hands the [`Outcome`] to the waiting caller
//! ([`CallFailure::Program`]) and parks the worker thread forever (it is
//! never reused; what the call borrowed stays alive with it). The Python
//! process goes on. A call that is not hosted (`accjit run`) lets those end
//! the process, as for a compiled C program.
//!
//! Hand-off cost matters (a tiny kernel launch from Python should cost a few
//! microseconds): an idle worker polls for [`WORKER_SPIN`] after each job
//! before it parks, the caller spins for [`CALLER_SPIN`] before it releases
//! the GIL (only when the previous call was that short), and a worker
//! returns itself to the idle list *before* it reports completion, so
//! back-to-back calls reuse the same warm thread. A child of `fork()`
//! starts with no idle workers (the parent's threads do not exist there;
//! see `accjit_runtime::fork`).
//!
//! While the call runs, the caller does not sleep: it lends itself to the
//! kernel pool as a guest (`accjit_runtime::pool::Guest`) and runs gangs of
//! the call's launches in place of a pool worker, which sits them out. So
//! the waiting thread neither takes a core from the gangs nor needs a
//! wake-up when the call ends (tens of µs on a busy or virtual machine).
//! After [`GUEST_IDLE`] with no gang to run (host code, a kernel that must
//! not run on this thread, another device) it parks until the call ends.
//! A gang cannot be stopped, so a guest busy in one cannot raise
//! `KeyboardInterrupt`: it is a guest only for calls expected to be short
//! ([`ShortCalls`]: the function's last call took < [`GUEST_MAX`] and this
//! one is no bigger), where Ctrl-C waits at most that long anyway. Such
//! calls run inline unless `ACCJIT_CALL_INLINE=0` (or the thread is already
//! in a hosted call, or no stack could be mapped): only then is the waiting
//! thread a guest.

use accjit_runtime::fork::PerProcess;
use accjit_runtime::hosted::{self, AbandonHook, Outcome};
use accjit_runtime::pool::{Assisted, Guest};
use corosensei::stack::{DefaultStack, Stack};
use corosensei::{Coroutine, CoroutineResult, Yielder};
use pyo3::prelude::*;
use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::*};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long the caller waits between signal checks.
pub const SLICE: Duration = Duration::from_millis(50);
/// How long an idle worker polls for the next job before parking (pure
/// spinning only briefly, then yielding: see `pool::spin_until`).
pub const WORKER_SPIN: Duration = Duration::from_micros(200);
/// How long the caller polls for completion (holding the GIL) when the
/// previous call was shorter than this; after a longer one it does not, so
/// that it leaves the cores to the kernel's threads.
pub const CALLER_SPIN: Duration = Duration::from_micros(30);
/// How long the caller, as a pool guest, waits for a gang before it parks.
pub const GUEST_IDLE: Duration = Duration::from_micros(500);
/// Calls that may take longer than this do not let the waiting thread run
/// gangs as a pool guest (see [`ShortCalls`]).
pub const GUEST_MAX: Duration = Duration::from_millis(2);
/// Calls run inline, calls handed to a worker thread, and inline calls
/// abandoned (ended early: their stacks are leaked), for `call_stats()`.
static INLINE_CALLS: AtomicU64 = AtomicU64::new(0);
static WORKER_CALLS: AtomicU64 = AtomicU64::new(0);
static ABANDONED_STACKS: AtomicU64 = AtomicU64::new(0);

/// `{inline, worker, abandoned_stacks}`: how many calls from Python ran
/// inline on the calling thread, how many were handed to a worker thread,
/// and how many inline calls ended early and left their stack behind.
#[pyfunction]
pub fn call_stats(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    let d = pyo3::types::PyDict::new(py);
    d.set_item("inline", INLINE_CALLS.load(Relaxed))?;
    d.set_item("worker", WORKER_CALLS.load(Relaxed))?;
    d.set_item("abandoned_stacks", ABANDONED_STACKS.load(Relaxed))?;
    Ok(d)
}

/// Nanoseconds the last call took (see [`CALLER_SPIN`]).
static LAST_CALL_NS: AtomicU64 = AtomicU64::new(0);
/// Idle workers kept for reuse.
const MAX_IDLE: usize = 4;
/// The Python objects whose memory a call uses (see [`run_interruptible`]);
/// a few inline, so that a call allocates nothing for them.
pub type Keep = smallvec::SmallVec<[Py<PyAny>; 4]>;

/// Stack of a worker or an inline call: C programs keep big arrays on the stack.
const STACK_BYTES: usize = 64 << 20;

/// A job runs the native call and returns the closure that reports its result.
type Job = Box<dyn FnOnce() -> Box<dyn FnOnce() + Send> + Send + 'static>;

struct Worker {
    job: Mutex<Option<Job>>,
    has_job: AtomicBool,
    parked: AtomicBool,
    cv: Condvar,
}

/// Idle workers of this process (a child of `fork()` starts with none: the
/// parent's threads do not exist there; see `accjit_runtime::fork`).
static IDLE: PerProcess<Mutex<Vec<Arc<Worker>>>> = PerProcess::new(|| Mutex::new(Vec::new()));

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn submit(job: Job) -> Result<(), String> {
    let w = lock(IDLE.get()).pop();
    match w {
        Some(w) => {
            {
                let mut g = lock(&w.job);
                *g = Some(job);
                w.has_job.store(true, SeqCst);
            }
            if w.parked.load(SeqCst) {
                w.cv.notify_one();
            }
            Ok(())
        }
        None => spawn_worker(Some(job)),
    }
}

/// Done once per process, ahead of the first call (at `_core`'s import),
/// so that the first call does not pay for it: an idle worker thread (its
/// spawn and start, ~0.1 ms on a virtual machine) and the importing
/// thread's inline stack (a 64 MiB mapping). A child of `fork()` starts its
/// worker at its first call.
pub fn prestart() {
    if lock(IDLE.get()).is_empty() {
        let _ = spawn_worker(None);
    }
    if inline_enabled() {
        INLINE_STACK.with(|s| {
            let mut s = s.borrow_mut();
            if s.is_none() {
                *s = DefaultStack::new(STACK_BYTES).ok().map(|stack| {
                    let top = stack.base().get();
                    // SAFETY: the top PREFAULT bytes of the fresh mapping, unused.
                    unsafe { std::ptr::write_bytes((top - PREFAULT) as *mut u8, 0, PREFAULT) };
                    Box::new(stack)
                });
            }
        });
    }
}

/// How much of a fresh stack [`prestart`] touches, so that the first call
/// on it does not take a page fault per page (~1-2 µs each on a VM).
const PREFAULT: usize = 64 << 10;

/// Touches the top [`PREFAULT`] bytes of the calling thread's stack.
#[inline(never)]
fn prefault_stack() {
    let mut block = [0u8; PREFAULT];
    std::hint::black_box(&mut block);
}

/// Starts a worker thread running `first`, or an idle one (on the idle
/// list as soon as it exists, so that a call can hand it a job before it
/// has even started running).
fn spawn_worker(first: Option<Job>) -> Result<(), String> {
    let has_job = first.is_some();
    let w = Arc::new(Worker { job: Mutex::new(first), has_job: AtomicBool::new(has_job), parked: AtomicBool::new(false), cv: Condvar::new() });
    let w2 = w.clone();
    std::thread::Builder::new()
        .name("accjit-call".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            if !has_job {
                prefault_stack();
            }
            worker_loop(w2)
        })
        .map_err(|e| format!("cannot start a thread for the call: {e}"))?;
    if !has_job {
        lock(IDLE.get()).push(w);
    }
    Ok(())
}

fn worker_loop(w: Arc<Worker>) {
    loop {
        accjit_runtime::pool::spin_until(WORKER_SPIN, || w.has_job.load(Acquire));
        let job = {
            let mut g = lock(&w.job);
            if g.is_none() {
                w.parked.store(true, SeqCst);
                while g.is_none() {
                    g = w.cv.wait(g).unwrap_or_else(|e| e.into_inner());
                }
                w.parked.store(false, SeqCst);
            }
            w.has_job.store(false, SeqCst);
            g.take()
        };
        let Some(job) = job else { continue };
        let report = job();
        // Back on the idle list before the caller hears of completion, so
        // that its next call finds this (warm) thread.
        let keep = {
            let mut idle = lock(IDLE.get());
            if idle.len() < MAX_IDLE {
                idle.push(w.clone());
                true
            } else {
                false
            }
        };
        report();
        if !keep {
            return;
        }
    }
}

/// Why a call gave no value.
#[derive(Debug)]
pub enum CallFailure {
    /// A panic in accjit, or no thread to run on: an internal error.
    Internal(String),
    /// The hosted C program ended early.
    Program(Outcome),
}

struct Slot<T> {
    done: AtomicBool,
    waiting: AtomicBool,
    value: Mutex<Option<Result<T, CallFailure>>>,
    cv: Condvar,
}

impl<T> Slot<T> {
    /// Hands the result to the waiting caller (the first one counts).
    fn report(&self, r: Result<T, CallFailure>) {
        {
            let mut v = lock(&self.value);
            if self.done.load(SeqCst) {
                return;
            }
            *v = Some(r);
            self.done.store(true, SeqCst);
        }
        if self.waiting.load(SeqCst) {
            let _g = lock(&self.value);
            self.cv.notify_all();
        }
    }
}

/// How much work a call's arguments could ask for: the elements of its
/// arrays plus the magnitudes of its integer scalars (loop counts). A call
/// no bigger than a call that was short is expected to be short too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct CallSize(u64);

impl CallSize {
    /// An integer argument (a loop count, an array extent).
    pub fn add_int(&mut self, v: i128) {
        self.0 = self.0.saturating_add(v.unsigned_abs().min(u64::MAX as u128) as u64);
    }

    /// An array argument of `n` elements.
    pub fn add_elements(&mut self, n: u64) {
        self.0 = self.0.saturating_add(n);
    }
}

/// What the past calls of one callee (a C function, a Python kernel's
/// specialisation, a program's `main`) say about the next: whether it may
/// let the waiting thread run gangs as a pool guest.
#[derive(Debug, Default)]
pub struct ShortCalls {
    /// 1 + the biggest [`CallSize`] of the calls since the last one that
    /// took [`GUEST_MAX`] or more; 0 when the last call was that long (or
    /// none was made).
    short_size: AtomicU64,
}

impl ShortCalls {
    /// A call of `size` is expected to be short.
    fn admits(&self, size: CallSize) -> bool {
        let short = self.short_size.load(Relaxed);
        short != 0 && size.0 < short
    }

    /// A call of `size` took `took` (interrupted and failed calls count too).
    fn record(&self, size: CallSize, took: Duration) {
        self.record_short(size, took < GUEST_MAX)
    }

    /// A call of `size` took less than [`GUEST_MAX`] (`short`) or not.
    fn record_short(&self, size: CallSize, short: bool) {
        if short {
            self.short_size.fetch_max(size.0.saturating_add(1), Relaxed);
        } else {
            self.short_size.store(0, Relaxed);
        }
    }
}

/// Runs `f` on a worker thread and waits for it with the GIL released,
/// checking for signals every [`SLICE`]. A panic in `f` becomes
/// `Err(Internal(message))` (turned into `RuntimeError` by the caller); with
/// `hosted`, a program that ends early is `Err(Program(outcome))`. A pending
/// `KeyboardInterrupt` (or any exception a signal handler raises) is
/// returned at once.
///
/// `calls` and `size` decide whether the waiting thread runs gangs as a
/// pool guest: only when `calls` admits a call of `size`, that is when the
/// call is expected to be short; this call then teaches `calls`.
///
/// `keep` holds the Python objects whose memory the call uses: they live
/// until it returns (forever when it is abandoned). An inline call drops
/// them on the caller's side with the GIL held (no deferred decrefs).
pub fn run_interruptible<T, F>(py: Python<'_>, hosted: bool, calls: &ShortCalls, size: CallSize, keep: Keep, f: F) -> PyResult<Result<T, CallFailure>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let guest = calls.admits(size);
    if guest && hosted && inline_enabled() && !hosted::is_hosted() {
        if let Some(stack) = inline_stack() {
            INLINE_CALLS.fetch_add(1, Relaxed);
            let t0 = call_clock::now();
            let (r, abandoned) = run_inline(py, stack, f);
            calls.record_short(size, call_clock::shorter_than_guest_max(t0));
            if abandoned {
                // What the abandoned call borrowed stays alive with its stack.
                std::mem::forget(keep);
            }
            return Ok(r);
        }
    }
    WORKER_CALLS.fetch_add(1, Relaxed);
    let slot = Arc::new(Slot { done: AtomicBool::new(false), waiting: AtomicBool::new(false), value: Mutex::new(None), cv: Condvar::new() });
    let s2 = slot.clone();
    let job: Job = Box::new(move || {
        let started = Instant::now();
        let r = if hosted {
            let s3 = s2.clone();
            // On an early end this runs on this thread, which then parks.
            let deliver: hosted::Deliver = Box::new(move |o| s3.report(Err(CallFailure::Program(o))));
            catch_unwind(AssertUnwindSafe(move || hosted::run_hosted(deliver, f)))
        } else {
            catch_unwind(AssertUnwindSafe(f))
        };
        drop(keep);
        let r = r.map_err(|p| CallFailure::Internal(crate::panic_message(&*p)));
        // The native run's own time decides whether the next caller spins:
        // the caller's wait includes its own wake-up, which not spinning
        // makes slow, so it would keep every later call slow too.
        LAST_CALL_NS.store(started.elapsed().as_nanos().min(u64::MAX as u128) as u64, Relaxed);
        Box::new(move || s2.report(r))
    });
    if let Err(e) = submit(job) {
        return Ok(Err(CallFailure::Internal(e)));
    }
    let t0 = Instant::now();
    let r = wait(py, &slot, guest);
    let took = t0.elapsed();
    calls.record(size, took);
    r
}

/// Timing inline calls against [`GUEST_MAX`] cheaply: `clock_gettime`
/// costs 20-50 ns on a virtual machine, twice per call, a tenth of an empty
/// call from Python. On x86-64 the time-stamp counter (a few ns to read)
/// serves, once calibrated against `Instant` over the first ≥ 20 ms of
/// inline calls; until then, and elsewhere, `Instant` does. A counter that
/// goes backwards or is off only makes a call look long (the next one then
/// goes to a worker thread), never wrong.
mod call_clock {
    use super::GUEST_MAX;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
    use std::sync::OnceLock;
    use std::time::{Duration, Instant};

    /// When a call began: counter ticks, or time since [`base`].
    #[derive(Clone, Copy)]
    pub enum Stamp {
        Ticks(u64),
        Since(Duration),
    }

    /// [`GUEST_MAX`] in counter ticks; 0 until calibrated.
    static GUEST_MAX_TICKS: AtomicU64 = AtomicU64::new(0);
    /// How long the calibration runs before it is trusted.
    const CALIBRATION: Duration = Duration::from_millis(20);

    #[cfg(target_arch = "x86_64")]
    fn ticks() -> Option<u64> {
        // SAFETY: `rdtsc` exists on every x86-64 CPU.
        Some(unsafe { std::arch::x86_64::_rdtsc() })
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn ticks() -> Option<u64> {
        None
    }

    /// The first reading: (time, ticks) the calibration starts from.
    fn base() -> &'static (Instant, Option<u64>) {
        static BASE: OnceLock<(Instant, Option<u64>)> = OnceLock::new();
        BASE.get_or_init(|| (Instant::now(), ticks()))
    }

    pub fn now() -> Stamp {
        if GUEST_MAX_TICKS.load(Relaxed) != 0 {
            if let Some(t) = ticks() {
                return Stamp::Ticks(t);
            }
        }
        Stamp::Since(base().0.elapsed())
    }

    /// Whether the call that began at `t0` took less than [`GUEST_MAX`].
    pub fn shorter_than_guest_max(t0: Stamp) -> bool {
        match t0 {
            Stamp::Ticks(t) => ticks().is_some_and(|now| now.wrapping_sub(t) < GUEST_MAX_TICKS.load(Relaxed)),
            Stamp::Since(d) => {
                let (at, base_ticks) = *base();
                let elapsed = at.elapsed();
                if let (Some(b), Some(now)) = (base_ticks, ticks()) {
                    if elapsed >= CALIBRATION && now > b {
                        let per_ns = (now - b) as f64 / elapsed.as_nanos() as f64;
                        let max = (GUEST_MAX.as_nanos() as f64 * per_ns) as u64;
                        if max > 0 {
                            GUEST_MAX_TICKS.store(max, Relaxed);
                        }
                    }
                }
                elapsed.saturating_sub(d) < GUEST_MAX
            }
        }
    }
}

/// `ACCJIT_CALL_INLINE=0` turns inline calls off (read once).
fn inline_enabled() -> bool {
    // 0: not read yet, 1: on, 2: off.
    static INLINE: AtomicU8 = AtomicU8::new(0);
    match INLINE.load(Relaxed) {
        1 => true,
        2 => false,
        _ => {
            let on = std::env::var("ACCJIT_CALL_INLINE").map_or(true, |v| v.trim() != "0");
            INLINE.store(if on { 1 } else { 2 }, Relaxed);
            on
        }
    }
}

thread_local! {
    /// This thread's stack for inline calls, while none runs on it.
    static INLINE_STACK: RefCell<Option<Box<DefaultStack>>> = const { RefCell::new(None) };
    /// The outcome of an inline call that ended early, from its deliver hook.
    static ENDED: Cell<Option<Outcome>> = const { Cell::new(None) };
}

/// This thread's inline stack (a fresh one after an abandoned call), or
/// `None` when none can be mapped.
fn inline_stack() -> Option<Box<DefaultStack>> {
    INLINE_STACK.with(|s| s.borrow_mut().take()).or_else(|| DefaultStack::new(STACK_BYTES).ok().map(Box::new))
}

/// The abandon hook of an inline call: back to the caller, for good.
///
/// # Safety
/// `yielder` is the live `Yielder` of the coroutine running on this thread.
unsafe fn leave_inline(yielder: *const ()) -> ! {
    let y = &*(yielder as *const Yielder<(), ()>);
    loop {
        y.suspend(());
    }
}

/// Moves a value into `py.detach` (a coroutine holds raw stack pointers).
struct SendCell<T>(T);
// SAFETY: the coroutine is created, resumed and dropped on this thread; the
// closure given to `py.detach` runs on this thread too.
unsafe impl<T> Send for SendCell<T> {}

impl<T> SendCell<T> {
    /// The value (a method, so that a closure captures the whole cell).
    fn into_inner(self) -> T {
        self.0
    }
}

/// Runs `f` as a hosted call on this thread, on `stack` (see the module
/// docs), with the GIL released; true with the result when the call was
/// abandoned (its stack left for good).
fn run_inline<T, F>(py: Python<'_>, stack: Box<DefaultStack>, f: F) -> (Result<T, CallFailure>, bool)
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let stack = Box::into_raw(stack);
    let body = move |y: &Yielder<(), ()>, ()| -> Result<T, CallFailure> {
        // SAFETY: `leave_inline` suspends this coroutine, whose yielder
        // lives as long as the coroutine, and is never resumed again.
        let _hook = unsafe { AbandonHook { leave: leave_inline, data: y as *const Yielder<(), ()> as *const () }.install() };
        let deliver: hosted::Deliver = Box::new(|o| ENDED.with(|e| e.set(Some(o))));
        catch_unwind(AssertUnwindSafe(move || hosted::run_hosted(deliver, f))).map_err(|p| CallFailure::Internal(crate::panic_message(&*p)))
    };
    // SAFETY: the coroutine borrows `*stack`, which stays allocated until
    // the coroutine is dropped after returning, or forever (leaked) when it
    // is abandoned; `body` is 'static otherwise.
    let co = unsafe { Coroutine::with_stack_unchecked(&mut *stack, body) };
    let mut co = co;
    let resume = SendCell(&mut co);
    let r = py.detach(move || SendCell(resume.into_inner().resume(()))).into_inner();
    match r {
        CoroutineResult::Return(r) => {
            drop(co);
            // SAFETY: the coroutine that borrowed the stack is done and gone.
            let stack = unsafe { Box::from_raw(stack) };
            INLINE_STACK.with(|s| *s.borrow_mut() = Some(stack));
            (r, false)
        }
        CoroutineResult::Yield(()) => {
            // Abandoned: its stack (and what the call borrowed) stays as is.
            std::mem::forget(co);
            ABANDONED_STACKS.fetch_add(1, Relaxed);
            (Err(ENDED.with(|e| e.take()).map_or_else(|| CallFailure::Internal("call result lost".into()), CallFailure::Program)), true)
        }
    }
}

/// Waits for `slot`: a short poll with the GIL held (after short calls),
/// then parked in slices, checking signals between them.
fn wait<T: Send>(py: Python<'_>, slot: &Slot<T>, guest: bool) -> PyResult<Result<T, CallFailure>> {
    let t0 = Instant::now();
    // Polling while a kernel runs would take a core from its gangs (the
    // pool has one thread per core): after a long call, park at once.
    if LAST_CALL_NS.load(Relaxed) < CALLER_SPIN.as_nanos() as u64 {
        let mut n = 0u32;
        while !slot.done.load(Acquire) {
            n = n.wrapping_add(1);
            if n.is_multiple_of(32) && t0.elapsed() > CALLER_SPIN {
                break;
            }
            std::hint::spin_loop();
        }
    }
    if slot.done.load(Acquire) {
        return Ok(take(slot));
    }
    if let Some(guest) = guest.then(Guest::enter).flatten() {
        loop {
            let done = || slot.done.load(Acquire);
            match py.detach(|| guest.assist(GUEST_IDLE, Instant::now() + SLICE, done)) {
                Assisted::Done => return Ok(take(slot)),
                Assisted::Idle => break,
                Assisted::Deadline => py.check_signals()?,
            }
        }
    }
    slot.waiting.store(true, SeqCst);
    loop {
        let finished = py.detach(|| {
            let g = lock(&slot.value);
            let (g, _) = slot.cv.wait_timeout_while(g, SLICE, |v| v.is_none()).unwrap_or_else(|e| e.into_inner());
            g.is_some()
        });
        if finished {
            return Ok(take(slot));
        }
        py.check_signals()?;
    }
}

fn take<T>(slot: &Slot<T>) -> Result<T, CallFailure> {
    lock(&slot.value).take().unwrap_or_else(|| Err(CallFailure::Internal("call result lost".into())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(ints: &[i128], elements: &[u64]) -> CallSize {
        let mut s = CallSize::default();
        ints.iter().for_each(|&v| s.add_int(v));
        elements.iter().for_each(|&n| s.add_elements(n));
        s
    }

    #[test]
    fn call_size_adds_magnitudes_and_elements_saturating() {
        assert_eq!(size(&[-5, 7], &[100]), size(&[112], &[]));
        assert!(size(&[1 << 40], &[]) > size(&[10], &[1 << 20]));
        assert_eq!(size(&[i128::MIN, i128::MAX], &[u64::MAX]), size(&[], &[u64::MAX]));
    }

    #[test]
    fn call_clock_tells_short_from_long_before_and_after_calibration() {
        for _ in 0..2 {
            let t = call_clock::now();
            assert!(call_clock::shorter_than_guest_max(t), "an empty span is short");
            let t = call_clock::now();
            std::thread::sleep(GUEST_MAX + Duration::from_millis(1));
            assert!(!call_clock::shorter_than_guest_max(t), "a span over GUEST_MAX is long");
            // past the calibration time: the second round runs on the counter (x86-64)
            std::thread::sleep(Duration::from_millis(25));
            let _ = call_clock::shorter_than_guest_max(call_clock::now());
        }
        #[cfg(target_arch = "x86_64")]
        assert!(matches!(call_clock::now(), call_clock::Stamp::Ticks(_)), "calibrated after 20 ms");
    }

    #[test]
    fn guest_only_after_a_short_call_no_smaller() {
        let calls = ShortCalls::default();
        let small = size(&[10], &[16]);
        let big = size(&[1 << 40], &[16]);
        assert!(!calls.admits(small), "a first call is not known to be short");
        calls.record(small, Duration::from_micros(5));
        assert!(calls.admits(small) && calls.admits(size(&[], &[16])));
        assert!(!calls.admits(big), "a bigger call may be long");
        calls.record(big, GUEST_MAX);
        assert!(!calls.admits(small), "after a long call, no call is known to be short");
        calls.record(big, Duration::from_micros(5));
        assert!(calls.admits(big) && calls.admits(small));
    }
}

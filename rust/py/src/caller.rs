//! Running native code off the Python thread, interruptibly.
//!
//! A call into JIT-compiled code runs on a worker thread of a small persistent
//! pool while the calling thread waits with the GIL released, in slices of
//! [`SLICE`], running Python's signal handlers between slices. Ctrl-C thus
//! raises `KeyboardInterrupt` in Python within ~50 ms. The native call itself
//! cannot be stopped: it is *abandoned* — it keeps its worker thread (and the
//! arrays it was given, which the job owns) until it returns on its own; its
//! result is then dropped. Idle workers are reused, so a call costs one
//! hand-off, not a thread spawn.

use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How long the caller waits between signal checks.
pub const SLICE: Duration = Duration::from_millis(50);
/// Idle workers kept for reuse.
const MAX_IDLE: usize = 8;
/// Stack of a worker: C programs keep big arrays on the stack.
const STACK_BYTES: usize = 64 << 20;

type Job = Box<dyn FnOnce() + Send + 'static>;

static IDLE: Mutex<Vec<mpsc::Sender<Job>>> = Mutex::new(Vec::new());

fn idle() -> std::sync::MutexGuard<'static, Vec<mpsc::Sender<Job>>> {
    IDLE.lock().unwrap_or_else(|e| e.into_inner())
}

fn submit(job: Job) -> Result<(), String> {
    let mut job = job;
    loop {
        let tx = idle().pop();
        match tx {
            Some(tx) => match tx.send(job) {
                Ok(()) => return Ok(()),
                Err(mpsc::SendError(j)) => job = j, // that worker is gone; try another
            },
            None => return spawn_worker(job),
        }
    }
}

fn spawn_worker(first: Job) -> Result<(), String> {
    let (tx, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("accjit-call".into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            first();
            loop {
                {
                    let mut idle = idle();
                    if idle.len() >= MAX_IDLE {
                        return;
                    }
                    idle.push(tx.clone());
                }
                match rx.recv() {
                    Ok(job) => job(),
                    Err(_) => return,
                }
            }
        })
        .map(|_| ())
        .map_err(|e| format!("cannot start a thread for the call: {e}"))
}

struct Slot<T> {
    done: AtomicBool,
    value: Mutex<Option<Result<T, String>>>,
    cv: Condvar,
}

/// Runs `f` on a worker thread and waits for it with the GIL released,
/// checking for signals every [`SLICE`]. A panic in `f` becomes `Err(message)`
/// (turned into `RuntimeError` by the caller); a pending `KeyboardInterrupt`
/// (or any exception a signal handler raises) is returned at once.
pub fn run_interruptible<T, F>(py: Python<'_>, f: F) -> PyResult<Result<T, String>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let slot = Arc::new(Slot { done: AtomicBool::new(false), value: Mutex::new(None), cv: Condvar::new() });
    let s2 = slot.clone();
    let job: Job = Box::new(move || {
        let r = catch_unwind(AssertUnwindSafe(f)).map_err(|p| crate::panic_message(&*p));
        *s2.value.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
        s2.done.store(true, Ordering::Release);
        s2.cv.notify_all();
    });
    if let Err(e) = submit(job) {
        return Ok(Err(e));
    }
    // Short calls: a brief spin avoids a park/unpark round trip.
    for _ in 0..2000 {
        if slot.done.load(Ordering::Acquire) {
            return Ok(take(&slot));
        }
        std::hint::spin_loop();
    }
    loop {
        let finished = py.detach(|| {
            let g = slot.value.lock().unwrap_or_else(|e| e.into_inner());
            let (g, _) = slot.cv.wait_timeout_while(g, SLICE, |v| v.is_none()).unwrap_or_else(|e| e.into_inner());
            g.is_some()
        });
        if finished {
            return Ok(take(&slot));
        }
        py.check_signals()?;
    }
}

fn take<T>(slot: &Slot<T>) -> Result<T, String> {
    slot.value.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_else(|| Err("call result lost".into()))
}

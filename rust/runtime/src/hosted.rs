//! How a C program ends without ending the process that hosts it
//! (docs/runtime-abi.md "Fatal errors", DESIGN.md §6).
//!
//! Every way generated code can stop — a runtime error ([`crate::fatal`]),
//! `exit`/`_Exit`, `abort`, a failed `assert` — ends in [`terminate`] with an
//! [`Outcome`]. What happens then depends on the thread:
//!
//! - A **hosted** thread (one running a call for the Python bindings, marked
//!   by [`run_hosted`]): the structured data references the call took are
//!   released (its data regions end without copying back; dynamic ones
//!   stay), cleanups registered by the embedder run, the `__accjit_lock` is
//!   released if this thread holds it, the outcome is handed to the waiting
//!   caller through the deliver callback, and the thread parks forever. It
//!   never returns into JIT code; its stack (and whatever the call borrowed)
//!   stays valid, and the thread is leaked. A call run on a stack of its own
//!   on the caller's thread (a coroutine: see [`AbandonHook`]) leaves that
//!   stack instead of parking: the hook switches back to the caller for
//!   good, and the abandoned stack is leaked, never reused.
//! - A **gang** of a multicore launch (pool worker, or the launching thread
//!   itself): the launch is marked failed, the remaining gangs are skipped,
//!   the launcher waits for the gangs already running and then terminates
//!   itself with the outcome (see `pool.rs`). The pool is replaced.
//! - An **async queue** thread: the outcome is recorded on the queue, the
//!   task counts as done, a fresh thread serves the rest of the queue, and the
//!   next host wait on that queue terminates with it (see `queue.rs`).
//! - Any other thread (the `accjit run` CLI): libc behaviour — `exit(1)`
//!   after a runtime error, `exit(code)`, `_exit(code)`, `abort()`.
//!
//! The one-line message of a runtime error is printed once, where it
//! happens; re-raising an outcome on another thread prints nothing.

use crate::error::AccError;
use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_int, c_uint};

/// How a program ended early.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A runtime error (already reported on stderr and to error callbacks).
    Error(AccError),
    /// `exit(code)` / `_Exit(code)`.
    Exit(i32),
    /// `abort()` or a failed `assert` (the message says which).
    Abort(String),
}

/// Receives the outcome of a hosted call that ended early.
pub type Deliver = Box<dyn FnOnce(Outcome) + Send>;

/// A structured data reference taken by the current hosted call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    Data { dev: usize, addr: usize, bytes: usize },
    Attach { dev: usize, ptr_addr: usize },
}

thread_local! {
    static DELIVER: RefCell<Option<Deliver>> = const { RefCell::new(None) };
    static HOSTED: Cell<bool> = const { Cell::new(false) };
    static JOURNAL: RefCell<Vec<Held>> = const { RefCell::new(Vec::new()) };
    static CLEANUPS: RefCell<Vec<Box<dyn FnOnce()>>> = const { RefCell::new(Vec::new()) };
    static ABANDON: Cell<Option<AbandonHook>> = const { Cell::new(None) };
}

/// How a hosted call that ended early leaves its stack when it runs on a
/// stack of its own on the caller's thread (a coroutine) rather than on a
/// thread of its own: `leave(data)` switches back to the caller and never
/// returns to this stack. Set with [`AbandonHook::install`] for the
/// duration of the call; without one, the thread parks forever.
#[derive(Clone, Copy, Debug)]
pub struct AbandonHook {
    pub leave: unsafe fn(*const ()) -> !,
    pub data: *const (),
}

/// Removes the installed [`AbandonHook`] when the call returns normally.
pub struct AbandonGuard(Option<AbandonHook>);

impl AbandonHook {
    /// Installs `self` for this thread until the guard drops.
    ///
    /// # Safety
    /// `leave(data)` must be valid to call on this thread, with this
    /// thread's stack being the one the call runs on, for as long as the
    /// guard lives, and must never return to that stack.
    pub unsafe fn install(self) -> AbandonGuard {
        AbandonGuard(ABANDON.with(|a| a.replace(Some(self))))
    }
}

impl Drop for AbandonGuard {
    fn drop(&mut self) {
        ABANDON.with(|a| a.set(self.0.take()));
    }
}

/// True when this thread runs a hosted call.
pub fn is_hosted() -> bool {
    HOSTED.with(|h| h.get())
}

/// Runs `f` on this thread as a hosted call. When the program ends early
/// inside `f`, `deliver` gets the outcome and this thread never returns
/// (so run it on a thread of its own, not the caller's).
pub fn run_hosted<T>(deliver: Deliver, f: impl FnOnce() -> T) -> T {
    let was = HOSTED.with(|h| h.replace(true));
    let prev = DELIVER.with(|d| d.borrow_mut().replace(deliver));
    struct Reset(bool, Option<Option<Deliver>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            HOSTED.with(|h| h.set(self.0));
            if let Some(p) = self.1.take() {
                DELIVER.with(|d| *d.borrow_mut() = p);
            }
            if !self.0 {
                JOURNAL.with(|j| j.borrow_mut().clear());
                CLEANUPS.with(|c| c.borrow_mut().clear());
            }
        }
    }
    let _reset = Reset(was, Some(prev));
    f()
}

/// Forgets the structured references taken so far by this hosted call: they
/// are meant to outlive it (`declare` on globals, entered on first call).
pub fn commit() {
    JOURNAL.with(|j| j.borrow_mut().clear());
}

/// Registers `f` to run if the current hosted call ends early (before the
/// caller hears of it); [`pop_cleanup`] removes the latest one.
pub fn push_cleanup(f: Box<dyn FnOnce()>) {
    if is_hosted() {
        CLEANUPS.with(|c| c.borrow_mut().push(f));
    }
}

pub fn pop_cleanup() {
    if is_hosted() {
        CLEANUPS.with(|c| drop(c.borrow_mut().pop()));
    }
}

pub(crate) fn journal_push(h: Held) {
    if is_hosted() {
        JOURNAL.with(|j| j.borrow_mut().push(h));
    }
}

/// Removes the latest record equal to `h` (a structured exit).
pub(crate) fn journal_pop(h: Held) {
    if is_hosted() {
        JOURNAL.with(|j| {
            let mut j = j.borrow_mut();
            if let Some(i) = j.iter().rposition(|x| *x == h) {
                j.remove(i);
            }
        });
    }
}

/// Releases every structured reference the dead call still holds, latest first.
fn unwind_journal() {
    let held = JOURNAL.with(|j| std::mem::take(&mut *j.borrow_mut()));
    HOSTED.with(|h| h.set(false)); // no journaling (and no re-entry) while unwinding
    for h in held.into_iter().rev() {
        let _ = std::panic::catch_unwind(|| crate::data::release_held(h));
    }
    // The dead call's regions are over: their clauses are no longer in force.
    crate::data::forget_clauses_in_force();
}

/// Ends the current program with `o` as described in the module docs.
pub fn terminate(o: Outcome) -> ! {
    if crate::pool::in_launch() {
        crate::pool::fail_gang(o.clone());
    }
    if crate::queue::in_queue_thread() {
        crate::queue::fail_task(o);
    }
    terminate_here(o)
}

/// [`terminate`] for a thread that is no gang or queue thread (or no longer).
pub(crate) fn terminate_here(o: Outcome) -> ! {
    crate::support::release_lock_if_held();
    if is_hosted() {
        flush_c_stdio();
        unwind_journal();
        let cleanups = CLEANUPS.with(|c| std::mem::take(&mut *c.borrow_mut()));
        for c in cleanups.into_iter().rev() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(c));
        }
        // This thread may go on serving its caller (an abandoned coroutine):
        // nothing of the dead call may stay in its thread-local state.
        crate::compute::forget_call_arrays();
        crate::fortran::io::forget_statements();
        if let Some(d) = DELIVER.with(|d| d.borrow_mut().take()) {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| d(o)));
        }
        if let Some(hook) = ABANDON.with(|a| a.take()) {
            // SAFETY: the contract of `AbandonHook::install`, whose guard
            // is still alive (it lives on the stack being left).
            unsafe { (hook.leave)(hook.data) }
        }
        park_forever()
    }
    match o {
        Outcome::Error(_) => exit_process(1),
        Outcome::Exit(code) => exit_process(code),
        Outcome::Abort(_) => {
            flush_c_stdio();
            unsafe { libc::abort() }
        }
    }
}

/// `exit(code)` of the process, once no background thread of the runtime
/// is inside the CUDA driver (see `cuda::settle_before_exit`).
fn exit_process(code: c_int) -> ! {
    crate::cuda::settle_before_exit(EXIT_SETTLE);
    unsafe { libc::exit(code) }
}

/// How long an exiting process waits for a CUDA prewarm thread to leave the driver.
pub const EXIT_SETTLE: std::time::Duration = std::time::Duration::from_secs(5);

/// Parks this thread for the rest of the process.
pub(crate) fn park_forever() -> ! {
    loop {
        std::thread::park();
    }
}

pub(crate) fn flush_c_stdio() {
    unsafe {
        libc::fflush(std::ptr::null_mut());
    }
}

// --- the C library's ways out, bound for JIT code ---------------------------

/// `exit(code)` for generated code (bound to the name `exit`).
#[no_mangle]
pub extern "C" fn __accjit_exit(code: c_int) -> ! {
    if !is_hosted() && !crate::pool::in_launch() && !crate::queue::in_queue_thread() {
        exit_process(code)
    }
    flush_c_stdio();
    terminate(Outcome::Exit(code))
}

/// `_Exit(code)` (bound to `_Exit` and `_exit`): no atexit handlers, no flush
/// when not hosted; hosted, the same as `exit` (the process goes on, so its
/// buffered output is written).
#[no_mangle]
pub extern "C" fn __accjit_exit_now(code: c_int) -> ! {
    if !is_hosted() && !crate::pool::in_launch() && !crate::queue::in_queue_thread() {
        unsafe { libc::_exit(code) }
    }
    flush_c_stdio();
    terminate(Outcome::Exit(code))
}

/// `abort()` for generated code.
#[no_mangle]
pub extern "C" fn __accjit_abort() -> ! {
    if !is_hosted() && !crate::pool::in_launch() && !crate::queue::in_queue_thread() {
        unsafe { libc::abort() }
    }
    terminate(Outcome::Abort("abort() called".into()))
}

extern "C" {
    fn __assert_fail(expr: *const c_char, file: *const c_char, line: c_uint, func: *const c_char) -> !;
}

/// `assert` failure: `file:LINE: Assertion `e' failed.` on stderr, then as
/// `abort()` (not hosted: libc's own `__assert_fail`).
///
/// # Safety
/// `expr` and `file` must be null or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn __accjit_assert_fail(expr: *const c_char, file: *const c_char, line: i64) -> ! {
    let q = c"?".as_ptr();
    let (expr, file) = (if expr.is_null() { q } else { expr }, if file.is_null() { q } else { file });
    if !is_hosted() && !crate::pool::in_launch() && !crate::queue::in_queue_thread() {
        __assert_fail(expr, file, line as c_uint, std::ptr::null())
    }
    let e = std::ffi::CStr::from_ptr(expr).to_string_lossy();
    let f = std::ffi::CStr::from_ptr(file).to_string_lossy();
    let msg = format!("{f}:{}: Assertion `{e}' failed.", line as c_uint);
    flush_c_stdio();
    eprintln!("{msg}");
    terminate(Outcome::Abort(msg))
}

//! Living through `fork()`: the fork generation, and process-wide state
//! that starts over in a child.
//!
//! After `fork()` only the forking thread exists in the child. Every thread
//! the runtime (or the Python bindings) started — pool workers, async-queue
//! threads, call workers, CUDA prewarm threads — is gone, and a lock one of
//! them held at that moment stays locked for good. Python forks often
//! (multiprocessing's default start method before 3.14, PyTorch DataLoader
//! workers, joblib, gunicorn), so a child must work as a fresh process would.
//!
//! One mechanism: a `pthread_atfork` child handler bumps the process's
//! *fork generation* ([`generation`]); a structure that owns threads keeps
//! its state in a [`PerProcess`], which hands out a fresh value the first
//! time it is used in a new generation and forgets the inherited one —
//! never dropped (its drop could join threads that do not exist), never
//! locked (a dead thread may hold its lock). The handler does nothing but
//! an atomic increment (async-signal-safe, as a handler in the child of a
//! multi-threaded process must be); everything else starts over lazily, on
//! first use. Host memory — the present tables of host and multicore, the
//! arrays — is copied by fork and stays valid. A CUDA context does not
//! survive fork: the guard in `cuda/driver.rs` turns any use of the GPU in a child
//! of a process that initialised the driver into an error.
//!
//! Why `pthread_atfork` rather than Python's `os.register_at_fork`: it sees
//! every fork of the process (`os.fork`, multiprocessing, a C extension
//! calling `fork()`), it runs before any Python code in the child (a hook of
//! another library could call accjit first), and it keeps the runtime free
//! of Python. It is registered at the first [`generation`] call, that is
//! before the first structure that depends on it exists.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering::*};
use std::sync::Once;

/// Forks this process descends from since the handler was registered
/// (bumped in each child).
static GENERATION: AtomicU64 = AtomicU64::new(0);

extern "C" fn in_child() {
    GENERATION.fetch_add(1, Relaxed);
}

/// The fork generation of this process: changes exactly in a child of
/// `fork()` (0 in a process that never forked from one that used this).
#[inline]
pub fn generation() -> u64 {
    if !REGISTERED.load(Acquire) {
        register();
    }
    GENERATION.load(Relaxed)
}

/// The child handler is registered.
static REGISTERED: AtomicBool = AtomicBool::new(false);

#[cold]
fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(unix)]
        // SAFETY: `in_child` only increments an atomic.
        unsafe {
            libc::pthread_atfork(None, None, Some(in_child));
        }
    });
    REGISTERED.store(true, Release);
}

/// A value of which each process has its own: created by `init` at the
/// first use in a fork generation (see the module docs). The value of an
/// earlier generation is leaked, never dropped: at most one per fork.
pub struct PerProcess<T> {
    current: AtomicPtr<Slot<T>>,
    init: fn() -> T,
}

struct Slot<T> {
    generation: u64,
    value: T,
}

impl<T> PerProcess<T> {
    pub const fn new(init: fn() -> T) -> PerProcess<T> {
        PerProcess { current: AtomicPtr::new(std::ptr::null_mut()), init }
    }

    /// This process's value.
    #[inline]
    pub fn get(&self) -> &T {
        let g = generation();
        let p = self.current.load(Acquire);
        // SAFETY: a slot stays allocated while `self` lives (replaced slots
        // are leaked).
        if !p.is_null() && unsafe { (*p).generation } == g {
            return unsafe { &(*p).value };
        }
        self.renew(g)
    }

    #[cold]
    fn renew(&self, g: u64) -> &T {
        let fresh = Box::into_raw(Box::new(Slot { generation: g, value: (self.init)() }));
        let mut cur = self.current.load(Acquire);
        loop {
            // SAFETY: as in `get`.
            if !cur.is_null() && unsafe { (*cur).generation } == g {
                // Another thread of this process got there first.
                drop(unsafe { Box::from_raw(fresh) });
                return unsafe { &(*cur).value };
            }
            match self.current.compare_exchange(cur, fresh, AcqRel, Acquire) {
                // The inherited slot (if any) is leaked.
                Ok(_) => return unsafe { &(*fresh).value },
                Err(now) => cur = now,
            }
        }
    }
}

impl<T> Drop for PerProcess<T> {
    fn drop(&mut self) {
        let p = *self.current.get_mut();
        // SAFETY: the slot is ours; one of an earlier generation is leaked.
        if !p.is_null() && unsafe { (*p).generation } == generation() {
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

// SAFETY: a `PerProcess<T>` hands out `&T` to any thread, as a `T` in a
// static would.
unsafe impl<T: Send + Sync> Sync for PerProcess<T> {}
unsafe impl<T: Send> Send for PerProcess<T> {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Runs `child` in a child of `fork()` and returns its exit status
    /// (`child` returns it; the child never returns into the test harness).
    fn in_forked_child(child: impl FnOnce() -> i32) -> i32 {
        // SAFETY: the child runs `child` and `_exit`s.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(child)).unwrap_or(101);
            unsafe { libc::_exit(code) }
        }
        let mut status = 0;
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(libc::WIFEXITED(status), "the child did not exit normally ({status:#x})");
        libc::WEXITSTATUS(status)
    }

    #[test]
    fn a_child_gets_a_fresh_value_even_when_the_parents_lock_is_held() {
        static COUNT: PerProcess<Mutex<u32>> = PerProcess::new(|| Mutex::new(0));
        *COUNT.get().lock().unwrap() += 1;
        *COUNT.get().lock().unwrap() += 1;
        assert_eq!(*COUNT.get().lock().unwrap(), 2, "one value within a process");
        // Held across the fork, as by a thread that the child will not have.
        let held = COUNT.get().lock().unwrap();
        let code = in_forked_child(|| {
            let Ok(mut v) = COUNT.get().try_lock() else { return 2 };
            if *v != 0 {
                return 3;
            }
            *v += 7;
            drop(v);
            if *COUNT.get().lock().unwrap() != 7 {
                return 4;
            }
            0
        });
        assert_eq!(code, 0, "child: 2 = inherited lock, 3 = inherited value, 4 = not kept");
        drop(held);
        assert_eq!(*COUNT.get().lock().unwrap(), 2, "the parent keeps its value");
    }

    #[test]
    fn a_real_fork_bumps_the_generation_in_the_child_only() {
        let g = generation();
        assert_eq!(in_forked_child(|| i32::from(generation() <= g)), 0, "the child saw no new generation");
        assert_eq!(generation(), g, "the parent's generation moved");
    }
}

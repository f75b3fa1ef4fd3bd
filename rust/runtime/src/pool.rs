//! The persistent thread pool that runs multicore gangs.
//!
//! `n - 1` worker threads live for the life of the pool; the launching
//! thread is the n-th and always runs gang 0 itself. A launch publishes the
//! job, bumps the generation word of each worker it needs (waking it with a
//! futex only if it went to sleep), then every participant claims gangs from
//! one atomic counter until all `num_gangs` have run, so exactly `num_gangs`
//! gangs run, each once, whatever the thread count. Idle workers spin
//! briefly (~50 µs), then yield, then park on their futex; the launcher waits
//! for the participants the same way. One launch runs at a time per pool.
//!
//! A gang that ends the program (a runtime error, `exit`, `abort`; see
//! `hosted.rs`) fails the launch: a worker records the outcome, stops the
//! remaining gangs from being claimed, marks itself dead, counts itself
//! done and parks forever; the launcher, once the other participants are
//! done, terminates with the outcome itself. If the launcher's own gang
//! fails, it stops the claims, waits for the others and terminates. Either
//! way the pool is *retired*: its live workers exit, and the next launch
//! starts a fresh pool.
//!
//! Thread count: `ACCJIT_NUM_THREADS`, else `ACC_NUM_CORES`, else all cores;
//! [`set_num_threads`] changes it (the pool is rebuilt at the next launch).

use crate::hosted::Outcome;
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const SPIN: Duration = Duration::from_micros(50);
const YIELDS: u32 = 16;

thread_local! {
    /// `acc_device_t` of the compute region this thread is running a gang of
    /// (0 outside kernels); `acc_on_device` reads it.
    pub(crate) static IN_KERNEL: Cell<i32> = const { Cell::new(0) };
}

/// The device type whose kernel the calling thread is executing, if any.
pub fn in_kernel() -> Option<i32> {
    let v = IN_KERNEL.with(|c| c.get());
    (v != 0).then_some(v)
}

type Gang<'a> = &'a (dyn Fn(i64) + Sync);

#[derive(Clone, Copy)]
struct Job {
    run: *const (dyn Fn(i64) + Sync),
    n: i64,
    device: i32,
}

#[repr(align(64))]
struct Slot {
    gen: AtomicU32,
    sleeping: AtomicBool,
    /// The worker parked forever after its gang failed.
    dead: AtomicBool,
}

struct Shared {
    slots: Vec<Slot>,
    job: UnsafeCell<Option<Job>>,
    next: AtomicI64,
    pending: AtomicU32,
    launcher_sleeping: AtomicBool,
    shutdown: AtomicBool,
    /// The first outcome of a failed gang of the current launch.
    failure: Mutex<Option<Outcome>>,
    /// A launch failed: [`global`] starts a new pool.
    retired: AtomicBool,
}

// The job cell is written only by the launcher between launches (no
// participant alive) and read by participants after an acquire of their
// generation word.
unsafe impl Sync for Shared {}
unsafe impl Send for Shared {}

/// A pool of `threads - 1` workers plus the launching thread.
pub struct Pool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
    launch: Mutex<()>,
    threads: usize,
    requested: usize,
}

impl Pool {
    /// Starts `threads - 1` workers (`threads` ≥ 1).
    pub fn new(threads: usize) -> Pool {
        let requested = threads.max(1);
        let threads = requested;
        let shared = Arc::new(Shared {
            slots: (1..threads).map(|_| Slot { gen: AtomicU32::new(0), sleeping: AtomicBool::new(false), dead: AtomicBool::new(false) }).collect(),
            job: UnsafeCell::new(None),
            next: AtomicI64::new(0),
            pending: AtomicU32::new(0),
            launcher_sleeping: AtomicBool::new(false),
            shutdown: AtomicBool::new(false),
            failure: Mutex::new(None),
            retired: AtomicBool::new(false),
        });
        let mut handles = Vec::with_capacity(threads - 1);
        for w in 0..threads - 1 {
            let s = shared.clone();
            match std::thread::Builder::new().name(format!("accjit-gang-{}", w + 1)).spawn(move || worker(s, w)) {
                Ok(h) => handles.push(h),
                // Workers are slots 0..k: stop at the first failure and use fewer threads.
                Err(_) => break,
            }
        }
        let threads = handles.len() + 1;
        Pool { shared, handles, launch: Mutex::new(()), threads, requested }
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Runs `run(g)` for every `g` in `0..n`, each exactly once, over the
    /// pool; gang 0 runs on the calling thread. Returns when all are done:
    /// `None`, or the outcome of a gang on a worker that ended the program
    /// (the caller terminates with it; the pool is then retired).
    /// `device` is the `acc_device_t` `acc_on_device` reports inside.
    pub fn run(&self, n: i64, device: i32, run: Gang<'_>) -> Option<Outcome> {
        if n <= 0 {
            return None;
        }
        let participants = (n.min(self.threads as i64) - 1) as usize;
        if participants == 0 || IN_POOL.with(|c| c.get()) || self.shared.retired.load(Acquire) {
            run_sequential(n, device, run);
            return None;
        }
        let _guard = self.launch.lock().unwrap_or_else(|p| p.into_inner());
        let sh = &*self.shared;
        // Erase the lifetime: the job is used only until `pending` reaches 0 below.
        let job = Job { run: unsafe { std::mem::transmute::<Gang<'_>, Gang<'static>>(run) }, n, device };
        unsafe { *sh.job.get() = Some(job) };
        sh.next.store(1, Relaxed);
        sh.pending.store(participants as u32, Relaxed);
        for slot in &sh.slots[..participants] {
            slot.gen.fetch_add(1, SeqCst);
            if slot.sleeping.load(SeqCst) {
                futex_wake(&slot.gen);
            }
        }
        let prev = IN_KERNEL.with(|c| c.replace(device));
        IN_POOL.with(|c| c.set(true));
        ROLE.with(|r| r.set(Role::Launcher(sh as *const Shared, prev)));
        run(0);
        claim_gangs(sh, job);
        ROLE.with(|r| r.set(Role::None));
        IN_POOL.with(|c| c.set(false));
        IN_KERNEL.with(|c| c.set(prev));
        wait_zero(sh);
        unsafe { *sh.job.get() = None };
        let failed = sh.failure.lock().unwrap_or_else(|p| p.into_inner()).take();
        if failed.is_some() {
            retire(sh);
        }
        failed
    }
}

/// What the current thread does for a pool launch.
#[derive(Clone, Copy)]
enum Role {
    None,
    /// Launching (and running gangs of) a job; the `IN_KERNEL` value to restore.
    Launcher(*const Shared, i32),
    /// Worker `w` running gangs of a job.
    Worker(*const Shared, usize),
}

thread_local! {
    static ROLE: Cell<Role> = const { Cell::new(Role::None) };
}

/// True while this thread runs gangs of a pool launch (as worker or launcher).
pub fn in_launch() -> bool {
    !matches!(ROLE.with(|r| r.get()), Role::None)
}

/// Stops a failing launch (see the module docs). On a worker: records `o`
/// for the launcher and parks forever. On the launcher: stops the other
/// gangs, waits for them, retires the pool and returns (the caller then
/// terminates with its own outcome).
pub(crate) fn fail_gang(o: Outcome) {
    match ROLE.with(|r| r.replace(Role::None)) {
        Role::None => {}
        Role::Worker(sh, w) => {
            // SAFETY: the worker's `Arc<Shared>` is alive on this thread's stack.
            let sh = unsafe { &*sh };
            sh.failure.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(o);
            sh.next.store(i64::MAX / 2, SeqCst);
            sh.slots[w].dead.store(true, SeqCst);
            sh.retired.store(true, SeqCst);
            IN_KERNEL.with(|c| c.set(0));
            crate::support::release_lock_if_held();
            if sh.pending.fetch_sub(1, AcqRel) == 1 && sh.launcher_sleeping.load(SeqCst) {
                futex_wake(&sh.pending);
            }
            crate::hosted::park_forever()
        }
        Role::Launcher(sh, prev) => {
            // SAFETY: the launcher's pool is borrowed by `Pool::run` below us on this stack.
            let sh = unsafe { &*sh };
            sh.next.store(i64::MAX / 2, SeqCst);
            IN_POOL.with(|c| c.set(false));
            IN_KERNEL.with(|c| c.set(prev));
            crate::support::release_lock_if_held();
            wait_zero(sh);
            retire(sh);
        }
    }
}

/// Marks the pool unusable and lets its live workers exit.
fn retire(sh: &Shared) {
    sh.retired.store(true, SeqCst);
    sh.shutdown.store(true, SeqCst);
    for slot in &sh.slots {
        slot.gen.fetch_add(1, SeqCst);
        futex_wake(&slot.gen);
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, SeqCst);
        for slot in &self.shared.slots {
            slot.gen.fetch_add(1, SeqCst);
            futex_wake(&slot.gen);
        }
        for (h, slot) in self.handles.drain(..).zip(&self.shared.slots) {
            // A dead worker never returns: leave it parked.
            if !slot.dead.load(SeqCst) {
                let _ = h.join();
            }
        }
    }
}

thread_local! {
    static IN_POOL: Cell<bool> = const { Cell::new(false) };
}

/// Runs gangs `0..n` one after another on the calling thread.
pub fn run_sequential(n: i64, device: i32, run: Gang<'_>) {
    let prev = IN_KERNEL.with(|c| c.replace(device));
    for g in 0..n {
        run(g);
    }
    IN_KERNEL.with(|c| c.set(prev));
}

fn claim_gangs(sh: &Shared, job: Job) {
    loop {
        let g = sh.next.fetch_add(1, Relaxed);
        if g >= job.n {
            break;
        }
        unsafe { (*job.run)(g) };
    }
}

fn wait_zero(sh: &Shared) {
    let t0 = Instant::now();
    let mut i = 0u32;
    loop {
        let p = sh.pending.load(Acquire);
        if p == 0 {
            return;
        }
        i += 1;
        if !i.is_multiple_of(64) || t0.elapsed() < SPIN {
            std::hint::spin_loop();
            continue;
        }
        sh.launcher_sleeping.store(true, SeqCst);
        let p = sh.pending.load(SeqCst);
        if p != 0 {
            futex_wait(&sh.pending, p);
        }
        sh.launcher_sleeping.store(false, SeqCst);
    }
}

fn worker(sh: Arc<Shared>, w: usize) {
    let slot = &sh.slots[w];
    let mut seen = 0u32;
    IN_POOL.with(|c| c.set(true));
    loop {
        let t0 = Instant::now();
        let mut i = 0u32;
        let mut yields = 0;
        loop {
            let g = slot.gen.load(Acquire);
            if g != seen {
                seen = g;
                break;
            }
            i += 1;
            if !i.is_multiple_of(64) || t0.elapsed() < SPIN {
                std::hint::spin_loop();
                continue;
            }
            if yields < YIELDS {
                yields += 1;
                std::thread::yield_now();
                continue;
            }
            slot.sleeping.store(true, SeqCst);
            if slot.gen.load(SeqCst) == seen {
                futex_wait(&slot.gen, seen);
            }
            slot.sleeping.store(false, SeqCst);
        }
        if sh.shutdown.load(Acquire) {
            return;
        }
        let Some(job) = (unsafe { *sh.job.get() }) else { continue };
        IN_KERNEL.with(|c| c.set(job.device));
        ROLE.with(|r| r.set(Role::Worker(&*sh as *const Shared, w)));
        claim_gangs(&sh, job);
        ROLE.with(|r| r.set(Role::None));
        IN_KERNEL.with(|c| c.set(0));
        if sh.pending.fetch_sub(1, AcqRel) == 1 && sh.launcher_sleeping.load(SeqCst) {
            futex_wake(&sh.pending);
        }
    }
}

#[cfg(target_os = "linux")]
fn futex_wait(word: &AtomicU32, expected: u32) {
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word as *const AtomicU32,
            libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
            expected,
            std::ptr::null::<libc::timespec>(),
        );
    }
}

#[cfg(target_os = "linux")]
fn futex_wake(word: &AtomicU32) {
    unsafe {
        libc::syscall(libc::SYS_futex, word as *const AtomicU32, libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG, i32::MAX);
    }
}

#[cfg(not(target_os = "linux"))]
fn futex_wait(word: &AtomicU32, expected: u32) {
    if word.load(SeqCst) == expected {
        std::thread::sleep(Duration::from_micros(50));
    }
}

#[cfg(not(target_os = "linux"))]
fn futex_wake(_word: &AtomicU32) {}

// --- the process-wide pool ---------------------------------------------------

static THREADS: AtomicUsize = AtomicUsize::new(0);
static GLOBAL: Mutex<Option<Arc<Pool>>> = Mutex::new(None);

fn env_threads() -> usize {
    for var in ["ACCJIT_NUM_THREADS", "ACC_NUM_CORES"] {
        if let Ok(v) = std::env::var(var) {
            match v.trim().parse::<usize>() {
                Ok(n) if n > 0 => return n,
                _ if v.trim().is_empty() => {}
                _ => eprintln!("accjit: ignoring {var}={v:?} (expected a positive integer)"),
            }
        }
    }
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The number of threads multicore kernels run on (the default num_gangs).
pub fn num_threads() -> usize {
    let n = THREADS.load(Relaxed);
    if n != 0 {
        return n;
    }
    let n = env_threads();
    match THREADS.compare_exchange(0, n, Relaxed, Relaxed) {
        Ok(_) => n,
        Err(cur) => cur,
    }
}

/// Sets the thread count (≥ 1); the pool is rebuilt at the next launch.
pub fn set_num_threads(n: usize) {
    THREADS.store(n.max(1), Relaxed);
    let old = GLOBAL.lock().unwrap_or_else(|p| p.into_inner()).take();
    drop(old);
}

/// The process-wide pool, started (or rebuilt) with [`num_threads`] threads.
pub fn global() -> Arc<Pool> {
    let want = num_threads();
    let mut g = GLOBAL.lock().unwrap_or_else(|p| p.into_inner());
    match &*g {
        Some(p) if p.requested == want && !p.shared.retired.load(Acquire) => p.clone(),
        _ => {
            let p = Arc::new(Pool::new(want));
            *g = Some(p.clone());
            p
        }
    }
}

/// Starts the pool if it is not running (device init).
pub fn ensure_started() {
    drop(global());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    fn check_exactly_once(pool: &Pool, n: i64) {
        let hits: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
        let on_main = AtomicBool::new(false);
        let me = std::thread::current().id();
        pool.run(n, 7, &|g| {
            hits[g as usize].fetch_add(1, Relaxed);
            if g == 0 {
                on_main.store(std::thread::current().id() == me, Relaxed);
            }
            assert_eq!(in_kernel(), Some(7));
        });
        for (g, h) in hits.iter().enumerate() {
            assert_eq!(h.load(Relaxed), 1, "gang {g} of {n} ran {} times", h.load(Relaxed));
        }
        assert!(on_main.load(Relaxed), "gang 0 must run on the launching thread");
    }

    #[test]
    fn runs_exactly_n_gangs_each_once() {
        for threads in [1, 2, 3, 5] {
            let pool = Pool::new(threads);
            for n in [1, 2, 3, 4, 7, 64, 1000] {
                check_exactly_once(&pool, n);
            }
            assert_eq!(in_kernel(), None);
        }
    }

    #[test]
    fn sequential_runs_in_order_on_this_thread() {
        let order = Mutex::new(Vec::new());
        run_sequential(5, 2, &|g| order.lock().unwrap().push(g));
        assert_eq!(*order.lock().unwrap(), vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn gangs_really_run_in_parallel() {
        // Two gangs that wait for each other can only finish if they run on
        // different threads at the same time.
        let pool = Pool::new(2);
        let arrived = AtomicU64::new(0);
        pool.run(2, 7, &|_| {
            arrived.fetch_add(1, SeqCst);
            let t0 = Instant::now();
            while arrived.load(SeqCst) < 2 {
                assert!(t0.elapsed() < Duration::from_secs(10), "gangs did not run concurrently");
                std::hint::spin_loop();
            }
        });
        assert_eq!(arrived.load(SeqCst), 2);
    }

    #[test]
    fn launch_overhead_of_an_empty_kernel() {
        let pool = Pool::new(2);
        let n = pool.threads() as i64;
        for _ in 0..100 {
            pool.run(n, 7, &|_| {});
        }
        let iters = 2000;
        let t0 = Instant::now();
        for _ in 0..iters {
            pool.run(n, 7, &|_| {});
        }
        let per = t0.elapsed() / iters;
        println!("empty-kernel launch on {} threads: {:?}", pool.threads(), per);
        // Generous bound: the test machine is shared and loaded.
        assert!(per < Duration::from_millis(2), "launch overhead {per:?}");
    }
}

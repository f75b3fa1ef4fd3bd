//! The persistent thread pool that runs multicore gangs.
//!
//! `n - 1` worker threads live for the life of the pool; the launching
//! thread is the n-th. A launch publishes its job and every participant —
//! the launcher first, which always runs gang 0 — claims gangs until all
//! `num_gangs` are claimed, so exactly `num_gangs` gangs run, each once
//! with its index, whatever the thread count. The launch is complete when
//! all of its gangs are *done*, not when every worker has woken: a launcher
//! that ran every gang itself returns at once, and a worker that wakes late
//! finds nothing to claim and goes back to waiting without touching the
//! finished launch. Correctness never depends on a worker being awake,
//! alive or scheduled.
//!
//! Each participant owns a contiguous share of the gangs (the launcher the
//! first, worker `w` share `w + 1`), claims its own share in order first and
//! then takes what is left of the others'. So a thread runs the same gangs
//! launch after launch — the same rows of a grid stay in its own cache, as
//! with OpenMP's static schedule — while a thread that is slow (a busy core,
//! a farther memory controller) has its remaining gangs taken over. Each
//! share has a claim word packing the launch's generation (high 32 bits)
//! with the number of its gangs still unclaimed (low 31 bits); a claim is a
//! compare-and-swap that keeps the generation, so a worker that read a word
//! of launch `g` can never take a gang of launch `g + 1` with the arguments
//! of `g` (or the reverse): after a successful claim the launch is live
//! until that gang is counted done, and only then may the launcher return
//! and publish the next job. (The generation would have to wrap — 2³²
//! launches while one worker sleeps between its load and its swap — to fool
//! this.) Launches of more than 2³¹ − 1 gangs run as several chunks.
//!
//! Waiting: idle workers spin on one epoch word (pure spinning for
//! [`SPIN_PURE`], then spinning with a `sched_yield` every few µs, so that
//! on an oversubscribed machine the threads doing work get the core), then
//! park on a futex on that word after [`WORKER_SPIN`]; a launch bumps the
//! epoch and, only if some worker is parked, wakes as many as it has gangs
//! for with one futex call. The launcher waits for gangs still running on
//! workers the same way ([`LAUNCHER_SPIN`]), woken by the worker that
//! finishes the last gang.
//!
//! One launch runs at a time per pool: concurrent launchers (the host
//! thread and async queue threads) queue on a futex lock. A launch from
//! inside a gang runs its gangs one after another on that thread.
//!
//! A gang that ends the program (a runtime error, `exit`, `abort`; see
//! `hosted.rs`) fails the launch: its thread records the outcome, closes
//! the claim word (the unclaimed gangs are skipped and counted done), counts
//! its own gang done and — on a worker — marks itself dead and parks
//! forever. The launcher, once the gangs already running are done,
//! terminates with the outcome itself (if its own gang failed it waits for
//! the others, releases the launch lock and terminates). Either way the
//! pool is *retired*: its live workers exit, and the next launch starts a
//! fresh pool.
//!
//! Thread count: `ACCJIT_NUM_THREADS`, else `ACC_NUM_CORES`, else all cores;
//! [`set_num_threads`] changes it (the pool is rebuilt at the next launch).
//! A child of `fork()` starts a pool of its own at its first launch: the
//! parent's workers do not exist there (`fork.rs`).

use crate::fork::PerProcess;
use crate::hosted::Outcome;
use std::cell::Cell;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Waiters spin without yielding this long.
const SPIN_PURE: Duration = Duration::from_micros(20);
/// An idle worker spins (yielding now and then) this long before it parks.
const WORKER_SPIN: Duration = Duration::from_micros(300);
/// The launcher waits this long for gangs running on workers before it parks.
const LAUNCHER_SPIN: Duration = Duration::from_millis(1);
/// Polls between two looks at the clock (and, past [`SPIN_PURE`], a yield).
const POLLS: u32 = 64;

/// The unclaimed gangs in the low half of the claim word.
const REM: u64 = (1 << 31) - 1;
/// Set in the claim word when the chunk's gangs may also run on a guest.
const ANY_THREAD: u64 = 1 << 31;
/// The generation in the high half of the claim word.
const GEN: u64 = u32::MAX as u64;
/// The most gangs of one chunk (small in unit tests, to exercise chunking).
const CHUNK: i64 = if cfg!(test) { 1000 } else { REM as i64 };

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

/// One chunk of a launch; lives on the launcher's stack while the chunk runs.
struct Job {
    run: *const (dyn Fn(i64) + Sync),
    /// Index of the chunk's first gang.
    base: i64,
    /// Gangs in the chunk (≥ 1).
    n: u32,
    device: i32,
    /// A guest may run its gangs (see [`Guest`]).
    any_thread: bool,
}

/// Keeps a hot word on its own cache line.
#[repr(align(64))]
struct Line<T>(T);

impl<T> Deref for Line<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

struct Shared {
    /// Per participant `p` (0: the launcher; `w + 1`: worker `w`):
    /// `generation << 32 | ANY_THREAD? | unclaimed gangs` of its share of
    /// the current chunk (see [`share_start`]).
    claims: Box<[Line<AtomicU64>]>,
    /// The current chunk; dereferenced only by a thread holding a claim.
    job: AtomicPtr<Job>,
    /// Gangs of the current chunk done (or skipped after a failure).
    done: AtomicU32,
    launcher_sleeping: AtomicBool,
    /// Bumped by every launch and by shutdown; idle workers wait on it.
    epoch: Line<AtomicU32>,
    /// Workers parked on `epoch`.
    sleepers: AtomicU32,
    /// Threads lending themselves to the pool right now ([`Guest`]).
    guests: Line<AtomicU32>,
    shutdown: AtomicBool,
    /// Launch lock: 0 free, 1 held, 2 held with waiters.
    lock: Line<AtomicU32>,
    /// Per worker: parked forever after its gang failed.
    dead: Vec<AtomicBool>,
    /// The first outcome of a failed gang of the current launch.
    failure: Mutex<Option<Outcome>>,
    /// A launch failed: [`global`] starts a new pool.
    retired: AtomicBool,
}

/// A pool of `threads - 1` workers plus the launching thread.
pub struct Pool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
    threads: usize,
    requested: usize,
}

impl Pool {
    /// Starts `threads - 1` workers (`threads` ≥ 1).
    pub fn new(threads: usize) -> Pool {
        let requested = threads.max(1);
        let shared = Arc::new(Shared {
            claims: (0..requested).map(|_| Line(AtomicU64::new(0))).collect(),
            job: AtomicPtr::new(std::ptr::null_mut()),
            done: AtomicU32::new(0),
            launcher_sleeping: AtomicBool::new(false),
            epoch: Line(AtomicU32::new(0)),
            sleepers: AtomicU32::new(0),
            guests: Line(AtomicU32::new(0)),
            shutdown: AtomicBool::new(false),
            lock: Line(AtomicU32::new(0)),
            dead: (1..requested).map(|_| AtomicBool::new(false)).collect(),
            failure: Mutex::new(None),
            retired: AtomicBool::new(false),
        });
        let mut handles = Vec::with_capacity(requested - 1);
        for w in 0..requested - 1 {
            let s = shared.clone();
            match std::thread::Builder::new().name(format!("accjit-gang-{}", w + 1)).spawn(move || worker(s, w, requested)) {
                Ok(h) => handles.push(h),
                // Workers are 0..k: stop at the first failure and use fewer threads.
                Err(_) => break,
            }
        }
        let threads = handles.len() + 1;
        Pool { shared, handles, threads, requested }
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
        self.run_gangs(n, device, false, run)
    }

    /// [`Pool::run`], where `any_thread` says that a gang can neither end
    /// the program nor need a big stack, so that a [`Guest`] may run it.
    pub fn run_gangs(&self, n: i64, device: i32, any_thread: bool, run: Gang<'_>) -> Option<Outcome> {
        if n <= 0 {
            return None;
        }
        let sh = &*self.shared;
        if n == 1 || self.threads == 1 || IN_POOL.with(|c| c.get()) || sh.retired.load(Acquire) {
            run_sequential(n, device, run);
            return None;
        }
        lock(sh);
        if sh.retired.load(Acquire) {
            unlock(sh);
            run_sequential(n, device, run);
            return None;
        }
        let prev = IN_KERNEL.with(|c| c.replace(device));
        IN_POOL.with(|c| c.set(true));
        ROLE.with(|r| r.set(Role::Launcher(sh as *const Shared, prev)));
        let mut base = 0;
        while base < n && !sh.retired.load(Acquire) {
            let count = (n - base).min(CHUNK);
            run_chunk(sh, self.threads, Job { run: erase(run), base, n: count as u32, device, any_thread });
            base += count;
        }
        ROLE.with(|r| r.set(Role::None));
        IN_POOL.with(|c| c.set(false));
        IN_KERNEL.with(|c| c.set(prev));
        let failed = if sh.retired.load(Acquire) { sh.failure.lock().unwrap_or_else(|p| p.into_inner()).take() } else { None };
        if failed.is_some() {
            retire(sh);
        }
        unlock(sh);
        failed
    }
}

/// Erases the lifetime: the job is used only until its chunk is done.
fn erase(run: Gang<'_>) -> *const (dyn Fn(i64) + Sync) {
    unsafe { std::mem::transmute::<Gang<'_>, Gang<'static>>(run) }
}

/// The first gang of participant `p`'s share of `n` gangs over `parts`
/// participants: `ceil(p n / parts)`, so that share 0 holds gang 0.
fn share_start(n: u32, p: usize, parts: usize) -> u32 {
    ((p as u64 * n as u64).div_ceil(parts as u64)) as u32
}

/// Publishes `job`, runs its first gang and whatever else is left to claim
/// on this thread, and returns when every gang of the chunk is done.
fn run_chunk(sh: &Shared, threads: usize, job: Job) {
    sh.done.store(0, Relaxed);
    sh.job.store(&job as *const Job as *mut Job, Relaxed);
    // Only the launcher (holding the lock) changes the generation.
    let gen = (sh.claims[0].load(Relaxed) >> 32).wrapping_add(1) & GEN;
    let flag = if job.any_thread { ANY_THREAD } else { 0 };
    let parts = sh.claims.len();
    for p in (0..parts).rev() {
        let len = share_start(job.n, p + 1, parts) - share_start(job.n, p, parts);
        // The launcher runs gang 0 (the first of its share) unclaimed.
        let len = if p == 0 { len - 1 } else { len };
        sh.claims[p].store(gen << 32 | flag | len as u64, SeqCst);
    }
    if job.n > 1 {
        sh.epoch.fetch_add(1, SeqCst);
        if sh.sleepers.load(SeqCst) != 0 {
            // Workers that sit this launch out for guests stay parked.
            let guests = if job.any_thread { sh.guests.load(SeqCst) as usize } else { 0 };
            let want = (job.n as usize - 1).min(threads - 1).saturating_sub(guests).min(i32::MAX as usize);
            if want > 0 {
                futex_wake(&sh.epoch, want as i32);
            }
        }
    }
    unsafe { (*job.run)(job.base) };
    gang_done(sh, job.n, 1);
    claim_gangs(sh, 0, false);
    wait_done(sh, job.n);
    sh.job.store(std::ptr::null_mut(), Relaxed);
}

/// Claims and runs gangs until none is left: share `own` first, then the
/// others' (with `guest`, only of chunks that allow any thread); returns
/// how many.
fn claim_gangs(sh: &Shared, own: usize, guest: bool) -> u32 {
    let parts = sh.claims.len();
    let mut ran = 0;
    for k in 0..parts {
        let p = (own + k) % parts;
        let word = &sh.claims[p];
        let mut w = word.load(Acquire);
        while w & REM != 0 && (!guest || w & ANY_THREAD != 0) {
            if let Err(cur) = word.compare_exchange_weak(w, w - 1, Acquire, Acquire) {
                w = cur;
                continue;
            }
            // SAFETY: our claim keeps the chunk (and the launcher's job) live
            // until the gang is counted done; the claim synchronised with the
            // store that published this generation, after the job was set.
            let job = unsafe { &*sh.job.load(Acquire) };
            // Gangs of a share are claimed in order: the last one has rem 1.
            let g = job.base + (share_start(job.n, p + 1, parts) - (w & REM) as u32) as i64;
            IN_KERNEL.with(|c| c.set(job.device));
            unsafe { (*job.run)(g) };
            gang_done(sh, job.n, 1);
            ran += 1;
            w = word.load(Acquire);
        }
    }
    ran
}

/// Counts `k` gangs of a chunk of `n` done, waking a parked launcher at `n`.
/// The chunk may be over (and the next one started) as soon as this returns.
fn gang_done(sh: &Shared, n: u32, k: u32) {
    if sh.done.fetch_add(k, SeqCst) + k == n && sh.launcher_sleeping.load(SeqCst) {
        futex_wake(&sh.done, 1);
    }
}

/// Closes the claim words of the running chunk: returns how many gangs were
/// still unclaimed (they are skipped).
fn close_claims(sh: &Shared) -> u32 {
    sh.claims.iter().map(|c| (c.fetch_and(!REM, SeqCst) & REM) as u32).sum()
}

/// Polls `ready` spinning, then spinning and yielding, until `limit`;
/// returns false if it is still not ready then (the caller parks). Every
/// thread of ours that waits for work uses this policy (also the Python
/// bindings' call workers), so on an oversubscribed machine a waiter gives
/// its core to the threads doing work after [`SPIN_PURE`].
pub fn spin_until(limit: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let t0 = Instant::now();
    loop {
        for _ in 0..POLLS {
            if ready() {
                return true;
            }
            std::hint::spin_loop();
        }
        let t = t0.elapsed();
        if t >= limit {
            return ready();
        }
        if t >= SPIN_PURE {
            std::thread::yield_now();
        }
    }
}

fn wait_done(sh: &Shared, n: u32) {
    loop {
        if spin_until(LAUNCHER_SPIN, || sh.done.load(Acquire) == n) {
            return;
        }
        sh.launcher_sleeping.store(true, SeqCst);
        let d = sh.done.load(SeqCst);
        if d != n {
            futex_wait(&sh.done, d);
        }
        sh.launcher_sleeping.store(false, SeqCst);
    }
}

/// Worker `w` of a pool of `threads` leaves launches that allow any thread
/// to the guests present: the last `guests` workers sit them out, so that a
/// guest takes a worker's core instead of sharing one.
fn sits_out(sh: &Shared, w: usize, threads: usize) -> bool {
    w + sh.guests.load(Acquire) as usize >= threads - 1
}

/// Waits until the epoch moves on from `seen`; returns the new epoch. A
/// worker that sits out for a guest parks at once (the guest spins instead).
fn wait_epoch(sh: &Shared, seen: u32, w: usize, threads: usize) -> u32 {
    loop {
        let moved = spin_until(WORKER_SPIN, || sh.epoch.load(Acquire) != seen || sits_out(sh, w, threads));
        if moved && sh.epoch.load(Acquire) != seen {
            return sh.epoch.load(Acquire);
        }
        sh.sleepers.fetch_add(1, SeqCst);
        if sh.epoch.load(SeqCst) == seen {
            futex_wait(&sh.epoch, seen);
        }
        sh.sleepers.fetch_sub(1, SeqCst);
    }
}

fn worker(sh: Arc<Shared>, w: usize, threads: usize) {
    IN_POOL.with(|c| c.set(true));
    let mut seen = sh.epoch.load(Acquire);
    loop {
        if sh.shutdown.load(Acquire) {
            return;
        }
        // A guest that left meanwhile costs speed, not gangs: the launcher
        // claims whatever nobody else does.
        if sh.claims[w + 1].load(Acquire) & ANY_THREAD == 0 || !sits_out(&sh, w, threads) {
            ROLE.with(|r| r.set(Role::Worker(&*sh as *const Shared, w)));
            claim_gangs(&sh, w + 1, false);
            ROLE.with(|r| r.set(Role::None));
            IN_KERNEL.with(|c| c.set(0));
        }
        seen = wait_epoch(&sh, seen, w, threads);
    }
}

/// A thread that lends itself to the process-wide pool while it waits for
/// something else — the Python thread waiting for a call that runs on
/// another thread. While it is registered, launches of kernels that allow
/// any thread ([`Pool::run_gangs`]) leave one worker idle and the guest
/// claims gangs in its place: the waiting thread is awake when the call
/// ends (no wake-up on a busy machine) and the pool does not have one more
/// thread than cores. Gangs that could end the program (which parks their
/// thread forever) or need a big stack never run on a guest.
pub struct Guest {
    pool: Arc<Pool>,
}

/// Why [`Guest::assist`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assisted {
    /// What the guest waits for is done.
    Done,
    /// No gang to run for the idle time given.
    Idle,
    /// The deadline passed.
    Deadline,
}

impl Guest {
    /// Registers the calling thread with the process-wide pool; `None` when
    /// the pool has one thread or this thread is running gangs already.
    pub fn enter() -> Option<Guest> {
        static OFF: OnceLock<bool> = OnceLock::new();
        if IN_POOL.with(|c| c.get()) || *OFF.get_or_init(|| std::env::var_os("ACCJIT_NO_GUEST").is_some_and(|v| v != "0")) {
            return None;
        }
        let pool = global();
        if pool.threads < 2 || pool.shared.retired.load(Acquire) {
            return None;
        }
        pool.shared.guests.fetch_add(1, SeqCst);
        Some(Guest { pool })
    }

    /// Runs gangs of launches that allow any thread until `done()`, until
    /// `idle` passes with nothing to run, or until `deadline`.
    pub fn assist(&self, idle: Duration, deadline: Instant, done: impl Fn() -> bool) -> Assisted {
        let sh = &*self.pool.shared;
        // The share of the last worker, which sits out for the guest.
        let own = sh.claims.len() - 1;
        IN_POOL.with(|c| c.set(true));
        let mut last_gang = Instant::now();
        let outcome = loop {
            // Read before claiming: a launch published meanwhile moves it.
            let epoch = sh.epoch.load(Acquire);
            if claim_gangs(sh, own, true) > 0 {
                IN_KERNEL.with(|c| c.set(0));
                last_gang = Instant::now();
            }
            if done() {
                break Assisted::Done;
            }
            // Idle time counts from the last gang run, not the last launch
            // seen: launches that do not allow a guest do not keep it here.
            let now = Instant::now();
            let limit = (last_gang + idle).min(deadline).saturating_duration_since(now);
            if limit.is_zero() || !spin_until(limit, || done() || sh.epoch.load(Acquire) != epoch) {
                break if Instant::now() >= deadline { Assisted::Deadline } else { Assisted::Idle };
            }
        };
        IN_POOL.with(|c| c.set(false));
        outcome
    }
}

impl Drop for Guest {
    fn drop(&mut self) {
        self.pool.shared.guests.fetch_sub(1, SeqCst);
    }
}

fn lock(sh: &Shared) {
    if sh.lock.compare_exchange(0, 1, Acquire, Relaxed).is_ok() {
        return;
    }
    while sh.lock.swap(2, Acquire) != 0 {
        futex_wait(&sh.lock, 2);
    }
}

fn unlock(sh: &Shared) {
    if sh.lock.swap(0, Release) == 2 {
        futex_wake(&sh.lock, 1);
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
            // SAFETY: the worker's `Arc<Shared>` is alive on this thread's
            // stack, and the chunk is live: this gang is not counted done.
            let sh = unsafe { &*sh };
            let n = unsafe { (*sh.job.load(Acquire)).n };
            sh.failure.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(o);
            let skipped = close_claims(sh);
            sh.dead[w].store(true, SeqCst);
            sh.retired.store(true, SeqCst);
            IN_KERNEL.with(|c| c.set(0));
            crate::support::release_lock_if_held();
            gang_done(sh, n, skipped + 1);
            crate::hosted::park_forever()
        }
        Role::Launcher(sh, prev) => {
            // SAFETY: the launcher's pool is borrowed by `Pool::run` below us on this stack.
            let sh = unsafe { &*sh };
            let n = unsafe { (*sh.job.load(Acquire)).n };
            let skipped = close_claims(sh);
            IN_POOL.with(|c| c.set(false));
            IN_KERNEL.with(|c| c.set(prev));
            crate::support::release_lock_if_held();
            gang_done(sh, n, skipped + 1);
            wait_done(sh, n);
            sh.job.store(std::ptr::null_mut(), Relaxed);
            retire(sh);
            // `Pool::run` never resumes: release its launch lock here.
            unlock(sh);
        }
    }
}

/// Marks the pool unusable and lets its live workers exit.
fn retire(sh: &Shared) {
    sh.retired.store(true, SeqCst);
    stop_workers(sh);
}

fn stop_workers(sh: &Shared) {
    sh.shutdown.store(true, SeqCst);
    sh.epoch.fetch_add(1, SeqCst);
    futex_wake(&sh.epoch, i32::MAX);
}

impl Drop for Pool {
    fn drop(&mut self) {
        stop_workers(&self.shared);
        for (h, dead) in self.handles.drain(..).zip(&self.shared.dead) {
            // A dead worker never returns: leave it parked.
            if !dead.load(SeqCst) {
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

#[cfg(target_os = "linux")]
fn futex_wait(word: &AtomicU32, expected: u32) {
    unsafe {
        libc::syscall(libc::SYS_futex, word as *const AtomicU32, libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG, expected, std::ptr::null::<libc::timespec>());
    }
}

/// Wakes up to `count` threads waiting on `word`.
#[cfg(target_os = "linux")]
fn futex_wake(word: &AtomicU32, count: i32) {
    unsafe {
        libc::syscall(libc::SYS_futex, word as *const AtomicU32, libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG, count);
    }
}

#[cfg(not(target_os = "linux"))]
fn futex_wait(word: &AtomicU32, expected: u32) {
    if word.load(SeqCst) == expected {
        std::thread::sleep(Duration::from_micros(50));
    }
}

#[cfg(not(target_os = "linux"))]
fn futex_wake(_word: &AtomicU32, _count: i32) {}

// --- the process-wide pool ---------------------------------------------------

static THREADS: AtomicUsize = AtomicUsize::new(0);
/// The pool of this process: a child of `fork()` starts its own (the
/// parent's workers do not exist there; see `fork.rs`).
static GLOBAL: PerProcess<Mutex<Option<Arc<Pool>>>> = PerProcess::new(|| Mutex::new(None));

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
    let old = GLOBAL.get().lock().unwrap_or_else(|p| p.into_inner()).take();
    drop(old);
}

/// The process-wide pool, started (or rebuilt) with [`num_threads`] threads.
pub fn global() -> Arc<Pool> {
    let want = num_threads();
    let mut g = GLOBAL.get().lock().unwrap_or_else(|p| p.into_inner());
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
            for n in [1, 2, 3, 4, 7, 64, 1000, 1001, 2500] {
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

    /// Waits until all workers of `pool` are parked on the futex.
    fn wait_all_parked(pool: &Pool) {
        let t0 = Instant::now();
        while pool.shared.sleepers.load(SeqCst) as usize != pool.threads() - 1 {
            assert!(t0.elapsed() < Duration::from_secs(10), "workers did not park");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn back_to_back_launches_of_varying_sizes_run_every_gang_once() {
        for threads in [2, 3, 4] {
            let pool = Pool::new(threads);
            let total = AtomicU64::new(0);
            let mut expect = 0u64;
            for i in 0..3000i64 {
                let n = match i % 11 {
                    0 => 1 + i % 1500, // sometimes several chunks (CHUNK is 1000 in tests)
                    k => k,
                };
                let hits: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
                pool.run(n, 7, &|g| {
                    hits[g as usize].fetch_add(1, Relaxed);
                    total.fetch_add(1, Relaxed);
                });
                expect += n as u64;
                assert!(hits.iter().all(|h| h.load(Relaxed) == 1), "launch {i} of {n} gangs on {threads} threads");
                // Now and then let the workers fall behind or fall asleep.
                if i % 500 == 499 {
                    std::thread::sleep(Duration::from_micros(400));
                }
            }
            assert_eq!(total.load(SeqCst), expect, "a gang ran outside its launch");
        }
    }

    #[test]
    fn concurrent_launches_from_two_threads() {
        let pool = Arc::new(Pool::new(3));
        let launchers: Vec<_> = (0..2)
            .map(|t| {
                let pool = pool.clone();
                std::thread::spawn(move || {
                    for i in 0..1500 {
                        check_exactly_once(&pool, 1 + (i + t) % 9);
                    }
                })
            })
            .collect();
        for l in launchers {
            l.join().unwrap();
        }
        check_exactly_once(&pool, 64);
    }

    #[test]
    fn a_launch_after_a_long_idle_period_wakes_the_workers() {
        let pool = Pool::new(3);
        check_exactly_once(&pool, 3);
        for _ in 0..3 {
            wait_all_parked(&pool);
            // Three gangs that wait for each other: both parked workers must wake.
            let arrived = AtomicU64::new(0);
            pool.run(3, 7, &|_| {
                arrived.fetch_add(1, SeqCst);
                let t0 = Instant::now();
                while arrived.load(SeqCst) < 3 {
                    assert!(t0.elapsed() < Duration::from_secs(10), "parked workers were not woken");
                    std::hint::spin_loop();
                }
            });
            wait_all_parked(&pool);
            check_exactly_once(&pool, 1000);
        }
    }

    #[test]
    fn the_launcher_does_not_wait_for_workers_that_are_not_running() {
        // Workers parked: a launch of trivial gangs is done when its gangs
        // are, whether or not a worker woke in time to take one.
        let pool = Pool::new(2);
        wait_all_parked(&pool);
        let t0 = Instant::now();
        check_exactly_once(&pool, 2);
        check_exactly_once(&pool, 100);
        println!("two launches with parked workers: {:?}", t0.elapsed());
    }

    /// Runs `launches` on `pool` from a launcher thread while this thread is
    /// a guest; returns (gangs run on the guest, per launch the gang hits).
    fn with_guest(pool: Arc<Pool>, any_thread: bool, launches: usize, n: i64) -> (u64, Vec<Vec<u64>>) {
        let guest_tid = std::thread::current().id();
        let on_guest = Arc::new(AtomicU64::new(0));
        let finished = Arc::new(AtomicBool::new(false));
        let (p2, og, fin) = (pool.clone(), on_guest.clone(), finished.clone());
        let launcher = std::thread::spawn(move || {
            let mut all = Vec::new();
            for i in 0..launches {
                let hits: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
                p2.run_gangs(n, 7, any_thread, &|g| {
                    hits[g as usize].fetch_add(1, Relaxed);
                    if std::thread::current().id() == guest_tid {
                        og.fetch_add(1, Relaxed);
                    } else if i == 0 && any_thread {
                        // The first launch's other gangs wait (bounded) for
                        // the guest, so that on a loaded machine it is not
                        // left nothing to take: each thread is held in the
                        // first gang of its own share, the guest's share
                        // stays unclaimed until the guest claims it.
                        let t0 = Instant::now();
                        while og.load(Relaxed) == 0 && t0.elapsed() < Duration::from_secs(10) {
                            std::thread::yield_now();
                        }
                    }
                    // Long enough for the guest to take a share.
                    let t0 = Instant::now();
                    while t0.elapsed() < Duration::from_micros(50) {
                        std::hint::spin_loop();
                    }
                });
                all.push(hits.iter().map(|h| h.load(Relaxed)).collect());
            }
            fin.store(true, SeqCst);
            all
        });
        pool.shared.guests.fetch_add(1, SeqCst);
        let guest = Guest { pool: pool.clone() };
        while guest.assist(Duration::from_millis(5), Instant::now() + Duration::from_millis(50), || finished.load(SeqCst)) != Assisted::Done {}
        drop(guest);
        assert_eq!(pool.shared.guests.load(SeqCst), 0);
        let all = launcher.join().unwrap();
        (on_guest.load(SeqCst), all)
    }

    #[test]
    fn a_guest_runs_gangs_of_launches_that_allow_it_each_once() {
        for threads in [2, 3, 4] {
            let pool = Arc::new(Pool::new(threads));
            let (on_guest, all) = with_guest(pool, true, 200, 2 * threads as i64 + 1);
            assert!(all.iter().all(|h| h.iter().all(|&k| k == 1)), "a gang ran twice or never ({threads} threads)");
            assert!(on_guest > 0, "the guest ran no gang in 200 launches ({threads} threads)");
        }
    }

    #[test]
    fn a_guest_never_runs_gangs_of_other_launches() {
        let pool = Arc::new(Pool::new(2));
        let (on_guest, all) = with_guest(pool, false, 100, 5);
        assert!(all.iter().all(|h| h.iter().all(|&k| k == 1)));
        assert_eq!(on_guest, 0, "a guest ran a gang of a launch that may end the program");
    }

    #[test]
    fn shares_cover_every_gang_once_and_share_0_starts_at_gang_0() {
        for parts in 1..=9usize {
            for n in 1..=40u32 {
                assert_eq!(share_start(n, 0, parts), 0);
                assert!(share_start(n, 1, parts) >= 1, "share 0 of {n} gangs over {parts} is empty");
                assert_eq!(share_start(n, parts, parts), n);
                for p in 0..parts {
                    assert!(share_start(n, p, parts) <= share_start(n, p + 1, parts));
                }
            }
        }
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

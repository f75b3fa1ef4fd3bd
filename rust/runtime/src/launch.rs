//! Kernel launches: [`KernelSlot`] (one per outlined kernel, created before
//! code generation so that generated code can embed its address) and
//! [`launch`], which `__accjit_launch` calls.
//!
//! A launch resolves the device, the gang count (explicit `num_gangs(n)`:
//! exactly n; default: the thread count on multicore, capped by the slot's
//! `max_gangs`; 1 on host), translates `DeviceAddr` arguments through the
//! present table (identity on shared memory unless data was mapped
//! elsewhere), honours the `wait` clause, and runs the gangs on the pool
//! (multicore), one after another on the calling thread (host, or flag bit 0
//! for `if(false)`/`self`), or — with `async` — as a task on the queue.

use crate::consts::*;
use crate::device::{self, DeviceType};
use crate::error::{AccError, AccResult};
use crate::pool;
use crate::prof::{self, Event};
use crate::queue;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::*};

/// Native kernel entry: `void k(const uint64_t *args, int64_t gang, int64_t num_gangs)`.
pub type KernelFn = unsafe extern "C" fn(*const u64, i64, i64);

/// Default gangs per pool thread of a kernel whose work is all in gang
/// loops: each thread owns that many consecutive gangs (the static share it
/// would have had as one gang) and a thread that finishes early takes over
/// the remaining gangs of a slower one (see `pool`), so a busy core or a
/// slower path to memory no longer holds up the whole launch.
pub const GANGS_PER_THREAD: u64 = 4;

/// Parameter kind codes of [`KernelSlot::new`].
pub const PARAM_VALUE: u8 = 0;
pub const PARAM_DEVICE_ADDR: u8 = 1;
/// A device address (translated like [`PARAM_DEVICE_ADDR`]) of data the
/// kernel copies from, whose byte count is the next argument: an
/// asynchronous launch on a shared-memory device passes a copy taken when it
/// is enqueued (firstprivate values are those at the construct).
pub const PARAM_SNAPSHOT: u8 = 2;

/// The runtime's record of one kernel. Boxed, so its address is stable for
/// the life of the box: code generation embeds `&*slot as *const _ as usize`
/// and passes it to `__accjit_launch`.
#[repr(C)]
pub struct KernelSlot {
    host_fn: AtomicUsize,
    construct: AtomicI32,
    /// The native kernel can neither end the program nor need a big stack:
    /// its gangs may run on any thread, a pool guest's too (`pool::Guest`).
    any_thread: AtomicBool,
    /// All of the kernel's work is in gang loops: more gangs than threads
    /// add no work, and the default gang count is [`GANGS_PER_THREAD`] per thread.
    splittable: AtomicBool,
    pub name: String,
    /// One per parameter: [`PARAM_VALUE`], [`PARAM_DEVICE_ADDR`] or [`PARAM_SNAPSHOT`].
    pub param_kinds: Vec<u8>,
    /// Upper bound on useful gangs, if known (1 for `serial`).
    pub max_gangs: Option<u64>,
}

impl KernelSlot {
    pub fn new(name: String, param_kinds: Vec<u8>, max_gangs: Option<u64>) -> Box<KernelSlot> {
        Box::new(KernelSlot {
            host_fn: AtomicUsize::new(0),
            construct: AtomicI32::new(acc_construct_parallel),
            any_thread: AtomicBool::new(false),
            splittable: AtomicBool::new(false),
            name,
            param_kinds,
            max_gangs,
        })
    }

    /// Sets the native `KernelFn` address (multicore/host code).
    pub fn set_host_fn(&self, addr: usize) {
        self.host_fn.store(addr, Release);
    }

    pub fn host_fn(&self) -> usize {
        self.host_fn.load(Acquire)
    }

    /// Declares that the native kernel's gangs may run on any thread (the
    /// back end's judgement: see `pool::Guest` for what that requires).
    pub fn set_any_thread(&self, yes: bool) {
        self.any_thread.store(yes, Release);
    }

    /// Declares that all of the kernel's work is partitioned over gangs (the
    /// lowering's `Kernel::only_gang_loops`), so that it may run with more
    /// gangs than threads.
    pub fn set_splittable(&self, yes: bool) {
        self.splittable.store(yes, Release);
    }

    /// The `acc_construct_*` reported to profilers (parallel by default).
    pub fn set_construct(&self, construct: i32) {
        self.construct.store(construct, Relaxed);
    }

    /// The address to embed in generated code.
    pub fn addr(&self) -> usize {
        self as *const KernelSlot as usize
    }
}

/// Launch parameters besides the arguments (see docs/runtime-abi.md).
#[derive(Clone, Debug)]
pub struct LaunchOpts<'a> {
    /// ≤ 0: device default.
    pub num_gangs: i64,
    pub num_workers: i64,
    pub vector_length: i64,
    pub async_: i64,
    /// `None`: no wait clause; `Some(&[])`: wait for all queues.
    pub wait: Option<&'a [i64]>,
    /// Run on the local thread (`if(false)`, `self`).
    pub local: bool,
    pub loc: Option<&'a str>,
}

impl Default for LaunchOpts<'_> {
    fn default() -> Self {
        LaunchOpts { num_gangs: 0, num_workers: 0, vector_length: 0, async_: acc_async_sync, wait: None, local: false, loc: None }
    }
}

/// The arguments of a queued launch, and the snapshots they point to.
struct SendArgs(Vec<u64>, Vec<Vec<u128>>);

impl SendArgs {
    /// Replace every `PARAM_SNAPSHOT` argument by a copy of its bytes (16-byte aligned).
    fn take_snapshots(&mut self, kinds: &[u8]) {
        for (i, k) in kinds.iter().enumerate() {
            let (Some(&addr), Some(&bytes)) = (self.0.get(i), self.0.get(i + 1)) else { continue };
            if *k != PARAM_SNAPSHOT || addr == 0 || bytes as i64 <= 0 {
                continue;
            }
            let mut copy = vec![0u128; (bytes as usize).div_ceil(16)];
            // SAFETY: the construct's firstprivate section is `bytes` readable
            // bytes at `addr` (shared memory: the host's own data).
            unsafe { std::ptr::copy_nonoverlapping(addr as *const u8, copy.as_mut_ptr() as *mut u8, bytes as usize) };
            self.0[i] = copy.as_ptr() as u64;
            self.1.push(copy);
        }
    }
}

/// Runs the kernel of `slot` with `args` (translated in place).
pub fn launch(slot: &KernelSlot, args: &mut [u64], o: &LaunchOpts) -> AccResult<()> {
    let addr = slot.host_fn();
    let with_loc = |e: AccError| e.with_loc(o.loc);
    if addr == 0 {
        return Err(with_loc(AccError::new(acc_error_other, format!("kernel {} has no code for this device", slot.name))));
    }
    let f: KernelFn = unsafe { std::mem::transmute::<usize, KernelFn>(addr) };
    let q = queue::resolve(o.async_).map_err(with_loc)?;
    let dev = device::current_device().map_err(with_loc)?;
    let wait_list = |w: &[i64]| if w.is_empty() { None } else { Some(w.to_vec()) };

    if o.local {
        if let Some(w) = o.wait {
            queue::wait(dev, wait_list(w).as_deref(), acc_async_sync, o.loc, false).map_err(with_loc)?;
        }
        let n = if o.num_gangs > 0 { o.num_gangs } else { 1 };
        run_gangs(DeviceType::Host, f, args.as_ptr(), n, false);
        return Ok(());
    }

    let n = if o.num_gangs > 0 {
        o.num_gangs
    } else {
        match dev.ty {
            DeviceType::Multicore => {
                let per = if slot.splittable.load(Acquire) { GANGS_PER_THREAD } else { 1 };
                let t = pool::num_threads() as u64 * per;
                slot.max_gangs.map_or(t, |m| m.clamp(1, t)) as i64
            }
            _ => 1,
        }
    };

    if !dev.mem.is_shared() || dev.table().has_remapped() {
        let t = dev.table();
        for (i, k) in slot.param_kinds.iter().enumerate().take(args.len()) {
            if (*k == PARAM_DEVICE_ADDR || *k == PARAM_SNAPSHOT) && args[i] != 0 {
                if let Some(e) = t.find(args[i] as usize, 1) {
                    args[i] = e.dev_of(args[i] as usize) as u64;
                }
            }
        }
    }

    if let Some(w) = o.wait {
        // Synchronous launch: the host waits; async: the wait goes on the queue first.
        queue::wait(dev, wait_list(w).as_deref(), o.async_, o.loc, false).map_err(with_loc)?;
    }

    let construct = slot.construct.load(Relaxed);
    let ev = |kind, tool_info| Event {
        kind,
        construct,
        device_type: dev.ty.to_acc(),
        device_num: dev.num as i32,
        async_: o.async_,
        kernel: Some(slot.name.as_str()),
        num_gangs: n as usize,
        num_workers: o.num_workers.max(1) as usize,
        vector_length: o.vector_length.max(1) as usize,
        loc: o.loc,
        tool_info,
        ..Event::default()
    };
    let listening = prof::active();
    let t_cc = if listening { prof::emit(&ev(acc_ev_compute_construct_start, 0)) } else { 0 };
    let t_el = if listening { prof::emit(&ev(acc_ev_enqueue_launch_start, 0)) } else { 0 };

    let dtype = dev.ty;
    let any = slot.any_thread.load(Acquire);
    match q {
        None => run_gangs(dtype, f, args.as_ptr(), n, any),
        Some(qv) => {
            let mut owned = SendArgs(args.to_vec(), vec![]);
            if dev.mem.is_shared() {
                owned.take_snapshots(&slot.param_kinds);
            }
            dev.queues.submit(
                qv,
                Box::new(move || {
                    let a = owned;
                    run_gangs(dtype, f, a.0.as_ptr(), n, any);
                }),
            );
        }
    }

    if listening {
        prof::emit(&ev(acc_ev_enqueue_launch_end, t_el));
        prof::emit(&ev(acc_ev_compute_construct_end, t_cc));
    }
    Ok(())
}

fn run_gangs(ty: DeviceType, f: KernelFn, args: *const u64, n: i64, any_thread: bool) {
    struct P(*const u64);
    unsafe impl Sync for P {}
    impl P {
        fn get(&self) -> *const u64 {
            self.0
        }
    }
    let p = P(args);
    let run = |g: i64| unsafe { f(p.get(), g, n) };
    match ty {
        DeviceType::Multicore => {
            // A gang on a worker ended the program: this thread ends it too.
            if let Some(o) = pool::global().run_gangs(n, acc_device_multicore, any_thread, &run) {
                crate::hosted::terminate(o);
            }
        }
        _ => pool::run_sequential(n, ty.to_acc(), &run),
    }
}

//! How a device runs kernels, next to how it holds data (`memory::Memory`):
//! one [`Compute`] implementation per kind of device, injected into each
//! [`Device`] when the devices are discovered, so that launches and queues
//! never ask which device type they are on.
//!
//! - [`Native`]: the Cranelift form of a kernel (`KernelSlot`'s host
//!   function) on the CPU: gangs one after another on the calling thread
//!   (the host device) or over the persistent pool (the multicore device).
//!   Its launch path is the latency-critical one (a few µs from Python):
//!   no allocation, lock or dynamic call per gang.
//! - `nvidia::GpuCompute`: the PTX form on a CUDA device (`nvidia.rs`).
//!
//! Stream-backed queues ([`Streams`]) belong to the compute side too: a
//! device whose queues are hardware streams gives them to its `Queues`.

use crate::consts::*;
use crate::device::Device;
use crate::error::{AccError, AccResult};
use crate::launch::{KernelFn, KernelSlot, LaunchOpts, GANGS_PER_THREAD, PARAM_DEVICE_ADDR, PARAM_SNAPSHOT};
use crate::pool;
use crate::prof::{self, Event};
use crate::queue;

/// Which compiled form of a kernel a device runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The native (Cranelift) `KernelFn`.
    Native,
    /// The PTX module text and entry (`launch::PtxForm`).
    Ptx,
}

/// A device's way of running kernels.
pub trait Compute: Send + Sync {
    /// The form of a kernel this device runs.
    fn form(&self) -> Form;
    /// Runs (`queue` None: synchronously) or enqueues on queue `queue` one
    /// launch of `slot` with `args` (translated in place where needed).
    fn launch(&self, dev: &'static Device, slot: &KernelSlot, args: &mut [u64], o: &LaunchOpts, queue: Option<i64>) -> AccResult<()>;
    /// Starts what the device needs before its first use (device_init).
    fn init(&self) -> AccResult<()> {
        Ok(())
    }
    /// `acc_get_property_string` values the device knows (name, vendor, driver).
    fn property_string(&self, _prop: i32) -> Option<String> {
        None
    }
    /// `acc_get_property` values the device knows beyond its memory.
    fn property(&self, _prop: i32) -> Option<usize> {
        None
    }
}

/// Queues that are hardware streams (in-order work queues of the device
/// itself, served without a host thread). Async values are resolved
/// (≥ 0 or `acc_async_noval`); `None` is the device's synchronous stream.
pub trait Streams: Send + Sync {
    /// Blocks until the stream of queue `v` has done all its work.
    fn sync(&self, v: Option<i64>) -> AccResult<()>;
    /// True when the stream of queue `v` is idle.
    fn idle(&self, v: i64) -> AccResult<bool>;
    /// Work enqueued later on `waiter` starts after what `waited` holds now
    /// (an event recorded on `waited`, waited for by `waiter`).
    fn order(&self, waiter: Option<i64>, waited: i64) -> AccResult<()>;
    /// The queues used so far (their streams exist).
    fn used(&self) -> Vec<i64>;
    /// The native handle of queue `v`'s stream (made now if needed; the
    /// queue counts as used from then on).
    fn handle(&self, v: Option<i64>) -> AccResult<usize>;
    /// Host → device on queue `v`'s stream.
    ///
    /// # Safety
    /// Both ranges valid for `bytes` until the stream reaches the copy.
    unsafe fn copy_to(&self, v: Option<i64>, dev: usize, host: *const u8, bytes: usize) -> AccResult<()>;
    /// Device → host on queue `v`'s stream.
    ///
    /// # Safety
    /// Both ranges valid for `bytes` until the stream reaches the copy.
    unsafe fn copy_from(&self, v: Option<i64>, host: *mut u8, dev: usize, bytes: usize) -> AccResult<()>;
}

/// The CPU devices: the native form, run on the calling thread (`pool`
/// false: the host device) or over the persistent thread pool.
pub struct Native {
    pub pool: bool,
}

impl Compute for Native {
    fn form(&self) -> Form {
        Form::Native
    }

    fn init(&self) -> AccResult<()> {
        if self.pool {
            pool::ensure_started();
        }
        Ok(())
    }

    fn launch(&self, dev: &'static Device, slot: &KernelSlot, args: &mut [u64], o: &LaunchOpts, q: Option<i64>) -> AccResult<()> {
        let f = slot.native_fn().ok_or_else(|| AccError::new(acc_error_other, format!("kernel {} has no code for this device", slot.name)))?;
        let n = if o.num_gangs > 0 {
            o.num_gangs
        } else if self.pool {
            let per = if slot.is_splittable() { GANGS_PER_THREAD } else { 1 };
            let t = pool::num_threads() as u64 * per;
            slot.max_gangs.map_or(t, |m| m.clamp(1, t)) as i64
        } else {
            1
        };
        let mut implicit = vec![];
        if !dev.mem.is_shared() {
            implicit = translate_or_copy(dev, slot, args, o)?;
        } else if dev.table().has_remapped() {
            translate_args(dev, slot, args, false)?;
        }
        if let Some(w) = o.wait {
            // Synchronous launch: the host waits; async: the wait goes on the queue first.
            if let Err(e) = queue::wait(dev, wait_list(w).as_deref(), o.async_, o.loc, false) {
                let _ = implicit_exit(dev, &implicit, o);
                return Err(e);
            }
        }
        let events = LaunchEvents::start(dev, slot, o, n);
        let on_pool = self.pool;
        let code = dev.ty.to_acc();
        let any = slot.is_any_thread();
        match q {
            None => run_native(on_pool, code, f, args.as_ptr(), n, any),
            Some(qv) => {
                let mut owned = crate::launch::SendArgs::new(args.to_vec());
                if dev.mem.is_shared() {
                    owned.take_snapshots(&slot.param_kinds);
                }
                dev.queues.submit(
                    qv,
                    Box::new(move || {
                        let a = owned;
                        run_native(on_pool, code, f, a.args(), n, any);
                    }),
                );
            }
        }
        events.end();
        implicit_exit(dev, &implicit, o)
    }
}

/// An array a host caller (the Python bindings) passed to the function now
/// running on this thread: its range and whether the function only reads
/// it (a `const` pointee).
#[derive(Clone, Copy, Debug)]
pub struct CallArray {
    pub addr: usize,
    pub bytes: usize,
    pub readonly: bool,
}

thread_local! {
    static CALL_ARRAYS: std::cell::RefCell<Vec<CallArray>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The arrays of the current host call (see [`translate_or_copy`]), set
/// for as long as the guard lives.
pub struct CallArrays(());

impl CallArrays {
    /// Copies `arrays` into this thread's list, which keeps its capacity
    /// from call to call (no allocation per call).
    pub fn enter(arrays: &[CallArray]) -> CallArrays {
        CALL_ARRAYS.with(|c| {
            let mut c = c.borrow_mut();
            c.clear();
            c.extend_from_slice(arrays);
        });
        CallArrays(())
    }
}

/// Clears the arrays of a hosted call that ended early (its guard never drops).
pub(crate) fn forget_call_arrays() {
    CALL_ARRAYS.with(|c| c.borrow_mut().clear());
}

impl Drop for CallArrays {
    fn drop(&mut self) {
        CALL_ARRAYS.with(|c| c.borrow_mut().clear());
    }
}

/// [`translate_args`] on a device without shared memory, where a pointer
/// argument into no present data that lies in an array the host caller
/// passed for this call (a NumPy array given to a function of a Python
/// module: its extent is known) gets that array implicitly copied for the
/// launch — `copyin` for a `const` pointee, else `copy` — as §2.6.2 treats
/// an aggregate with no data clause; a NumPy array "just works" on a GPU
/// as on the CPU devices. Other arguments into no present data stay
/// `acc_error_not_present`. Returns what was copied in, for
/// [`implicit_exit`] after the launch.
pub fn translate_or_copy(dev: &'static Device, slot: &KernelSlot, args: &mut [u64], o: &LaunchOpts) -> AccResult<Vec<(CallArray, String)>> {
    let mut copied: Vec<(CallArray, String)> = vec![];
    loop {
        let e = match translate_args(dev, slot, args, true) {
            Ok(()) => return Ok(copied),
            Err(e) => e,
        };
        let at = e.host_range.map(|(a, _)| a);
        let found = match at {
            Some(a) if e.code == acc_error_not_present => CALL_ARRAYS.with(|c| c.borrow().iter().find(|x| a >= x.addr && a < x.addr + x.bytes.max(1)).copied()),
            _ => None,
        };
        let Some(arr) = found.filter(|x| !copied.iter().any(|(c, _)| c.addr == x.addr)) else {
            let _ = implicit_exit(dev, &copied, o);
            return Err(e);
        };
        // Named as the kernel's variable (the error says which).
        let name = e.var.clone().unwrap_or_default();
        let clause = if arr.readonly { crate::data::Clause::CopyIn } else { crate::data::Clause::Copy };
        let ctx = crate::data::Ctx { implicit: true, ..crate::data::Ctx::directive(Some(&name), o.loc, slot.construct()) };
        if let Err(err) = crate::data::enter(dev, clause, arr.addr, arr.bytes, crate::data::flags::STRUCTURED, o.async_, ctx) {
            let _ = implicit_exit(dev, &copied, o);
            return Err(err);
        }
        copied.push((arr, name));
    }
}

/// The exits of [`translate_or_copy`]'s implicit copies (in reverse).
pub fn implicit_exit(dev: &'static Device, copied: &[(CallArray, String)], o: &LaunchOpts) -> AccResult<()> {
    let mut r = Ok(());
    for (arr, name) in copied.iter().rev() {
        let clause = if arr.readonly { crate::data::Clause::CopyIn } else { crate::data::Clause::Copy };
        let ctx = crate::data::Ctx { implicit: true, ..crate::data::Ctx::directive(Some(name), o.loc, acc_construct_parallel) };
        let e = crate::data::exit(dev, clause, arr.addr, arr.bytes, crate::data::flags::STRUCTURED, o.async_, ctx);
        if r.is_ok() {
            r = e;
        }
    }
    r
}

/// The wait list of a `wait` clause (`None`: every queue).
pub fn wait_list(w: &[i64]) -> Option<Vec<i64>> {
    if w.is_empty() {
        None
    } else {
        Some(w.to_vec())
    }
}

/// Runs `n` gangs of native kernel `f` on the pool or the calling thread;
/// `device` is the `acc_device_t` that `acc_on_device` reports inside.
pub fn run_native(on_pool: bool, device: i32, f: KernelFn, args: *const u64, n: i64, any_thread: bool) {
    struct P(*const u64);
    unsafe impl Sync for P {}
    impl P {
        fn get(&self) -> *const u64 {
            self.0
        }
    }
    let p = P(args);
    let run = |g: i64| unsafe { f(p.get(), g, n) };
    if on_pool {
        // A gang on a worker ended the program: this thread ends it too.
        if let Some(o) = pool::global().run_gangs(n, device, any_thread, &run) {
            crate::hosted::terminate(o);
        }
    } else {
        pool::run_sequential(n, device, &run);
    }
}

/// Replaces every device-address argument (`PARAM_DEVICE_ADDR`,
/// `PARAM_SNAPSHOT`) that lies in present data by its device address.
/// `strict` (a device without shared memory): an argument in no present
/// data is `acc_error_not_present` naming the parameter's variable — a host
/// address must never reach such a device (issue 9 A.5; see
/// docs/data-environment.md, "Discrete devices"). Snapshot arguments are
/// left to the caller under `strict` (they are staged, not translated).
pub fn translate_args(dev: &Device, slot: &KernelSlot, args: &mut [u64], strict: bool) -> AccResult<()> {
    let t = dev.table();
    for (i, k) in slot.param_kinds.iter().enumerate().take(args.len()) {
        let addr = args[i] as usize;
        if addr == 0 || !(*k == PARAM_DEVICE_ADDR || (*k == PARAM_SNAPSHOT && !strict)) {
            continue;
        }
        if strict {
            // The section a clause in force on the parameter's variable made
            // present: `present(a[500:250])` and the kernel gets `a`, which
            // lies below it (or in another section of the same array). Its
            // device pointer keeps the offset: the device copy's address
            // less (section start − addr).
            let var = slot.param_name_ref(i).unwrap_or("");
            let below_end = |h: usize| t.get(h).is_some_and(|e| addr <= e.host + e.bytes);
            // `main.cube` (a static local) is `cube` in its clauses.
            let short = || var.rsplit_once('.').map(|(_, s)| s);
            if let Some(e) = crate::data::section_in_force(dev, var, below_end)
                .or_else(|| short().and_then(|s| crate::data::section_in_force(dev, s, below_end)))
                .and_then(|h| t.get(h))
            {
                args[i] = e.dev.wrapping_sub(e.host.wrapping_sub(addr)) as u64;
                continue;
            }
        }
        match t.find(addr, 1) {
            Some(e) => args[i] = e.dev_of(addr) as u64,
            // Already a device address: a device copy's (`acc_deviceptr`,
            // `use_device`) or device memory (`acc_malloc`, `deviceptr`).
            None if strict && (t.host_of(addr).is_some() || dev.mem.owns(addr)) => {}
            // A region's no_create (or zero-length section) of absent data.
            None if strict && t.absent_allowed(addr) => {}
            None if strict => {
                let var = slot.param_name(i);
                // `main.cube` (a static local) is `cube` in its clauses.
                let short = var.rsplit('.').next().unwrap_or(&var);
                if let Some(e) = t.find_section_of(addr, &var).or_else(|| t.find_section_of(addr, short)) {
                    args[i] = e.dev.wrapping_sub(e.host - addr) as u64;
                    continue;
                }
                return Err(AccError::new(
                    acc_error_not_present,
                    format!(
                        "not present: '{var}' ({addr:#x}) is used by kernel {} but is not present on the {} device, which does not share memory with the host; give it a data clause (copyin, copy, create, present, deviceptr)",
                        slot.name,
                        dev.name()
                    ),
                )
                .with_var(Some(var.as_str()))
                .with_range(addr, 1));
            }
            None => {}
        }
    }
    Ok(())
}

/// The compute-construct and enqueue-launch events of one launch (nothing
/// when no tool listens).
pub struct LaunchEvents<'a> {
    ev: Option<(Event<'a>, usize, usize)>,
}

impl<'a> LaunchEvents<'a> {
    pub fn start(dev: &Device, slot: &'a KernelSlot, o: &LaunchOpts<'a>, n: i64) -> LaunchEvents<'a> {
        if !prof::active() {
            return LaunchEvents { ev: None };
        }
        let base = Event {
            construct: slot.construct(),
            device_type: dev.ty.to_acc(),
            device_num: dev.num as i32,
            async_: o.async_,
            kernel: Some(slot.name.as_str()),
            num_gangs: n as usize,
            num_workers: o.num_workers.max(1) as usize,
            vector_length: o.vector_length.max(1) as usize,
            loc: o.loc,
            ..Event::default()
        };
        let t_cc = prof::emit(&Event { kind: acc_ev_compute_construct_start, ..base.clone() });
        let t_el = prof::emit(&Event { kind: acc_ev_enqueue_launch_start, ..base.clone() });
        LaunchEvents { ev: Some((base, t_cc, t_el)) }
    }

    pub fn end(self) {
        if let Some((base, t_cc, t_el)) = self.ev {
            prof::emit(&Event { kind: acc_ev_enqueue_launch_end, tool_info: t_el, ..base.clone() });
            prof::emit(&Event { kind: acc_ev_compute_construct_end, tool_info: t_cc, ..base });
        }
    }
}

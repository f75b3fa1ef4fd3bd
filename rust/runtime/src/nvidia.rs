//! The nvidia device type: one device per CUDA GPU, wired from the CUDA
//! layer (`cuda`, CONTRACT9.md) into the runtime's device abstraction.
//!
//! - Discovery ([`discover`]) asks the CUDA layer how many GPUs there are;
//!   where libcuda is missing there are none, quietly. A GPU's context is
//!   opened at the device's first use, not at discovery, so programs on the
//!   CPU devices never pay for it.
//! - Memory: the CUDA layer's caching allocator (`Gpu::memory`), opened
//!   lazily behind [`GpuMemory`]. Device addresses differ from host
//!   addresses: every data action really copies.
//! - Queues are CUDA streams ([`GpuStreams`]): one per async value, the
//!   device's synchronous stream for `acc_async_sync`.
//! - Launch ([`GpuCompute`]): the kernel's PTX form (`launch::PtxForm`);
//!   the program's module is loaded once per device (and generation), and
//!   its `declare`d globals become the device copies of the host globals in
//!   that device's present table (issue 9 A.6). Arguments: device addresses
//!   translated through the present table — one in no present data is
//!   `acc_error_not_present` (A.5); firstprivate aggregates staged in device
//!   memory; by-value aggregates copied into the parameter bytes. Grid and
//!   block from the clauses, the kernel's hints and the device (B.3).
//! - Errors: a CUDA error is an `AccError` naming the kernel (the launch
//!   adds its source line); after an execution error (a faulting kernel) the
//!   CUDA layer recreates the context and the device drops its present data
//!   and loaded modules (a new generation), so it is usable again.

use crate::compute::{self, Compute, Form, Streams};
use crate::consts::*;
use crate::cuda::{self, Gpu, GpuFunction, GpuModule, RawFunction};
use crate::device::{self, Device, DeviceType};
use crate::error::{AccError, AccResult};
use crate::launch::{KernelSlot, LaunchOpts, PtxForm, PtxModuleText, PARAM_SNAPSHOT};
use crate::memory::Memory;
use crate::present::Entry;
use crate::queue::{self, Queues};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// The nvidia devices of this machine (none without libcuda or a GPU).
pub fn discover() -> Vec<Device> {
    if !cuda::available() {
        return vec![];
    }
    (0..cuda::device_count())
        .map(|i| {
            Device::new(
                DeviceType::Nvidia,
                i,
                Box::new(GpuMemory {
                    ordinal: i,
                    inner: OnceLock::new(),
                    blocks: Mutex::new(Default::default()),
                    held: Default::default(),
                    base_free: OnceLock::new(),
                }),
                Box::new(GpuCompute { ordinal: i }),
                Queues::with_streams(Box::new(GpuStreams { ordinal: i, used: Mutex::new(BTreeSet::new()), used_bits: AtomicU64::new(0) })),
            )
        })
        .collect()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A module loaded on one device (`PtxModuleText::loaded`).
pub(crate) struct Loaded {
    ordinal: usize,
    generation: u64,
    module: Arc<GpuModule>,
    /// Device addresses of the module's globals (`PtxModuleText::globals` order).
    symbols: Vec<(usize, usize)>,
    /// Device address of the module's `accjit_abi::device_end` record (0: none).
    end: usize,
    /// Its kernels looked up so far (by a launch or by [`preload`]): the
    /// driver loads a kernel's code when it is first looked up.
    functions: Vec<GpuFunction>,
}

/// A kernel's function on one device (`PtxForm::functions`).
pub(crate) struct LoadedFn {
    ordinal: usize,
    generation: u64,
    func: GpuFunction,
    /// Device address of the module's `accjit_abi::device_end` record (0: none).
    end: usize,
}

/// A module loaded on one device: its `accjit_abi::device_end` record.
fn end_record(module: &GpuModule, text: &PtxModuleText) -> AccResult<usize> {
    if !text.text.contains(accjit_abi::device_end::SYMBOL) {
        return Ok(0);
    }
    module.global(accjit_abi::device_end::SYMBOL).map(|(d, _)| d)
}

// --- memory -------------------------------------------------------------------

/// The GPU's memory, opened at first use; keeps the `acc_malloc` blocks'
/// extents so that a launch recognises device addresses (`owns`), and its
/// own books of what the device holds: free memory
/// (`acc_property_free_memory`) is the driver's free memory when the device
/// was first asked (with what the caching allocator keeps counted free)
/// less the bytes present data and `acc_malloc` blocks hold now, so it
/// moves by exactly what a program allocates and frees, as on the CPU
/// devices (the pool's caching and other processes do not make it jump).
struct GpuMemory {
    ordinal: usize,
    inner: OnceLock<Box<dyn Memory>>,
    blocks: Mutex<std::collections::BTreeMap<usize, usize>>,
    held: std::sync::atomic::AtomicUsize,
    base_free: OnceLock<usize>,
}

impl GpuMemory {
    fn hold(&self, bytes: usize) {
        self.held.fetch_add(bytes, std::sync::atomic::Ordering::Relaxed);
    }
    fn release(&self, bytes: usize) {
        use std::sync::atomic::Ordering::Relaxed;
        let _ = self.held.fetch_update(Relaxed, Relaxed, |h| Some(h.saturating_sub(bytes)));
    }
}

impl GpuMemory {
    fn mem(&self) -> AccResult<&dyn Memory> {
        if let Some(m) = self.inner.get() {
            return Ok(m.as_ref());
        }
        let g = cuda::gpu(self.ordinal)?;
        Ok(self.inner.get_or_init(|| g.memory()).as_ref())
    }
}

impl GpuMemory {
    /// The driver's free memory at the device's first use, plus what this
    /// device held then (nothing, unless a copy came first).
    fn baseline(&self) -> usize {
        *self.base_free.get_or_init(|| {
            let free = cuda::gpu(self.ordinal).map(|g| g.mem_info().1).unwrap_or(0);
            free + self.held.load(std::sync::atomic::Ordering::Relaxed)
        })
    }
}

impl Memory for GpuMemory {
    fn is_shared(&self) -> bool {
        false
    }
    fn alloc_copy(&self, host: usize, bytes: usize) -> AccResult<usize> {
        self.baseline();
        let d = self.mem()?.alloc_copy(host, bytes)?;
        self.hold(bytes);
        Ok(d)
    }
    fn free_copy(&self, dev: usize, host: usize, bytes: usize) {
        self.release(bytes);
        if let Ok(m) = self.mem() {
            m.free_copy(dev, host, bytes)
        }
    }
    fn malloc(&self, bytes: usize) -> AccResult<usize> {
        self.baseline();
        let p = self.mem()?.malloc(bytes)?;
        if p != 0 {
            lock(&self.blocks).insert(p, bytes);
            self.hold(bytes);
        }
        Ok(p)
    }
    fn free(&self, dev: usize) {
        if let Some(bytes) = lock(&self.blocks).remove(&dev) {
            self.release(bytes);
        }
        if let Ok(m) = self.mem() {
            m.free(dev)
        }
    }
    fn owns(&self, addr: usize) -> bool {
        lock(&self.blocks).range(..=addr).next_back().is_some_and(|(s, n)| addr < s + n)
    }
    unsafe fn copy_to(&self, dev: usize, host: *const u8, bytes: usize) {
        if let Ok(m) = self.mem() {
            m.copy_to(dev, host, bytes)
        }
    }
    unsafe fn copy_from(&self, host: *mut u8, dev: usize, bytes: usize) {
        if let Ok(m) = self.mem() {
            m.copy_from(host, dev, bytes)
        }
    }
    unsafe fn copy_within(&self, dst: usize, src: usize, bytes: usize) {
        if let Ok(m) = self.mem() {
            m.copy_within(dst, src, bytes)
        }
    }
    unsafe fn zero(&self, dev: usize, bytes: usize) {
        if let Ok(m) = self.mem() {
            m.zero(dev, bytes)
        }
    }
    fn memory_info(&self) -> (usize, usize) {
        let total = cuda::gpu(self.ordinal).map(|g| g.mem_info().0).unwrap_or(0);
        let base = self.baseline();
        (total, base.saturating_sub(self.held.load(std::sync::atomic::Ordering::Relaxed)).min(total))
    }
    fn lost(&self) {
        lock(&self.blocks).clear();
        self.held.store(0, std::sync::atomic::Ordering::Relaxed);
    }
    fn take_error(&self) -> Option<AccError> {
        let e = match cuda::gpu(self.ordinal) {
            Ok(g) => g.take_error()?,
            // A child of fork() whose parent used the GPU: every copy failed.
            Err(e) => return cuda::inherited().then_some(e),
        };
        Some(after_error(self.ordinal, e))
    }
}

// --- streams ------------------------------------------------------------------

/// The device's queues as CUDA streams.
struct GpuStreams {
    ordinal: usize,
    /// Async values whose streams exist.
    used: Mutex<BTreeSet<i64>>,
    /// Bit v set: async value v (< 64) is in `used` already (a launch on
    /// the same queue again takes no lock for it).
    used_bits: AtomicU64,
}

impl GpuStreams {
    fn stream(&self, v: Option<i64>) -> AccResult<(&'static Gpu, usize)> {
        let g = cuda::gpu(self.ordinal)?;
        let s = g.stream(v.unwrap_or(acc_async_sync))?;
        if let Some(v) = v {
            let bit = if (0..64).contains(&v) { 1u64 << v } else { 0 };
            if bit == 0 || self.used_bits.load(Relaxed) & bit == 0 {
                lock(&self.used).insert(v);
                self.used_bits.fetch_or(bit, Relaxed);
            }
        }
        Ok((g, s))
    }
    fn is_used(&self, v: i64) -> bool {
        lock(&self.used).contains(&v)
    }
}

impl Streams for GpuStreams {
    fn sync(&self, v: Option<i64>) -> AccResult<()> {
        if v.is_some_and(|v| !self.is_used(v)) {
            return Ok(());
        }
        let (g, s) = self.stream(v)?;
        g.sync_stream(s).map_err(|e| after_error(self.ordinal, e))
    }
    fn idle(&self, v: i64) -> AccResult<bool> {
        if !self.is_used(v) {
            return Ok(true);
        }
        let (g, s) = self.stream(Some(v))?;
        g.query_stream(s)
    }
    fn order(&self, waiter: Option<i64>, waited: i64) -> AccResult<()> {
        if !self.is_used(waited) {
            return Ok(());
        }
        let (g, w) = self.stream(waiter)?;
        let (_, d) = self.stream(Some(waited))?;
        g.stream_wait_stream(w, d)
    }
    fn used(&self) -> Vec<i64> {
        lock(&self.used).iter().copied().collect()
    }
    fn handle(&self, v: Option<i64>) -> AccResult<usize> {
        self.stream(v).map(|(_, s)| s)
    }
    unsafe fn copy_to(&self, v: Option<i64>, dev: usize, host: *const u8, bytes: usize) -> AccResult<()> {
        let (g, s) = self.stream(v)?;
        g.copy_to_async(dev, host, bytes, s)
    }
    unsafe fn copy_from(&self, v: Option<i64>, host: *mut u8, dev: usize, bytes: usize) -> AccResult<()> {
        let (g, s) = self.stream(v)?;
        g.copy_from_async(host, dev, bytes, s)
    }
}

/// After a failed CUDA call on device `ordinal`: a kernel fault (it
/// poisons the context) resets the device — a fresh context, the present
/// table emptied, modules reloaded at next use. Other errors, bad launch
/// configurations among them (`acc_error_execution` too), leave the
/// device and its present data alone; so does a device already lost (its
/// error says to restart the process).
fn after_error(ordinal: usize, e: AccError) -> AccError {
    let poisoned = cuda::gpu(ordinal).map(|g| g.poisoned()).unwrap_or(false);
    if !poisoned {
        return e;
    }
    let Some(dev) = device::device(DeviceType::Nvidia, ordinal) else { return e };
    let reset = cuda::gpu(ordinal).and_then(|g| g.recover());
    dev.lost_state();
    let how = match reset {
        Ok(()) => "the device was reset: its present data is gone".to_string(),
        Err(r) => format!("resetting the device failed too: {}", r.message),
    };
    AccError { message: format!("{} ({how})", e.message), ..e }
}

// --- compute ------------------------------------------------------------------

/// Runs PTX forms on GPU `ordinal`.
pub struct GpuCompute {
    ordinal: usize,
}

impl GpuCompute {
    fn gpu(&self) -> AccResult<&'static Gpu> {
        cuda::gpu(self.ordinal)
    }
}

impl Compute for GpuCompute {
    fn form(&self) -> Form {
        Form::Ptx
    }

    fn init(&self) -> AccResult<()> {
        self.gpu().map(|_| ())
    }

    fn property_string(&self, prop: i32) -> Option<String> {
        let g = self.gpu().ok()?;
        match prop {
            acc_property_name => Some(g.name().to_string()),
            acc_property_vendor => Some("NVIDIA".into()),
            acc_property_driver => {
                let (ma, mi) = g.compute_capability();
                Some(format!("accjit {} (PTX through the CUDA driver; compute capability {ma}.{mi})", env!("CARGO_PKG_VERSION")))
            }
            _ => None,
        }
    }

    fn launch(&self, dev: &'static Device, slot: &KernelSlot, args: &mut [u64], o: &LaunchOpts, q: Option<i64>) -> AccResult<()> {
        let form = slot.ptx().ok_or_else(|| {
            AccError::new(
                acc_error_device_unavailable,
                format!(
                    "kernel {} has no code for the nvidia device (the program was compiled for another device type; compile it with device_type nvidia)",
                    slot.name
                ),
            )
        })?;
        let gpu = self.gpu()?;
        let (func, end) = function(dev, gpu, form)?;
        let nparams = slot.param_kinds.len().min(args.len());
        let implicit = compute::translate_or_copy(dev, slot, args, o)?;
        // What the launch copied in implicitly comes back (and leaves) whatever happens.
        let r = (|| -> AccResult<Option<crate::hosted::Outcome>> {
            if let Some(w) = o.wait {
                queue::wait(dev, compute::wait_list(w).as_deref(), o.async_, o.loc, false)?;
            }
            // Firstprivate aggregates: the values at the construct, staged in device memory.
            let mut staged = vec![];
            if form.has_snapshots {
                for i in 0..nparams {
                    if slot.param_kinds[i] != PARAM_SNAPSHOT || args[i] == 0 {
                        continue;
                    }
                    let bytes = args.get(i + 1).copied().unwrap_or(0) as i64;
                    if bytes <= 0 {
                        continue;
                    }
                    let d = dev.mem.malloc(bytes as usize)?;
                    unsafe { dev.mem.copy_to(d, args[i] as *const u8, bytes as usize) };
                    args[i] = d as u64;
                    staged.push(d);
                }
                if let Some(e) = dev.mem.take_error() {
                    staged.iter().for_each(|&d| dev.mem.free(d));
                    return Err(e);
                }
            }
            // Parameter pointers: to each u64 slot, or to the bytes of a
            // by-value aggregate; on the stack up to INLINE_PARAMS (no
            // allocation for the usual kernel).
            const INLINE_PARAMS: usize = 32;
            let mut inline = [std::ptr::null_mut::<std::ffi::c_void>(); INLINE_PARAMS];
            let mut spilled: Vec<*mut std::ffi::c_void> = vec![];
            let params: &mut [*mut std::ffi::c_void] = if nparams <= INLINE_PARAMS {
                &mut inline[..nparams]
            } else {
                spilled.resize(nparams, std::ptr::null_mut());
                &mut spilled
            };
            let mut by_value: Vec<Vec<u64>> = vec![];
            for (i, arg) in args[..nparams].iter_mut().enumerate() {
                let size = if form.has_aggregates { form.param_bytes.get(i).copied().unwrap_or(0) as usize } else { 0 };
                if size > 0 && *arg != 0 {
                    let mut b = vec![0u64; size.div_ceil(8)];
                    // SAFETY: a by-value aggregate argument is the host address of `size` bytes.
                    unsafe { std::ptr::copy_nonoverlapping(*arg as *const u8, b.as_mut_ptr() as *mut u8, size) };
                    params[i] = b.as_mut_ptr() as *mut std::ffi::c_void;
                    by_value.push(b);
                } else {
                    params[i] = arg as *mut u64 as *mut std::ffi::c_void;
                }
            }
            let extents = &args[nparams..];
            let fill = |threads: u32| {
                let generation = dev.generation();
                if let Some(f) = lock(&form.fills).iter().find(|f| f.0 == dev.num && f.1 == generation && f.2 == threads) {
                    return f.3;
                }
                // SMs × resident blocks of this size.
                let per_sm =
                    lock(&form.functions).iter().find(|l| l.ordinal == dev.num && l.generation == generation).map_or(1, |l| l.func.blocks_per_sm(threads, 0));
                let blocks = gpu.sm_count().max(1) as u64 * per_sm.max(1) as u64 * fill_waves();
                lock(&form.fills).push((dev.num, generation, threads, blocks));
                cuda::trace(|| format!("kernel {}: {threads} threads per block, {per_sm} resident per SM, {blocks} blocks fill the device", slot.name));
                blocks
            };
            let (grid, block) = launch_config(func.max_threads_per_block(), form, slot, o, extents, fill);
            let events = compute::LaunchEvents::start(dev, slot, o, grid.iter().map(|&d| d as i64).product());
            let streams = dev.queues.streams().ok_or_else(|| AccError::new(acc_error_other, "the nvidia device has no streams"))?;
            let stream = streams.handle(q)?;
            let name = |e: AccError| AccError { message: format!("kernel {} on nvidia device {}: {}", slot.name, dev.num, e.message), ..e };
            let r = gpu.launch_raw(func, &form.entry, grid, block, 0, params, stream).map_err(|e| after_error(self.ordinal, name(e)));
            // A synchronous launch waits; so does one whose staged copies are
            // freed next, and one that may end the program (its end is known
            // when it is complete: such launches are never asynchronous).
            let wait = q.is_none() || !staged.is_empty() || form.ends_program;
            let r = r.and_then(|()| if wait { gpu.sync_stream(stream).map_err(|e| after_error(self.ordinal, name(e))) } else { Ok(()) });
            for d in staged {
                dev.mem.free(d);
            }
            events.end();
            match r {
                Ok(()) if form.ends_program && end != 0 => {
                    replay_io_log(dev, gpu, form, stream, &slot.name).map_err(|e| after_error(self.ordinal, name(e)))?;
                    program_end(gpu, end, stream, &form.module, dev.num, dev.generation()).map_err(|e| after_error(self.ordinal, name(e)))
                }
                r => r.map(|()| None),
            }
        })();
        if let Ok(Some(outcome)) = r {
            // As a gang of a multicore launch that ended the program: the
            // data the call holds is released (hosted) or the process ends.
            crate::hosted::flush_c_stdio();
            crate::hosted::terminate(outcome);
        }
        let r = r.map(|_| ());
        if implicit.is_empty() {
            return r;
        }
        let done = compute::implicit_exit(dev, &implicit, o);
        r.and(done)
    }
}

/// How many times the resident blocks a launch without `num_gangs` gets:
/// `ACCJIT_NVIDIA_WAVES` (1..=64, default 1; read once), for comparisons.
fn fill_waves() -> u64 {
    static WAVES: OnceLock<u64> = OnceLock::new();
    *WAVES.get_or_init(|| std::env::var("ACCJIT_NVIDIA_WAVES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(1).clamp(1, 64))
}

/// Grid and block of one launch (CONTRACT9.md): block (V, W, 1) with V the
/// `vector_length` clause or the kernel's hint, W `num_workers` or the
/// hint, capped so that V × W fits the function's thread limit (workers
/// give way first); the grid has `num_gangs` gangs exactly, else the
/// kernel's suggestion, else enough blocks to fill the device (SM count ×
/// resident blocks of this size), capped by the kernel's useful maximum;
/// gang grids put the extents of the lower dimensions in x (and y) and the
/// rest in the last dimension.
fn launch_config(max_threads: u32, form: &PtxForm, slot: &KernelSlot, o: &LaunchOpts, extents: &[u64], fill: impl FnOnce(u32) -> u64) -> ([u32; 3], [u32; 3]) {
    let max_threads = max_threads.max(1);
    let pick = |clause: i64, hint: u32| if clause > 0 { clause.min(1024) as u32 } else { hint.max(1) };
    // `serial`: one gang of one worker with vector length 1 (§2.5.3), whatever the hints.
    let serial = slot.construct() == acc_construct_serial;
    let mut v = if serial { 1 } else { pick(o.vector_length, form.vector).min(max_threads) };
    let mut w = if serial { 1 } else { pick(o.num_workers, form.workers) };
    if v * w > max_threads {
        w = (max_threads / v).max(1);
        v = v.min(max_threads / w);
    }
    let threads = (v * w).max(1);
    let useful = form.max_gangs.or(slot.max_gangs);
    let gangs: u64 = if o.num_gangs > 0 {
        o.num_gangs as u64
    } else {
        // Enough blocks to fill the device.
        let g = form.default_gangs.unwrap_or_else(|| fill(threads)).max(1);
        useful.map_or(g, |m| g.min(m.max(1)))
    };
    let dims = form.gang_dims.clamp(1, 3) as usize;
    let mut grid = [1u64; 3];
    let mut below = 1u64;
    for (d, g) in grid.iter_mut().enumerate().take(dims - 1) {
        *g = extents.get(d).copied().unwrap_or(1).max(1);
        below *= *g;
    }
    grid[dims - 1] = (gangs / below).max(1);
    let limits = [i32::MAX as u64, 65535, 65535];
    let grid = [grid[0].min(limits[0]) as u32, grid[1].min(limits[1]) as u32, grid[2].min(limits[2]) as u32];
    (grid, [v, w, 1])
}

/// The kernel's function on `dev` (its launch facts: the `GpuFunction`
/// stays in `form.functions`, which keeps it alive) and its module's end
/// record (0: none), loading the program's module first if needed.
fn function(dev: &'static Device, gpu: &Gpu, form: &PtxForm) -> AccResult<(RawFunction, usize)> {
    let generation = dev.generation();
    if let Some(l) = lock(&form.functions).iter().find(|l| l.ordinal == dev.num && l.generation == generation) {
        return Ok((l.func.raw(), l.end));
    }
    let t0 = std::time::Instant::now();
    let (func, end) = kernel_on(dev, gpu, &form.module, &form.entry)?;
    let raw = func.raw();
    cuda::trace(|| format!("kernel {}: function ready in {:.3} ms", form.entry, t0.elapsed().as_secs_f64() * 1e3));
    let mut fs = lock(&form.functions);
    // Entries of this device are of older generations (the device was reset): their modules are gone.
    fs.retain(|l| l.ordinal != dev.num);
    fs.push(LoadedFn { ordinal: dev.num, generation, func, end });
    Ok((raw, end))
}

/// Kernel `entry` of the program's module on `dev` and the module's end
/// record, loading the module (once per device and generation, its
/// globals bound: see [`bind_globals`]) and looking the kernel up (once
/// per module) as needed.
fn kernel_on(dev: &'static Device, gpu: &Gpu, text: &PtxModuleText, entry: &str) -> AccResult<(GpuFunction, usize)> {
    let generation = dev.generation();
    let mut loaded = lock(&text.loaded);
    let at = match loaded.iter().position(|l| l.ordinal == dev.num && l.generation == generation) {
        Some(at) => at,
        None => {
            let module = Arc::new(gpu.load_module(&text.text)?);
            let mut symbols = Vec::with_capacity(text.globals.len());
            for g in &text.globals {
                symbols.push(module.global(&g.symbol)?);
            }
            let end = end_record(&module, text)?;
            bind_globals(dev, text, &symbols);
            loaded.retain(|l| l.ordinal != dev.num);
            loaded.push(Loaded { ordinal: dev.num, generation, module, symbols, end, functions: vec![] });
            loaded.len() - 1
        }
    };
    let l = &mut loaded[at];
    if let Some(f) = l.functions.iter().find(|f| f.name() == entry) {
        return Ok((f.clone(), l.end));
    }
    let f = l.module.function(entry)?;
    l.functions.push(f.clone());
    Ok((f, l.end))
}

/// Gets a program's kernels ready on the current nvidia device ahead of
/// their first launch, on a background thread: the module from the disk
/// cache (or the driver's JIT), each kernel looked up (the driver loads its
/// code then) and its occupancy at the block size it suggests. So the
/// first call of a program compiled (or fetched from the disk cache) in
/// this process overlaps the load with what Python does until the call,
/// instead of paying it inside the call (~0.2 ms on the H100 for a cached
/// module). Done only where it cannot change what a program sees: the
/// current device type is nvidia and its device is already open (a program
/// compiled before the device is used does not open it), and the module
/// defines no globals (binding them copies host values, which must be the
/// ones at the first launch). `kernels`: each kernel's entry and its block
/// size without clauses. Errors are left for the launch to report. The
/// work runs on the CUDA layer's thread for work ahead of need
/// (`cuda::ahead`); the receiver hears when it is done (callers need not
/// wait: a launch waits for a load in progress).
pub fn preload(text: &Arc<PtxModuleText>, kernels: Vec<(String, u32)>) -> Option<std::sync::mpsc::Receiver<()>> {
    if !text.globals.is_empty() || kernels.is_empty() || device::current_type() != DeviceType::Nvidia {
        return None;
    }
    let num = device::current_num(DeviceType::Nvidia);
    let dev = device::device(DeviceType::Nvidia, num)?;
    let gpu = cuda::opened(num)?;
    let text = text.clone();
    let (done, heard) = std::sync::mpsc::channel();
    let queued = cuda::ahead(Box::new(move || {
        let t0 = std::time::Instant::now();
        for (entry, threads) in &kernels {
            let Ok((func, _)) = kernel_on(dev, gpu, &text, entry) else { break };
            func.blocks_per_sm((*threads).clamp(1, func.max_threads_per_block().max(1)), 0);
        }
        cuda::trace(|| format!("preload: {} kernel(s) ready in {:.3} ms", kernels.len(), t0.elapsed().as_secs_f64() * 1e3));
        let _ = done.send(());
    }));
    queued.then_some(heard)
}

/// After a completed launch of a kernel that may end the program: the
/// module's end record (`accjit_abi::device_end`) at `end`, as the outcome
/// a CPU device's `exit`/`abort`/`__accjit_assert_fail` gives (the failed
/// assertion's message printed here, as there), the record cleared for
/// the next launch; `None` when no thread ended the program. `text` is the
/// kernel's module, loaded on device `ordinal` in `generation`.
fn program_end(gpu: &Gpu, end: usize, stream: usize, text: &PtxModuleText, ordinal: usize, generation: u64) -> AccResult<Option<crate::hosted::Outcome>> {
    use crate::hosted::Outcome;
    use accjit_abi::device_end as rec;
    let mut b = [0u8; rec::BYTES];
    unsafe { gpu.copy_from_async(b.as_mut_ptr(), end, rec::BYTES, stream)? };
    gpu.sync_stream(stream)?;
    let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    let u64_at = |o: usize| u64::from_le_bytes(std::array::from_fn(|i| b[o + i]));
    let kind = u32_at(rec::KIND);
    if kind == rec::NONE {
        return Ok(None);
    }
    unsafe { gpu.zero_async(end, rec::BYTES, stream)? };
    let outcome = match kind {
        rec::EXIT => Outcome::Exit(u32_at(rec::CODE) as i32),
        rec::ASSERT => {
            let text_at = |at: u64| recorded_cstr(gpu, text, ordinal, generation, at as usize, stream);
            let (expr, file) = (text_at(u64_at(rec::EXPR)), text_at(u64_at(rec::FILE)));
            let msg = format!("{file}:{}: Assertion `{expr}' failed.", u64_at(rec::LINE) as u32);
            eprintln!("{msg}");
            Outcome::Abort(msg)
        }
        _ => Outcome::Abort("abort() called".into()),
    };
    gpu.sync_stream(stream)?;
    Ok(Some(outcome))
}

/// After a completed launch of a kernel whose module logs Fortran output
/// (`accjit_abi::device_io_log`; the launch is synchronous): the records
/// replayed on this thread through the Fortran runtime's entry points
/// (`fortran::device_log`), the log emptied for the next launch.
fn replay_io_log(dev: &'static Device, gpu: &Gpu, form: &PtxForm, stream: usize, kernel: &str) -> AccResult<()> {
    use accjit_abi::device_io_log as log;
    // the launch loaded it
    let Some(module) = lock(&form.module.loaded).iter().find(|l| l.ordinal == dev.num && l.generation == dev.generation()).map(|l| l.module.clone()) else {
        return Ok(());
    };
    let Ok((head, _)) = module.global(log::HEADER) else { return Ok(()) };
    let mut h = [0u8; log::HEADER_BYTES];
    unsafe { gpu.copy_from_async(h.as_mut_ptr(), head, log::HEADER_BYTES, stream)? };
    gpu.sync_stream(stream)?;
    let u64_at = |o: usize| u64::from_le_bytes(std::array::from_fn(|i| h[o + i]));
    let (used, dropped) = (u64_at(log::USED), u64_at(log::DROPPED));
    if used == 0 && dropped == 0 {
        return Ok(());
    }
    let (data, capacity) = module.global(log::SYMBOL)?;
    let mut records = vec![0u8; (used as usize).min(capacity)];
    if !records.is_empty() {
        unsafe { gpu.copy_from_async(records.as_mut_ptr(), data, records.len(), stream)? };
    }
    unsafe { gpu.zero_async(head, log::HEADER_BYTES, stream)? };
    gpu.sync_stream(stream)?;
    cuda::trace(|| format!("kernel {kernel}: replaying {} bytes of logged Fortran output ({dropped} statements dropped)", records.len()));
    crate::fortran::device_log::replay(&records, dropped, capacity, kernel);
    Ok(())
}

/// A text a failed `assert` recorded by its device address `at`: the
/// expression and the file name are string literals, globals of the
/// program that the module defines as symbols, so the text is read from
/// the host global that the symbol was initialised from (constant, alive
/// as long as the program); an address in no symbol of the module is read
/// from the device. (Read from the device in 16-byte pieces, both texts
/// came out "?" on the H100: the driver refuses a copy that runs past the
/// end of the module global holding its start, and a string literal is a
/// global of its own length. `ACCJIT_CUDA_TRACE=1` prints the record's
/// addresses, the symbol that holds each and what the device read gives.)
fn recorded_cstr(gpu: &Gpu, text: &PtxModuleText, ordinal: usize, generation: u64, at: usize, stream: usize) -> String {
    let host = module_cstr(text, ordinal, generation, at);
    if cuda::tracing() {
        let device = device_cstr(gpu, at, stream);
        cuda::trace(|| {
            format!("assert record: text at {at:#x}: module symbol {:?}, device read {device:?}", host.as_ref().map(|(sym, s)| (sym.as_str(), s.as_str())))
        });
    }
    match host {
        Some((_, s)) => s,
        None => device_cstr(gpu, at, stream).unwrap_or_else(|_| "?".into()),
    }
}

/// The NUL-terminated text at device address `at` when it lies in a
/// global symbol of `text` as loaded on device `ordinal` in `generation`,
/// read from the host global the symbol mirrors: (symbol, text).
fn module_cstr(text: &PtxModuleText, ordinal: usize, generation: u64, at: usize) -> Option<(String, String)> {
    let loaded = lock(&text.loaded);
    let l = loaded.iter().find(|l| l.ordinal == ordinal && l.generation == generation)?;
    text.globals.iter().zip(&l.symbols).find_map(|(g, &(sym, size))| {
        let bytes = g.bytes.min(size);
        if g.host == 0 || at < sym || at >= sym + bytes {
            return None;
        }
        // SAFETY: `g.host` is the program's host global of at least
        // `g.bytes` bytes (its JIT data, alive while the module text is).
        let s = unsafe { std::slice::from_raw_parts((g.host + (at - sym)) as *const u8, bytes - (at - sym)) };
        let len = s.iter().position(|&c| c == 0).unwrap_or(s.len());
        Some((g.symbol.clone(), String::from_utf8_lossy(&s[..len]).into_owned()))
    })
}

/// The NUL-terminated string at device address `at`, at most 4 KiB: read
/// in aligned 16-byte pieces (an aligned piece never leaves the page its
/// first byte is on), and byte by byte from where a piece cannot be read
/// (the driver refuses a copy that runs past the end of the allocation or
/// module global holding its start); the first failed copy's error when
/// nothing was read, "?" for a null or empty text.
fn device_cstr(gpu: &Gpu, at: usize, stream: usize) -> Result<String, String> {
    const PIECE: usize = 16;
    let mut bytes = vec![];
    let mut p = at;
    let mut piece = PIECE;
    while at != 0 && bytes.len() < 4096 {
        let mut b = [0u8; PIECE];
        let n = piece - p % piece;
        if let Err(e) = unsafe { gpu.copy_from_async(b.as_mut_ptr(), p, n, stream) }.and_then(|()| gpu.sync_stream(stream)) {
            if n > 1 {
                piece = 1;
                continue;
            }
            if bytes.is_empty() {
                return Err(e.message);
            }
            break;
        }
        match b[..n].iter().position(|&c| c == 0) {
            Some(k) => {
                bytes.extend_from_slice(&b[..k]);
                break;
            }
            None => bytes.extend_from_slice(&b[..n]),
        }
        p += n;
    }
    Ok(if bytes.is_empty() { "?".into() } else { String::from_utf8_lossy(&bytes).into_owned() })
}

/// Makes each `declare`d global's symbol its device copy on `dev` (declare
/// semantics: never freed while the module lives), initialised from the
/// host global's current bytes. Where `declare` (or a data clause) already
/// made device copies of the global or of sections of it elsewhere, each
/// moves into the symbol at its offset (its bytes copied there, the old
/// copy freed) and keeps its counts; with none, the whole global becomes
/// present through the symbol (structured count 1). A `declare link`
/// global's symbol becomes its *home* in the present table: nothing is
/// present until a data clause names the global (or a section), whose
/// device copy is then the symbol at the section's offset (never freed;
/// the clause's counts and copies as for any data), so that the routines
/// that address the symbol and the kernels that get the global through
/// the clause see the same bytes; sections already present move in as
/// above. Other globals that device code names only get the host bytes
/// (the module's initial values): a data clause on them copies to a device
/// copy of its own, as on any device.
fn bind_globals(dev: &Device, text: &PtxModuleText, symbols: &[(usize, usize)]) {
    for (g, &(sym, size)) in text.globals.iter().zip(symbols) {
        let bytes = g.bytes.min(size);
        if bytes == 0 || g.host == 0 {
            continue;
        }
        unsafe { dev.mem.copy_to(sym, g.host as *const u8, bytes) };
        if !g.declared && !g.link {
            continue;
        }
        let mut t = dev.table();
        let end = g.host + bytes;
        let inside: Vec<Entry> = t.entries().filter(|e| e.host < end && e.host + e.bytes > g.host).cloned().collect();
        if inside.iter().any(|e| e.host < g.host || e.host + e.bytes > end) {
            // Overlaps data beyond the global: leave the table alone.
            continue;
        }
        if g.link {
            t.set_home(g.host, bytes, sym);
        } else if inside.is_empty() {
            t.insert(Entry { host: g.host, bytes, dev: sym, structured: 1, dynamic: 0, mapped: true });
            continue;
        }
        for old in inside {
            let at = sym + (old.host - g.host);
            if old.dev == at {
                continue;
            }
            t.remove(old.host);
            t.insert(Entry { dev: at, mapped: true, ..old.clone() });
            unsafe { dev.mem.copy_within(at, old.dev, old.bytes) };
            if !old.mapped {
                dev.mem.free_copy(old.dev, old.host, old.bytes);
            }
        }
    }
}

/// A program's module goes away (its program is dropped): its globals
/// leave the present tables of the devices it was loaded on.
pub(crate) fn unbind_globals(text: &PtxModuleText) {
    for l in lock(&text.loaded).iter() {
        let Some(dev) = device::device(DeviceType::Nvidia, l.ordinal) else { continue };
        if dev.generation() != l.generation {
            continue;
        }
        let mut t = dev.table();
        for (g, &(sym, size)) in text.globals.iter().zip(&l.symbols) {
            if g.link {
                t.remove_home(g.host);
            }
            let stale: Vec<usize> = t
                .entries()
                .filter(|e| e.dev >= sym && e.dev < sym + size.max(1) && e.host >= g.host && e.host < g.host + g.bytes.max(1))
                .map(|e| e.host)
                .collect();
            for h in stale {
                t.remove(h);
            }
        }
    }
}

/// `acc_memcpy_d2d` between two nvidia devices: a peer copy (through the
/// host where the GPUs cannot reach each other), complete on return.
/// `Ok(false)` when the two are not both nvidia devices.
pub(crate) fn peer_copy(dst_dev: &Device, dst: usize, src_dev: &Device, src: usize, bytes: usize) -> AccResult<bool> {
    if dst_dev.ty != DeviceType::Nvidia || src_dev.ty != DeviceType::Nvidia {
        return Ok(false);
    }
    let (to, from) = (cuda::gpu(dst_dev.num)?, cuda::gpu(src_dev.num)?);
    // What the source device's queues hold first: the copy reads the finished data.
    src_dev.queues.wait_all(None)?;
    let s = to.stream(acc_async_sync)?;
    unsafe { to.copy_peer_async(dst, from, src, bytes, s)? };
    to.sync_stream(s).map_err(|e| after_error(dst_dev.num, e))?;
    Ok(true)
}

/// `acc_get_current_cuda_device` / `acc_get_current_cuda_context`: the
/// `CUdevice` and `CUcontext` of the current nvidia device (0 elsewhere).
pub fn cuda_handles() -> (usize, usize) {
    match device::current_device() {
        Ok(dev) if dev.ty == DeviceType::Nvidia => cuda::gpu(dev.num).map(|g| (g.cu_device() as usize, g.cu_context())).unwrap_or((0, 0)),
        _ => (0, 0),
    }
}

/// `acc_get_cuda_stream`: the CUDA stream of async value `async_` on the
/// current device (null when it is not an nvidia device).
pub fn cuda_stream(async_: i64) -> AccResult<usize> {
    let dev = device::current_device()?;
    if dev.ty != DeviceType::Nvidia {
        return Ok(0);
    }
    let v = queue::resolve(async_)?;
    match dev.queues.streams() {
        Some(s) => s.handle(v),
        None => Ok(0),
    }
}

/// `acc_set_cuda_stream`: async value `async_` of the current (nvidia)
/// device uses CUDA stream `stream` from now on.
pub fn set_cuda_stream(async_: i64, stream: usize) -> AccResult<()> {
    let dev = device::current_device()?;
    if dev.ty != DeviceType::Nvidia {
        return Err(AccError::new(acc_error_invalid_argument, "acc_set_cuda_stream: the current device is not an nvidia device"));
    }
    let v = queue::resolve(async_)?;
    cuda::gpu(dev.num)?.set_stream(v.unwrap_or(acc_async_sync), stream);
    // The queue is in use now (waits and tests see it).
    if let (Some(s), Some(_)) = (dev.queues.streams(), v) {
        s.handle(v)?;
    }
    Ok(())
}

/// Waits until the work queued on a CUDA stream of another library has
/// finished: the producer's stream of a CUDA array passed in (CUDA Array
/// Interface v3 `stream`), before a kernel uses the array.
pub fn sync_foreign_stream(stream: usize) -> AccResult<()> {
    let dev = device::current_device()?;
    if dev.ty != DeviceType::Nvidia {
        return Ok(());
    }
    cuda::gpu(dev.num)?.sync_stream(stream)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::PtxModuleText;

    fn form(vector: u32, workers: u32, max_gangs: Option<u64>, gang_dims: u8, default_gangs: Option<u64>) -> PtxForm {
        PtxForm::new(PtxModuleText::new(String::new(), vec![]), "k".into(), vec![], vector, workers, max_gangs, gang_dims, default_gangs)
    }

    fn cfg(f: &PtxForm, o: LaunchOpts, extents: &[u64], max_threads: u32) -> ([u32; 3], [u32; 3]) {
        let slot = KernelSlot::new("k".into(), vec![], None);
        launch_config(max_threads, f, &slot, &o, extents, |threads| 132 * (2048 / threads as u64).min(32))
    }

    #[test]
    fn clauses_hints_and_device_choose_grid_and_block() {
        let f = form(256, 1, None, 1, None);
        // No clauses: the hint's block, enough blocks to fill the device.
        assert_eq!(cfg(&f, LaunchOpts::default(), &[], 1024), ([132 * 8, 1, 1], [256, 1, 1]));
        // num_gangs exactly, vector_length and num_workers as given.
        let o = LaunchOpts { num_gangs: 7, vector_length: 64, num_workers: 4, ..LaunchOpts::default() };
        assert_eq!(cfg(&f, o, &[], 1024), ([7, 1, 1], [64, 4, 1]));
        // Too many threads for the function: workers give way first, then lanes.
        let o = LaunchOpts { vector_length: 512, num_workers: 8, ..LaunchOpts::default() };
        assert_eq!(cfg(&f, o, &[], 1024), ([132 * 2, 1, 1], [512, 2, 1]));
        let o = LaunchOpts { vector_length: 1024, ..LaunchOpts::default() };
        assert_eq!(cfg(&f, o, &[], 256).1, [256, 1, 1]);
        // The kernel's suggestion, and its useful maximum (serial: 1 gang).
        assert_eq!(cfg(&form(32, 4, None, 1, Some(1)), LaunchOpts::default(), &[], 1024), ([1, 1, 1], [32, 4, 1]));
        assert_eq!(cfg(&form(1, 1, Some(1), 1, None), LaunchOpts::default(), &[], 1024).0, [1, 1, 1]);
        // serial: one thread, whatever the hints say.
        let slot = KernelSlot::new("s".into(), vec![], Some(1));
        slot.set_construct(acc_construct_serial);
        let f = form(256, 4, Some(1), 1, None);
        assert_eq!(launch_config(1024, &f, &slot, &LaunchOpts::default(), &[], |_| 999), ([1, 1, 1], [1, 1, 1]));
    }

    #[test]
    fn gang_grids_put_the_extents_in_x_and_y() {
        let f = form(128, 1, None, 3, None);
        let o = LaunchOpts { num_gangs: 4 * 5 * 6, ..LaunchOpts::default() };
        assert_eq!(cfg(&f, o, &[4, 5], 1024).0, [4, 5, 6]);
        let f2 = form(128, 1, None, 2, None);
        let o = LaunchOpts { num_gangs: 3 * 10, ..LaunchOpts::default() };
        assert_eq!(cfg(&f2, o, &[3], 1024).0, [3, 10, 1]);
        // Without num_gangs the last dimension gets the rest of the device's choice.
        let (g, _) = cfg(&f2, LaunchOpts::default(), &[4], 1024);
        assert_eq!(g, [4, (132 * 16 / 4) as u32, 1]);
    }
}

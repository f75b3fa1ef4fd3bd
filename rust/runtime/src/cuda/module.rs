//! PTX text → loaded module, and the functions and globals of a module.
//!
//! A module is looked up first in the device's in-process map (keyed by the
//! PTX's [`CacheKey`], least recently used evicted beyond [`MODULE_LRU`]),
//! then in the disk cache (`cache.rs`: the cubin the driver produced for
//! this PTX, compute capability and driver version), and only then compiled:
//! `cuLinkCreate`/`cuLinkAddData(PTX)`/`cuLinkComplete` give the cubin bytes
//! (stored to disk), which `cuModuleLoadData` loads. A module is unloaded
//! when the last [`GpuModule`]/[`GpuFunction`] of it is dropped (not when
//! its context was reset since: the reset destroyed it already).

use super::cache::{CacheKey, DiskCache};
use super::Gpu;
use crate::consts::*;
use crate::error::{AccError, AccResult};
use cudarc::driver::sys::{self, CUresult};
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// Loaded modules kept per device.
pub const MODULE_LRU: usize = 256;
/// Bytes of the JIT's error log kept for a message.
const JIT_LOG: usize = 16 << 10;

/// Where a module came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModuleOrigin {
    /// The in-process map.
    Memory,
    /// A cubin from the disk cache.
    Disk,
    /// Compiled from PTX by the driver now.
    Compiled,
}

struct Loaded {
    gpu: &'static Gpu,
    handle: usize,
    generation: u64,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if self.generation == self.gpu.generation() && self.gpu.enter().is_ok() {
            let _ = unsafe { sys::cuModuleUnload(self.handle as sys::CUmodule) };
        }
    }
}

/// A module loaded on one device (cheap to clone).
#[derive(Clone)]
pub struct GpuModule {
    loaded: Arc<Loaded>,
}

/// A kernel of a loaded module (cheap to clone; keeps its module loaded).
#[derive(Clone)]
pub struct GpuFunction {
    handle: usize,
    name: Arc<str>,
    max_threads: u32,
    /// Occupancy answers so far: (threads, shared bytes, blocks per SM).
    occupancy: Arc<Mutex<Vec<(u32, u32, u32)>>>,
    loaded: Arc<Loaded>,
}

/// A [`GpuFunction`]'s launch facts ([`GpuFunction::raw`]).
#[derive(Clone, Copy, Debug)]
pub struct RawFunction {
    pub(crate) handle: usize,
    pub(crate) max_threads: u32,
    pub(crate) generation: u64,
}

impl RawFunction {
    /// The most threads per block the kernel can be launched with.
    pub fn max_threads_per_block(&self) -> u32 {
        self.max_threads
    }
}

struct Entry {
    module: GpuModule,
    last_use: u64,
}

#[derive(Default)]
struct Map {
    modules: HashMap<CacheKey, Entry>,
    tick: u64,
}

#[derive(Default)]
pub(crate) struct Modules {
    map: Mutex<Map>,
}

impl Modules {
    fn map(&self) -> MutexGuard<'_, Map> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets every module (their context was destroyed).
    pub(crate) fn forget(&self) {
        let old = std::mem::take(&mut self.map().modules);
        drop(old);
    }

    fn get(&self, key: &CacheKey, generation: u64) -> Option<GpuModule> {
        let mut m = self.map();
        m.tick += 1;
        let tick = m.tick;
        let e = m.modules.get_mut(key)?;
        if e.module.loaded.generation != generation {
            return None;
        }
        e.last_use = tick;
        Some(e.module.clone())
    }

    fn put(&self, key: CacheKey, module: GpuModule) {
        let mut m = self.map();
        m.tick += 1;
        let tick = m.tick;
        if m.modules.len() >= MODULE_LRU && !m.modules.contains_key(&key) {
            if let Some(oldest) = m.modules.iter().min_by_key(|(_, e)| e.last_use).map(|(k, _)| *k) {
                m.modules.remove(&oldest);
            }
        }
        m.modules.insert(key, Entry { module, last_use: tick });
    }

    pub(crate) fn len(&self) -> usize {
        self.map().modules.len()
    }
}

fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The process's disk cache (directory read from the environment once).
pub fn disk_cache() -> &'static DiskCache {
    static CACHE: OnceLock<DiskCache> = OnceLock::new();
    CACHE.get_or_init(DiskCache::from_env)
}

impl GpuModule {
    /// The kernel `entry` of this module.
    pub fn function(&self, entry: &str) -> AccResult<GpuFunction> {
        let g = self.loaded.gpu;
        self.live()?;
        let name = CString::new(entry).map_err(|_| AccError::new(acc_error_invalid_argument, format!("kernel name {entry:?} contains NUL")))?;
        g.enter()?;
        let mut f: sys::CUfunction = std::ptr::null_mut();
        match unsafe { sys::cuModuleGetFunction(&mut f, self.loaded.handle as sys::CUmodule, name.as_ptr()) } {
            CUresult::CUDA_ERROR_NOT_FOUND => {
                return Err(AccError::new(acc_error_other, format!("nvidia device {}: no kernel '{entry}' in the loaded module", g.ordinal())))
            }
            r => g.check(r, &format!("cuModuleGetFunction '{entry}'"))?,
        }
        let mut max = 0;
        g.check(unsafe { sys::cuFuncGetAttribute(&mut max, sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) }, "cuFuncGetAttribute")?;
        Ok(GpuFunction { handle: f as usize, name: entry.into(), max_threads: max.max(0) as u32, occupancy: Arc::default(), loaded: self.loaded.clone() })
    }

    /// Device address and size of the `.global` symbol `sym`.
    pub fn global(&self, sym: &str) -> AccResult<(usize, usize)> {
        let g = self.loaded.gpu;
        self.live()?;
        let name = CString::new(sym).map_err(|_| AccError::new(acc_error_invalid_argument, format!("symbol name {sym:?} contains NUL")))?;
        g.enter()?;
        let (mut dptr, mut bytes): (sys::CUdeviceptr, usize) = (0, 0);
        match unsafe { sys::cuModuleGetGlobal_v2(&mut dptr, &mut bytes, self.loaded.handle as sys::CUmodule, name.as_ptr()) } {
            CUresult::CUDA_ERROR_NOT_FOUND => {
                Err(AccError::new(acc_error_other, format!("nvidia device {}: no global '{sym}' in the loaded module", g.ordinal())))
            }
            r => g.check(r, &format!("cuModuleGetGlobal '{sym}'")).map(|()| (dptr as usize, bytes)),
        }
    }

    /// The [`Gpu::generation`] the module was loaded in.
    pub fn generation(&self) -> u64 {
        self.loaded.generation
    }

    fn live(&self) -> AccResult<()> {
        stale_check(&self.loaded)
    }
}

#[inline]
fn stale_check(l: &Loaded) -> AccResult<()> {
    if l.generation == l.gpu.generation() {
        Ok(())
    } else {
        Err(stale_error(l))
    }
}

#[cold]
fn stale_error(l: &Loaded) -> AccError {
    if l.gpu.lost() {
        return l.gpu.lost_error();
    }
    AccError::new(acc_error_other, format!("nvidia device {}: the module was loaded before the device was reset; load it again", l.gpu.ordinal()))
}

/// Where the time of one cold module load goes ([`Gpu::load_timings`]), in seconds.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadTimings {
    pub link_create: f64,
    pub link_add_ptx: f64,
    pub link_complete: f64,
    pub load_cubin: f64,
    /// `cuModuleLoadDataEx` of the PTX text itself (the driver JITs it,
    /// no cubin comes back for the disk cache).
    pub load_ptx_direct: f64,
    /// The same with `CU_JIT_OPTIMIZATION_LEVEL` 0..=4 (4, the default, is
    /// what the layer uses).
    pub by_opt_level: [f64; 5],
}

/// A module the JIT compiles in no time: linking it loads the JIT compiler.
const TRIVIAL_PTX: &str = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry accjit_warm_up()\n{\n\tret;\n}\n";

impl GpuFunction {
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The most threads per block this kernel can be launched with.
    pub fn max_threads_per_block(&self) -> u32 {
        self.max_threads
    }

    /// The [`Gpu::generation`] the kernel's module was loaded in.
    pub fn generation(&self) -> u64 {
        self.loaded.generation
    }

    /// What [`Gpu::launch_raw`] needs of this kernel, as plain values: a
    /// launch through it takes no reference on the module (no atomic
    /// counts), so the caller keeps the `GpuFunction` itself alive
    /// elsewhere for as long as it launches through the copy.
    pub fn raw(&self) -> RawFunction {
        RawFunction { handle: self.handle, max_threads: self.max_threads, generation: self.loaded.generation }
    }

    /// Blocks of `threads` threads (and `shared` dynamic shared bytes) that
    /// fit on one SM at once (`cuOccupancyMaxActiveBlocksPerMultiprocessor`,
    /// asked once per configuration: launches ask it every time; 1 when the
    /// driver cannot say).
    pub fn blocks_per_sm(&self, threads: u32, shared: u32) -> u32 {
        let mut known = self.occupancy.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&(_, _, n)) = known.iter().find(|&&(t, s, _)| t == threads && s == shared) {
            return n;
        }
        let g = self.loaded.gpu;
        let mut n = 0;
        if stale_check(&self.loaded).is_ok()
            && g.enter().is_ok()
            && unsafe { sys::cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, self.handle as sys::CUfunction, threads as i32, shared as usize) }
                == CUresult::CUDA_SUCCESS
        {
            let n = n.max(1) as u32;
            if known.len() < 64 {
                known.push((threads, shared, n));
            }
            n
        } else {
            1
        }
    }

    /// The `CUfunction` as an integer (for code that calls the driver itself).
    pub fn cu_function(&self) -> usize {
        self.handle
    }
}

impl Gpu {
    /// The module of `ptx`, from the in-process map, the disk cache, or
    /// compiled now (see the module doc).
    pub fn load_module(&self, ptx: &str) -> AccResult<GpuModule> {
        self.load_module_traced(ptx).map(|(m, _)| m)
    }

    /// [`Gpu::load_module`], also saying where the module came from.
    pub fn load_module_traced(&self, ptx: &str) -> AccResult<(GpuModule, ModuleOrigin)> {
        let t0 = std::time::Instant::now();
        let key = CacheKey::for_cubin(ptx, self.compute_capability(), super::driver_version());
        let generation = self.generation();
        self.enter()?;
        if let Some(m) = self.modules.get(&key, generation) {
            return Ok((m, ModuleOrigin::Memory));
        }
        let disk = disk_cache();
        if let Some(cubin) = disk.load(&key) {
            let read = t0.elapsed();
            // A cubin the driver refuses (should not happen: the key holds
            // the driver version) is compiled again and overwritten.
            if let Ok(m) = self.load_cubin(&cubin) {
                self.modules.put(key, m.clone());
                super::trace(|| {
                    format!(
                        "module from the disk cache: {} B PTX, {} B cubin; read {:.2} ms, load {:.2} ms",
                        ptx.len(),
                        cubin.len(),
                        ms(read),
                        ms(t0.elapsed() - read)
                    )
                });
                return Ok((m, ModuleOrigin::Disk));
            }
        }
        let t1 = std::time::Instant::now();
        let cubin = self.jit(ptx)?;
        let t2 = std::time::Instant::now();
        let m = self.load_cubin(&cubin)?;
        let t3 = std::time::Instant::now();
        disk.store(&key, &cubin);
        self.modules.put(key, m.clone());
        super::trace(|| {
            format!(
                "module compiled: {} B PTX, {} B cubin; JIT {:.2} ms, load {:.2} ms, disk store {:.2} ms, total {:.2} ms",
                ptx.len(),
                cubin.len(),
                ms(t2 - t1),
                ms(t3 - t2),
                ms(t3.elapsed()),
                ms(t0.elapsed())
            )
        });
        Ok((m, ModuleOrigin::Compiled))
    }

    /// Modules in the in-process map.
    pub fn loaded_modules(&self) -> usize {
        self.modules.len()
    }

    fn load_cubin(&self, cubin: &[u8]) -> AccResult<GpuModule> {
        let mut m: sys::CUmodule = std::ptr::null_mut();
        self.check(unsafe { sys::cuModuleLoadData(&mut m, cubin.as_ptr().cast()) }, "cuModuleLoadData")?;
        Ok(GpuModule { loaded: Arc::new(Loaded { gpu: self.static_self()?, handle: m as usize, generation: self.generation() }) })
    }

    /// Loads the driver's JIT compiler (its first use costs tens of
    /// milliseconds) by compiling and loading a trivial module ([`super::prewarm`]).
    pub(crate) fn warm_jit(&self) {
        if self.enter().is_err() {
            return;
        }
        let t0 = std::time::Instant::now();
        if let Ok(cubin) = self.jit(TRIVIAL_PTX) {
            super::trace(|| format!("prewarm: JIT loaded in {:.1} ms", ms(t0.elapsed())));
            let mut m: sys::CUmodule = std::ptr::null_mut();
            if unsafe { sys::cuModuleLoadData(&mut m, cubin.as_ptr().cast()) } == CUresult::CUDA_SUCCESS {
                let _ = unsafe { sys::cuModuleUnload(m) };
            }
        }
    }

    /// Where the time of a cold load of `ptx` goes (the selftest's
    /// breakdown): each step of the JIT link, loading the cubin, and
    /// loading the PTX directly instead. Nothing is cached.
    pub fn load_timings(&self, ptx: &str) -> AccResult<LoadTimings> {
        use std::time::Instant;
        self.enter()?;
        let mut t = LoadTimings::default();
        let mut state: sys::CUlinkState = std::ptr::null_mut();
        let t0 = Instant::now();
        self.check(unsafe { sys::cuLinkCreate_v2(0, std::ptr::null_mut(), std::ptr::null_mut(), &mut state) }, "cuLinkCreate")?;
        t.link_create = t0.elapsed().as_secs_f64();
        let mut src = Vec::with_capacity(ptx.len() + 1);
        src.extend_from_slice(ptx.as_bytes());
        src.push(0);
        let linked = (|| {
            let t0 = Instant::now();
            let r = unsafe {
                sys::cuLinkAddData_v2(
                    state,
                    sys::CUjitInputType::CU_JIT_INPUT_PTX,
                    src.as_mut_ptr().cast(),
                    src.len(),
                    c"accjit.ptx".as_ptr(),
                    0,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                )
            };
            self.check(r, "cuLinkAddData")?;
            t.link_add_ptx = t0.elapsed().as_secs_f64();
            let t0 = Instant::now();
            let (mut cubin, mut size): (*mut c_void, usize) = (std::ptr::null_mut(), 0);
            self.check(unsafe { sys::cuLinkComplete(state, &mut cubin, &mut size) }, "cuLinkComplete")?;
            t.link_complete = t0.elapsed().as_secs_f64();
            let t0 = Instant::now();
            let mut m: sys::CUmodule = std::ptr::null_mut();
            self.check(unsafe { sys::cuModuleLoadData(&mut m, cubin) }, "cuModuleLoadData")?;
            t.load_cubin = t0.elapsed().as_secs_f64();
            let _ = unsafe { sys::cuModuleUnload(m) };
            Ok(())
        })();
        let _ = unsafe { sys::cuLinkDestroy(state) };
        linked?;
        // The same PTX with a changed comment, so the driver's own JIT cache misses too.
        let mut other = format!("{ptx}\n// direct\n").into_bytes();
        other.push(0);
        let t0 = Instant::now();
        let mut m: sys::CUmodule = std::ptr::null_mut();
        self.check(unsafe { sys::cuModuleLoadDataEx(&mut m, other.as_ptr().cast(), 0, std::ptr::null_mut(), std::ptr::null_mut()) }, "cuModuleLoadDataEx")?;
        t.load_ptx_direct = t0.elapsed().as_secs_f64();
        let _ = unsafe { sys::cuModuleUnload(m) };
        for level in 0..5usize {
            let mut text = format!("{ptx}\n// level {level}\n").into_bytes();
            text.push(0);
            let mut opts = [sys::CUjit_option::CU_JIT_OPTIMIZATION_LEVEL];
            let mut vals = [level as *mut c_void];
            let t0 = Instant::now();
            let mut m: sys::CUmodule = std::ptr::null_mut();
            self.check(unsafe { sys::cuModuleLoadDataEx(&mut m, text.as_ptr().cast(), 1, opts.as_mut_ptr(), vals.as_mut_ptr()) }, "cuModuleLoadDataEx")?;
            t.by_opt_level[level] = t0.elapsed().as_secs_f64();
            let _ = unsafe { sys::cuModuleUnload(m) };
        }
        Ok(t)
    }

    /// PTX → cubin bytes through the driver's JIT linker.
    fn jit(&self, ptx: &str) -> AccResult<Vec<u8>> {
        let mut log = vec![0u8; JIT_LOG];
        let mut opts = [sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER, sys::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
        let mut vals = [log.as_mut_ptr() as *mut c_void, JIT_LOG as *mut c_void];
        let mut state: sys::CUlinkState = std::ptr::null_mut();
        self.check(unsafe { sys::cuLinkCreate_v2(opts.len() as u32, opts.as_mut_ptr(), vals.as_mut_ptr(), &mut state) }, "cuLinkCreate")?;
        let mut src = Vec::with_capacity(ptx.len() + 1);
        src.extend_from_slice(ptx.as_bytes());
        src.push(0);
        let result = (|| {
            let r = unsafe {
                sys::cuLinkAddData_v2(
                    state,
                    sys::CUjitInputType::CU_JIT_INPUT_PTX,
                    src.as_mut_ptr().cast(),
                    src.len(),
                    c"accjit.ptx".as_ptr(),
                    0,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                )
            };
            self.check(r, "PTX compilation (cuLinkAddData)")?;
            let (mut cubin, mut size): (*mut c_void, usize) = (std::ptr::null_mut(), 0);
            self.check(unsafe { sys::cuLinkComplete(state, &mut cubin, &mut size) }, "PTX compilation (cuLinkComplete)")?;
            if cubin.is_null() {
                return Err(AccError::new(acc_error_other, "cuLinkComplete returned no binary"));
            }
            Ok(unsafe { std::slice::from_raw_parts(cubin as *const u8, size) }.to_vec())
        })();
        let _ = unsafe { sys::cuLinkDestroy(state) };
        result.map_err(|mut e| {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            let text = String::from_utf8_lossy(&log[..end]);
            if !text.trim().is_empty() {
                e.message = format!("{}\n{}", e.message, text.trim_end());
            }
            e
        })
    }

    /// This device as the `&'static` [`super::gpu`] handed out.
    fn static_self(&self) -> AccResult<&'static Gpu> {
        super::gpu(self.ordinal())
    }
}

//! Devices and the device-selection ICVs (spec §2.3, §3.2.1–3.2.8, §4).
//!
//! Device types: `host` (the calling thread), `multicore` (the thread pool;
//! the default), `nvidia` (one device per CUDA GPU the CUDA layer finds; none
//! where libcuda is missing), and `opencl`, `radeon`, which exist as names
//! but have 0 devices until their back ends land. Each device owns its
//! memory (`memory::Memory`), its way of running kernels
//! (`compute::Compute`), its present table and its async queues; all four
//! are injected when the devices are discovered ([`all_devices`]), so
//! nothing else asks which type a device is.
//!
//! The ICVs *acc-current-device-type-var*, *acc-current-device-num-var* (per
//! device type) and *acc-default-async-var* are process-wide (not per host
//! thread: pool and queue threads must see the host's choice). They are
//! initialised at first use from `ACC_DEVICE_TYPE` (host | multicore | nvidia
//! | opencl | radeon, case-insensitive, `acc_device_` spellings accepted) and
//! `ACC_DEVICE_NUM`; `ACC_PROFLIB` is loaded right after.

use crate::compute::{Compute, Native};
use crate::consts::*;
use crate::error::{AccError, AccResult};
use crate::memory::{Memory, SeparateMemory, SharedMemory};
use crate::present::PresentTable;
use crate::prof::{self, Event};
use crate::queue::Queues;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicU64, AtomicU8, Ordering::*};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// A device type with a runtime presence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceType {
    Host,
    Multicore,
    Nvidia,
    Opencl,
    Radeon,
}

pub const ALL_TYPES: [DeviceType; 5] = [DeviceType::Host, DeviceType::Multicore, DeviceType::Nvidia, DeviceType::Opencl, DeviceType::Radeon];

impl DeviceType {
    /// From an `acc_device_t` naming one type (not none/default/not_host).
    pub fn from_acc(v: i32) -> Option<DeviceType> {
        Some(match v {
            acc_device_host => DeviceType::Host,
            acc_device_multicore => DeviceType::Multicore,
            acc_device_nvidia => DeviceType::Nvidia,
            acc_device_opencl => DeviceType::Opencl,
            acc_device_radeon => DeviceType::Radeon,
            _ => return None,
        })
    }

    pub fn to_acc(self) -> i32 {
        match self {
            DeviceType::Host => acc_device_host,
            DeviceType::Multicore => acc_device_multicore,
            DeviceType::Nvidia => acc_device_nvidia,
            DeviceType::Opencl => acc_device_opencl,
            DeviceType::Radeon => acc_device_radeon,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            DeviceType::Host => "host",
            DeviceType::Multicore => "multicore",
            DeviceType::Nvidia => "nvidia",
            DeviceType::Opencl => "opencl",
            DeviceType::Radeon => "radeon",
        }
    }

    /// Parses `ACC_DEVICE_TYPE`-style names: case-insensitive, surrounding
    /// whitespace ignored, `acc_device_` prefix accepted.
    pub fn parse(s: &str) -> Option<DeviceType> {
        let s = s.trim().to_ascii_lowercase();
        let s = s.strip_prefix("acc_device_").unwrap_or(&s);
        Some(match s {
            "host" => DeviceType::Host,
            "multicore" => DeviceType::Multicore,
            "nvidia" => DeviceType::Nvidia,
            "opencl" => DeviceType::Opencl,
            "radeon" => DeviceType::Radeon,
            _ => return None,
        })
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One device: its memory, compute, present table and queues.
pub struct Device {
    pub ty: DeviceType,
    pub num: usize,
    pub mem: Box<dyn Memory>,
    pub compute: Box<dyn Compute>,
    table: Mutex<PresentTable>,
    pub queues: Queues,
    initialized: AtomicBool,
    /// Bumped when the device loses its state (a GPU context recreated
    /// after a fault): modules and functions loaded before are stale.
    generation: AtomicU64,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Device({} #{})", self.ty.name(), self.num)
    }
}

impl Device {
    /// A device of type `ty`, number `num` among its type, with its memory,
    /// compute and queues.
    pub fn new(ty: DeviceType, num: usize, mem: Box<dyn Memory>, compute: Box<dyn Compute>, queues: Queues) -> Device {
        Device { ty, num, mem, compute, table: Mutex::new(PresentTable::new()), queues, initialized: AtomicBool::new(false), generation: AtomicU64::new(0) }
    }

    /// A CPU device sharing host memory: the host device runs gangs and
    /// queued work on the calling thread, the multicore one on the pool and
    /// queue threads.
    /// `ACCJIT_DISCRETE_HOST` (set, any value) gives the host device
    /// [`SeparateMemory`] instead: a discrete device whose kernels still run
    /// on the CPU, to check the data environment's copies without a GPU.
    fn cpu(ty: DeviceType, pool: bool) -> Device {
        let mem: Box<dyn Memory> = if ty == DeviceType::Host && std::env::var_os("ACCJIT_DISCRETE_HOST").is_some() {
            Box::new(SeparateMemory::default())
        } else {
            Box::new(SharedMemory::default())
        };
        Device::new(ty, 0, mem, Box::new(Native { pool }), Queues::new(!pool))
    }

    /// See the field: modules loaded at another generation are stale.
    pub fn generation(&self) -> u64 {
        self.generation.load(Acquire)
    }

    /// The device lost its state (its memory and modules): drop every present
    /// entry without freeing (the memory is gone) and start a new generation.
    pub fn lost_state(&self) {
        let mut t = self.table();
        t.drain();
        t.clear_homes();
        drop(t);
        self.mem.lost();
        self.generation.fetch_add(1, AcqRel);
    }

    pub fn name(&self) -> &'static str {
        self.ty.name()
    }

    /// The present table (poison is ignored: the table stays consistent
    /// between statements).
    pub fn table(&self) -> MutexGuard<'_, PresentTable> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn is_initialized(&self) -> bool {
        self.initialized.load(Acquire)
    }

    /// Initialises the device once (device_init events, the thread pool).
    pub fn ensure_init(&self) {
        if self.initialized.load(Acquire) {
            return;
        }
        if self.initialized.swap(true, AcqRel) {
            return;
        }
        let ev = |kind| Event { kind, device_type: self.ty.to_acc(), device_num: self.num as i32, ..Event::default() };
        if prof::active() {
            prof::emit(&ev(acc_ev_device_init_start));
        }
        if let Err(e) = self.compute.init() {
            // A later use reports it (launches and copies fail with the same error).
            let _ = e;
        }
        if prof::active() {
            prof::emit(&ev(acc_ev_device_init_end));
        }
    }

    /// `acc_shutdown` of this device: waits for its queues, frees all present
    /// data (counts zeroed) and marks it uninitialised.
    pub fn shutdown(&self) {
        if !self.initialized.load(Acquire) {
            return;
        }
        let ev = |kind| Event { kind, device_type: self.ty.to_acc(), device_num: self.num as i32, ..Event::default() };
        if prof::active() {
            prof::emit(&ev(acc_ev_device_shutdown_start));
        }
        let _ = self.queues.wait_all(None);
        let drained = self.table().drain();
        for e in drained {
            if !e.mapped {
                self.mem.free_copy(e.dev, e.host, e.bytes);
            }
            if prof::active() {
                let base = Event {
                    device_type: self.ty.to_acc(),
                    device_num: self.num as i32,
                    construct: acc_construct_shutdown,
                    bytes: e.bytes,
                    host_ptr: e.host,
                    device_ptr: e.dev,
                    implicit: true,
                    ..Event::default()
                };
                if !e.mapped {
                    prof::emit(&Event { kind: acc_ev_free, ..base.clone() });
                }
                prof::emit(&Event { kind: acc_ev_delete, ..base });
            }
        }
        self.initialized.store(false, Release);
        // Modules loaded before bound their globals to the table just emptied.
        self.generation.fetch_add(1, AcqRel);
        if prof::active() {
            prof::emit(&ev(acc_ev_device_shutdown_end));
        }
    }
}

static CPU_DEVICES: OnceLock<[Device; 2]> = OnceLock::new();
static GPU_DEVICES: OnceLock<Vec<Device>> = OnceLock::new();

fn cpu_devices() -> &'static [Device; 2] {
    CPU_DEVICES.get_or_init(|| [Device::cpu(DeviceType::Host, false), Device::cpu(DeviceType::Multicore, true)])
}

/// The nvidia devices: one per GPU the CUDA layer reports (none, quietly,
/// without libcuda). Discovered at the first question about nvidia
/// devices, so that programs on the CPU devices never start CUDA.
fn gpu_devices() -> &'static [Device] {
    GPU_DEVICES.get_or_init(crate::nvidia::discover)
}

/// Every device discovered so far: host#0, multicore#0, and the nvidia
/// devices once anything asked for them (a device not yet discovered has
/// no work to wait for or data to drop).
pub fn all_devices() -> impl Iterator<Item = &'static Device> {
    cpu_devices().iter().chain(GPU_DEVICES.get().map(|v| v.as_slice()).unwrap_or(&[]))
}

pub fn devices_of(ty: DeviceType) -> impl Iterator<Item = &'static Device> {
    let list: &'static [Device] = match ty {
        DeviceType::Nvidia => gpu_devices(),
        _ => cpu_devices(),
    };
    list.iter().filter(move |d| d.ty == ty)
}

pub fn num_devices(ty: DeviceType) -> usize {
    devices_of(ty).count()
}

pub fn device(ty: DeviceType, num: usize) -> Option<&'static Device> {
    devices_of(ty).nth(num)
}

// --- ICVs ------------------------------------------------------------------

const DEFAULT_TYPE: DeviceType = DeviceType::Multicore;

static CUR_TYPE: AtomicI32 = AtomicI32::new(acc_device_multicore);
/// The type `ACC_DEVICE_TYPE` chose (0: none): the default device type.
static ENV_TYPE: AtomicI32 = AtomicI32::new(acc_device_none);
static CUR_NUM: [AtomicI32; 5] = [const { AtomicI32::new(0) }; 5];
static DEFAULT_ASYNC: AtomicI64 = AtomicI64::new(acc_async_noval);
static ENV_READ: AtomicBool = AtomicBool::new(false);
static ENV_ONCE: std::sync::Once = std::sync::Once::new();
/// 0 not loaded, 1 loading or loaded.
static PROFLIB_STATE: AtomicU8 = AtomicU8::new(0);

/// Reads the environment once (first use of the runtime), then loads
/// `ACC_PROFLIB`. Cheap after the first call.
pub fn ensure_env() {
    if ENV_READ.load(Acquire) {
        return;
    }
    ENV_ONCE.call_once(|| {
        if let Ok(v) = std::env::var("ACC_DEVICE_TYPE") {
            if !v.trim().is_empty() {
                match DeviceType::parse(&v) {
                    Some(t) => {
                        if t == DeviceType::Nvidia {
                            // Driver start-up and the GPU's context on a background thread meanwhile.
                            crate::cuda::prewarm();
                        }
                        CUR_TYPE.store(t.to_acc(), Relaxed);
                        ENV_TYPE.store(t.to_acc(), Relaxed);
                    }
                    None => eprintln!("accjit: ignoring ACC_DEVICE_TYPE={v:?} (expected host, multicore, nvidia or opencl)"),
                }
            }
        }
        if let Ok(v) = std::env::var("ACC_DEVICE_NUM") {
            if !v.trim().is_empty() {
                match v.trim().parse::<i32>() {
                    Ok(n) if n >= 0 => {
                        for c in &CUR_NUM {
                            c.store(n, Relaxed);
                        }
                    }
                    _ => eprintln!("accjit: ignoring ACC_DEVICE_NUM={v:?} (expected a non-negative integer)"),
                }
            }
        }
        ENV_READ.store(true, Release);
    });
    if PROFLIB_STATE.load(Acquire) == 0 && PROFLIB_STATE.swap(1, AcqRel) == 0 {
        prof::load_tools_library();
    }
}

/// The current device type (after the environment is read).
pub fn current_type() -> DeviceType {
    ensure_env();
    DeviceType::from_acc(CUR_TYPE.load(Relaxed)).unwrap_or(DEFAULT_TYPE)
}

/// The default device type (`acc_device_default`, `device_type(default)`):
/// the one `ACC_DEVICE_TYPE` names, else multicore.
pub fn default_type() -> DeviceType {
    ensure_env();
    DeviceType::from_acc(ENV_TYPE.load(Relaxed)).unwrap_or(DEFAULT_TYPE)
}

/// Resolves an `acc_device_t` argument: default → the default type, current
/// (-1) → the current type, not_host → the first non-host type with devices.
/// `None` for acc_device_none and unknown values.
pub fn resolve_type(v: i32) -> Option<DeviceType> {
    match v {
        acc_device_default => Some(default_type()),
        acc_device_current => Some(current_type()),
        acc_device_not_host => Some(ALL_TYPES.into_iter().find(|t| *t != DeviceType::Host && num_devices(*t) > 0).unwrap_or(DeviceType::Multicore)),
        v => DeviceType::from_acc(v),
    }
}

/// The device number in use for `ty` (0 unless set).
pub fn current_num(ty: DeviceType) -> usize {
    ensure_env();
    CUR_NUM[ty.index()].load(Relaxed).max(0) as usize
}

/// The current device, initialised. Errors when its type has no devices or
/// the device number is out of range.
pub fn current_device() -> AccResult<&'static Device> {
    let ty = current_type();
    let num = current_num(ty);
    let d = device_checked(ty, num)?;
    d.ensure_init();
    Ok(d)
}

/// Device `num` of `ty`, or the spec's error.
pub fn device_checked(ty: DeviceType, num: usize) -> AccResult<&'static Device> {
    let n = num_devices(ty);
    if n == 0 {
        if let Some(e) = (ty == DeviceType::Nvidia).then(crate::cuda::fork_error).flatten() {
            return Err(e);
        }
        return Err(AccError::new(
            acc_error_device_type_unavailable,
            match ty {
                DeviceType::Nvidia => "device type unavailable: no nvidia device is available (no CUDA driver or no GPU on this machine)".to_string(),
                _ => format!("device type unavailable: no {} device is available (accjit has no {} back end yet)", ty.name(), ty.name()),
            },
        ));
    }
    device(ty, num)
        .ok_or_else(|| AccError::new(acc_error_device_unavailable, format!("device unavailable: {} device {num} does not exist ({n} available)", ty.name())))
}

/// Sets *acc-current-device-type-var*; fails if the type has no devices.
pub fn set_current_type(ty: DeviceType) -> AccResult<()> {
    ensure_env();
    if num_devices(ty) == 0 {
        return device_checked(ty, 0).map(|_| ());
    }
    CUR_TYPE.store(ty.to_acc(), Relaxed);
    Ok(())
}

/// Sets *acc-current-device-num-var* for `ty`; negative means the default (0).
pub fn set_current_num(ty: DeviceType, num: i32) -> AccResult<()> {
    ensure_env();
    let num = num.max(0);
    device_checked(ty, num as usize)?;
    CUR_NUM[ty.index()].store(num, Relaxed);
    Ok(())
}

/// *acc-default-async-var*.
pub fn default_async() -> i64 {
    DEFAULT_ASYNC.load(Relaxed)
}

/// `acc_set_default_async`: `acc_async_default` restores the initial value.
pub fn set_default_async(v: i64) -> AccResult<()> {
    let v = match v {
        acc_async_default => acc_async_noval,
        acc_async_sync | acc_async_noval => v,
        v if v >= 0 => v,
        v => return Err(AccError::invalid_async(v)),
    };
    DEFAULT_ASYNC.store(v, Relaxed);
    Ok(())
}

// --- properties ------------------------------------------------------------

/// `acc_get_property` for numeric properties (0 when unknown).
pub fn property(ty: DeviceType, num: usize, prop: i32) -> usize {
    let Some(d) = device(ty, num) else { return 0 };
    if let Some(v) = d.compute.property(prop) {
        return v;
    }
    match prop {
        acc_property_memory => d.mem.memory_info().0,
        acc_property_free_memory => d.mem.memory_info().1,
        acc_property_shared_memory_support => d.mem.is_shared() as usize,
        _ => 0,
    }
}

/// `acc_get_property_string` (None when unknown).
pub fn property_string(ty: DeviceType, num: usize, prop: i32) -> Option<String> {
    let d = device(ty, num)?;
    if let Some(v) = d.compute.property_string(prop) {
        return Some(v);
    }
    match prop {
        acc_property_name => Some(match ty {
            DeviceType::Multicore => format!("{} ({} threads)", cpu_model(), crate::pool::num_threads()),
            _ => cpu_model(),
        }),
        acc_property_vendor => Some("accjit".into()),
        acc_property_driver => Some(format!("accjit {} (Cranelift)", env!("CARGO_PKG_VERSION"))),
        _ => None,
    }
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "host CPU".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_names() {
        assert_eq!(DeviceType::parse(" MultiCore "), Some(DeviceType::Multicore));
        assert_eq!(DeviceType::parse("acc_device_nvidia"), Some(DeviceType::Nvidia));
        assert_eq!(DeviceType::parse("HOST"), Some(DeviceType::Host));
        assert_eq!(DeviceType::parse("tpu"), None);
        for t in ALL_TYPES {
            assert_eq!(DeviceType::from_acc(t.to_acc()), Some(t));
        }
    }

    #[test]
    fn gpu_types_have_no_devices_yet() {
        if crate::cuda::available() {
            return;
        }
        assert_eq!(num_devices(DeviceType::Nvidia), 0);
        assert_eq!(num_devices(DeviceType::Opencl), 0);
        assert_eq!(num_devices(DeviceType::Multicore), 1);
        assert_eq!(num_devices(DeviceType::Host), 1);
        let e = device_checked(DeviceType::Nvidia, 0).unwrap_err();
        assert_eq!(e.code, acc_error_device_type_unavailable);
        let e = device_checked(DeviceType::Multicore, 3).unwrap_err();
        assert_eq!(e.code, acc_error_device_unavailable);
    }

    #[test]
    fn properties() {
        assert!(property(DeviceType::Multicore, 0, acc_property_memory) > 0);
        if !crate::cuda::available() {
            assert_eq!(property(DeviceType::Nvidia, 0, acc_property_memory), 0);
        }
        assert_eq!(property_string(DeviceType::Host, 0, acc_property_vendor).as_deref(), Some("accjit"));
        assert_eq!(property_string(DeviceType::Host, 0, 12345), None);
    }
}

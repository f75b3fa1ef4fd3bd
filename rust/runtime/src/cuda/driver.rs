//! The thin edge to libcuda: whether the library is there at all (checked
//! once, without panicking: cudarc's loader panics when libcuda is missing),
//! `cuInit`, and the one mapping from a `CUresult` to an [`AccError`] with
//! the CUDA error name in the message.
//!
//! Every other file of the layer calls the driver through `cudarc::driver::sys`
//! and turns its result into an `AccResult` with [`check`].
//!
//! The fork guard: a CUDA context does not survive `fork()`, and a child of
//! a process that initialised the driver cannot initialise it again (the
//! driver's state, and possibly a `cuInit` that a thread of the parent was
//! still in, came along with the memory). [`note_use`] records the fork
//! generation (`crate::fork`) in which the process first went into the
//! driver; in a later generation — a child — [`initialised`] says no
//! without touching the driver, and [`usable_here`] (checked by `gpu()` and
//! by every context entry) is the error of [`forked_error`], as PyTorch and
//! CuPy do. A child of a process that never went into the driver uses the
//! GPU normally.

use crate::consts::*;
use crate::error::{AccError, AccResult};
use cudarc::driver::sys::{self, CUresult};
use std::ffi::CStr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::OnceLock;

/// No process of this lineage went into the driver yet.
const NEVER: u64 = u64::MAX;
/// The fork generation in which the driver was first used (see the module docs).
static DRIVER_GENERATION: AtomicU64 = AtomicU64::new(NEVER);

/// Records that this process is about to go into the driver (`cuInit`, the
/// prewarm threads): from now on a child of `fork()` keeps out of it.
pub(crate) fn note_use() {
    let _ = DRIVER_GENERATION.compare_exchange(NEVER, crate::fork::generation(), Relaxed, Relaxed);
}

/// The driver was initialised in a parent of this process before `fork()`
/// (or its initialisation had begun there): CUDA cannot be used here.
pub fn inherited() -> bool {
    let g = DRIVER_GENERATION.load(Relaxed);
    // A parent that found no driver left nothing behind.
    g != NEVER && g != crate::fork::generation() && INIT.get() != Some(&false)
}

/// `Ok` unless the driver is [`inherited`].
#[inline]
pub fn usable_here() -> AccResult<()> {
    if DRIVER_GENERATION.load(Relaxed) == NEVER || !inherited() {
        Ok(())
    } else {
        Err(forked_error())
    }
}

/// `cuInit` failed in a child of `fork()` (the error), where the parent —
/// through another library: PyTorch, CuPy — may have initialised the driver.
static CHILD_INIT_ERROR: OnceLock<CUresult> = OnceLock::new();

/// Why the GPU cannot be used in this child of `fork()`, if that is the
/// case: the driver is [`inherited`], or `cuInit` failed here although
/// libcuda is present (the parent may have initialised it through another
/// library). For the "no nvidia device" error.
pub fn fork_error() -> Option<AccError> {
    if inherited() {
        return Some(forked_error());
    }
    CHILD_INIT_ERROR.get().map(|r| {
        AccError::new(
            acc_error_device_unavailable,
            format!(
                "cuInit failed ({}) in a child of fork(): if the parent initialised CUDA (accjit, PyTorch, CuPy, ...), \
                 CUDA cannot be used in a forked child: use multiprocessing's 'spawn' or 'forkserver' start method",
                error_name(*r)
            ),
        )
    })
}

/// The error of any GPU use in a child of `fork()` whose parent initialised
/// the driver.
pub fn forked_error() -> AccError {
    AccError::new(
        acc_error_device_unavailable,
        "the CUDA driver was initialised in the parent before fork(); CUDA cannot be used in a forked child: \
         use multiprocessing's 'spawn' or 'forkserver' start method (host and multicore work in the child)",
    )
}

/// libcuda can be loaded (checked once; cudarc's own loader panics when it
/// cannot, so nothing may call into `sys` before this says yes). The
/// library found stays loaded, so cudarc's own `dlopen` of it afterwards
/// finds it in memory (cudarc's check would load it, unload it, and have it
/// loaded again: libcuda is large).
pub fn lib_present() -> bool {
    static PRESENT: OnceLock<bool> = OnceLock::new();
    *PRESENT.get_or_init(|| {
        std::panic::catch_unwind(|| {
            cudarc::get_lib_name_candidates("cuda").into_iter().any(|name| {
                let Ok(c) = std::ffi::CString::new(name) else { return false };
                // Never closed: the process keeps the driver.
                !unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL) }.is_null()
            })
        })
        .unwrap_or(false)
    })
}

/// How long the first [`initialised`] took: loading libcuda, checking its
/// functions, `cuInit` (None before it ran).
pub fn init_timings() -> Option<(std::time::Duration, std::time::Duration, std::time::Duration)> {
    INIT_TIMES.get().copied()
}

static INIT_TIMES: OnceLock<(std::time::Duration, std::time::Duration, std::time::Duration)> = OnceLock::new();

/// Every driver function the layer calls (a test keeps the list complete).
/// cudarc panics at the first call of a function the library lacks, so a
/// driver missing any of them counts as no driver at all.
pub const REQUIRED: &[&str] = &[
    "cuCtxCreate_v2",
    "cuCtxDestroy_v2",
    "cuCtxSetCurrent",
    "cuCtxSetLimit",
    "cuCtxSynchronize",
    "cuDeviceGet",
    "cuDeviceGetAttribute",
    "cuDeviceGetCount",
    "cuDeviceGetName",
    "cuDevicePrimaryCtxGetState",
    "cuDevicePrimaryCtxRelease_v2",
    "cuDevicePrimaryCtxReset_v2",
    "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxSetFlags_v2",
    "cuDeviceTotalMem_v2",
    "cuDriverGetVersion",
    "cuEventCreate",
    "cuEventDestroy_v2",
    "cuEventRecord",
    "cuEventSynchronize",
    "cuFuncGetAttribute",
    "cuGetErrorName",
    "cuInit",
    "cuLaunchKernel",
    "cuLinkAddData_v2",
    "cuLinkComplete",
    "cuLinkCreate_v2",
    "cuLinkDestroy",
    "cuMemAlloc_v2",
    "cuMemFreeHost",
    "cuMemFree_v2",
    "cuMemGetInfo_v2",
    "cuMemHostAlloc",
    "cuMemHostGetFlags",
    "cuMemHostRegister_v2",
    "cuMemHostUnregister",
    "cuMemcpyDtoDAsync_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyPeerAsync",
    "cuMemsetD8Async",
    "cuModuleGetFunction",
    "cuModuleGetGlobal_v2",
    "cuModuleLoadData",
    "cuModuleLoadDataEx",
    "cuModuleUnload",
    "cuOccupancyMaxActiveBlocksPerMultiprocessor",
    "cuPointerGetAttribute",
    "cuStreamCreate",
    "cuStreamQuery",
    "cuStreamSynchronize",
    "cuStreamWaitEvent",
];

/// The functions of [`REQUIRED`] the loaded libcuda lacks.
fn missing_symbols() -> Vec<&'static str> {
    let lib = unsafe { sys::culib() };
    REQUIRED.iter().copied().filter(|name| unsafe { lib.get::<*const ()>(name.as_bytes()) }.is_err()).collect()
}

/// [`initialised`]'s answer, once asked.
static INIT: OnceLock<bool> = OnceLock::new();

/// [`initialised`] when it has been asked already; `false` otherwise
/// (never loads libcuda), and in a child of fork() ([`inherited`]).
pub fn initialised_already() -> bool {
    INIT.get().copied().unwrap_or(false) && !inherited()
}

/// libcuda is present with every function of [`REQUIRED`], and `cuInit(0)`
/// succeeded (checked once). False in a child of `fork()` whose parent
/// initialised it ([`inherited`]).
pub fn initialised() -> bool {
    // Never waits for an initialisation a thread of the parent was in.
    if inherited() {
        return false;
    }
    note_use();
    *INIT.get_or_init(|| {
        let t0 = std::time::Instant::now();
        if !lib_present() {
            return false;
        }
        let t1 = std::time::Instant::now();
        // cudarc panics on a missing symbol: keep any such panic inside.
        let ok = std::panic::catch_unwind(|| {
            if !missing_symbols().is_empty() {
                return false;
            }
            let t2 = std::time::Instant::now();
            let r = unsafe { sys::cuInit(0) };
            let _ = INIT_TIMES.set((t1 - t0, t2 - t1, t2.elapsed()));
            if r != CUresult::CUDA_SUCCESS && crate::fork::generation() > 0 {
                let _ = CHILD_INIT_ERROR.set(r);
            }
            r == CUresult::CUDA_SUCCESS
        });
        ok.unwrap_or(false)
    })
}

/// The error's name (`"CUDA_ERROR_ILLEGAL_ADDRESS"`), from the driver when it
/// knows it, else from the enum.
pub fn error_name(r: CUresult) -> String {
    let mut p: *const std::ffi::c_char = std::ptr::null();
    if lib_present() && unsafe { sys::cuGetErrorName(r, &mut p) } == CUresult::CUDA_SUCCESS && !p.is_null() {
        if let Ok(s) = unsafe { CStr::from_ptr(p) }.to_str() {
            return s.to_owned();
        }
    }
    format!("{r:?}")
}

/// The `acc_error_*` code for a CUDA error.
pub fn acc_code(r: CUresult) -> i32 {
    use CUresult::*;
    match r {
        CUDA_ERROR_OUT_OF_MEMORY => acc_error_out_of_memory,
        CUDA_ERROR_NO_DEVICE
        | CUDA_ERROR_INVALID_DEVICE
        | CUDA_ERROR_NOT_INITIALIZED
        | CUDA_ERROR_DEINITIALIZED
        | CUDA_ERROR_DEVICE_UNAVAILABLE
        | CUDA_ERROR_DEVICE_NOT_LICENSED
        | CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
        | CUDA_ERROR_SYSTEM_NOT_READY
        | CUDA_ERROR_STUB_LIBRARY
        | CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE => acc_error_device_unavailable,
        _ if is_fault(r) => acc_error_execution,
        CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
        | CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING
        | CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
        | CUDA_ERROR_INVALID_CLUSTER_SIZE => acc_error_execution,
        _ => acc_error_other,
    }
}

/// A fault of a running kernel: the context is poisoned ("sticky" error)
/// and only a reset makes the device usable again.
pub fn is_fault(r: CUresult) -> bool {
    use CUresult::*;
    matches!(
        r,
        CUDA_ERROR_ILLEGAL_ADDRESS
            | CUDA_ERROR_LAUNCH_FAILED
            | CUDA_ERROR_ASSERT
            | CUDA_ERROR_HARDWARE_STACK_ERROR
            | CUDA_ERROR_ILLEGAL_INSTRUCTION
            | CUDA_ERROR_MISALIGNED_ADDRESS
            | CUDA_ERROR_INVALID_ADDRESS_SPACE
            | CUDA_ERROR_INVALID_PC
            | CUDA_ERROR_LAUNCH_TIMEOUT
            | CUDA_ERROR_ECC_UNCORRECTABLE
            | CUDA_ERROR_NVLINK_UNCORRECTABLE
            | CUDA_ERROR_CONTAINED
            | CUDA_ERROR_TENSOR_MEMORY_LEAK
    )
}

/// An [`AccError`] for a failed driver call: `"<what>: CUDA_ERROR_X"`.
pub fn cuda_error(r: CUresult, what: &str) -> AccError {
    AccError::new(acc_code(r), format!("{what}: {}", error_name(r)))
}

/// `Ok` for `CUDA_SUCCESS`, else the error of [`cuda_error`].
pub fn check(r: CUresult, what: &str) -> AccResult<()> {
    if r == CUresult::CUDA_SUCCESS {
        Ok(())
    } else {
        Err(cuda_error(r, what))
    }
}

/// `cuDriverGetVersion` (e.g. 13000 for CUDA 13.0); 0 when unknown.
pub fn driver_version() -> i32 {
    static VERSION: OnceLock<i32> = OnceLock::new();
    *VERSION.get_or_init(|| {
        let mut v = 0;
        if initialised() && unsafe { sys::cuDriverGetVersion(&mut v) } == CUresult::CUDA_SUCCESS {
            v
        } else {
            0
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faults_are_execution_errors_and_oom_is_out_of_memory() {
        assert_eq!(acc_code(CUresult::CUDA_ERROR_ILLEGAL_ADDRESS), acc_error_execution);
        assert!(is_fault(CUresult::CUDA_ERROR_MISALIGNED_ADDRESS));
        assert!(!is_fault(CUresult::CUDA_ERROR_INVALID_VALUE));
        assert_eq!(acc_code(CUresult::CUDA_ERROR_OUT_OF_MEMORY), acc_error_out_of_memory);
        assert_eq!(acc_code(CUresult::CUDA_ERROR_NO_DEVICE), acc_error_device_unavailable);
        assert_eq!(acc_code(CUresult::CUDA_ERROR_INVALID_VALUE), acc_error_other);
    }

    #[test]
    fn required_lists_every_driver_function_the_layer_calls() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/cuda");
        let mut called = std::collections::BTreeSet::new();
        for e in std::fs::read_dir(dir).unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
            for (i, _) in text.match_indices("sys::cu") {
                let name: String = text[i + 5..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                // Driver calls only (not the loader `culib`, not this test's pattern).
                if text[i + 5 + name.len()..].starts_with('(') && name != "culib" {
                    called.insert(name);
                }
            }
        }
        let listed: std::collections::BTreeSet<String> = REQUIRED.iter().map(|s| s.to_string()).collect();
        assert_eq!(called, listed);
    }

    #[test]
    fn no_panic_without_libcuda() {
        // On a machine without libcuda this is false; with one, either.
        let _ = initialised();
        let _ = driver_version();
    }
}

//! accjit's OpenACC runtime: devices, the thread pool, the present table,
//! async queues, kernel launches, profiling, and every `extern "C"` function
//! generated code may call. It knows nothing of front ends or the IR.
//!
//! - The C ABI for generated code (`__accjit_*`, docs/runtime-abi.md) is in
//!   `abi.rs` (constructs), `support.rs` (lock, VLA stack, assert),
//!   `printf.rs`/`scanf.rs` (variadic shims).
//! - The spec's public routines (`acc_*`, with `openacc.h` signatures) are in
//!   `capi.rs`; the same routines as safe Rust returning
//!   `Result<_, AccError>` are [`api`] (for the Python bindings).
//! - The Fortran runtime library (`__accjit_f_*`: I/O statements, `stop`,
//!   `random_number`...) is in `fortran/`.
//! - [`symbols`] lists all of them with their addresses for the JIT linker.
//!
//! Devices: `host` (the calling thread) and `multicore` (the default: a
//! persistent pool, [`num_threads`] threads) share memory with the host, so
//! data clauses copy nothing, but reference counts, errors and
//! `acc_is_present` behave exactly as on a discrete device. `nvidia` has one
//! device per CUDA GPU (`nvidia.rs`, through the CUDA layer `cuda`), with
//! discrete memory; `opencl` is a known name with 0 devices. How a device
//! runs kernels is its `compute::Compute`, how it holds data its
//! `memory::Memory`.
//!
//! Errors met by C callers end the program through [`error::fatal`] (error
//! callbacks, a one-line message on stderr, then [`hosted::terminate`]:
//! `exit(1)`, or — on a thread hosted by the Python bindings — the caller
//! gets the error and the process goes on); nothing else prints.

// The spec's C names (`acc_device_host`, …) are kept as constant names.
#![allow(non_upper_case_globals)]

pub mod abi;
pub mod api;
pub mod capi;
pub mod compute;
pub mod consts;
pub mod cuda;
pub mod data;
pub mod deep;
pub mod device;
pub mod error;
pub mod fork;
pub mod fortran;
pub mod hosted;
pub mod launch;
pub mod memory;
pub mod nvidia;
pub mod omp;
pub mod pool;
pub mod present;
pub mod printf;
pub mod prof;
pub mod queue;
pub mod scanf;
pub mod support;
pub mod vacall;

pub use data::Clause;
pub use device::DeviceType;
pub use error::{fatal, AccError, AccResult};
pub use launch::{launch, KernelSlot, LaunchOpts, PtxForm, PtxGlobalRef, PtxModuleText, PARAM_DEVICE_ADDR, PARAM_SNAPSHOT, PARAM_VALUE};
pub use pool::{num_threads, set_num_threads};
pub use prof::{set_recorder, Event};

/// Sets the current device type by name (`"host"`, `"multicore"`,
/// `"nvidia"`, `"opencl"`, case-insensitive, `acc_device_` accepted).
/// Errors: `acc_error_invalid_argument` for an unknown name,
/// `acc_error_device_type_unavailable` when the type has no devices.
pub fn set_device_type(name: &str) -> AccResult<()> {
    let ty = DeviceType::parse(name)
        .ok_or_else(|| AccError::new(consts::acc_error_invalid_argument, format!("unknown device type {name:?} (host, multicore, nvidia, opencl)")))?;
    device::set_current_type(ty)
}

/// The current device type's name (`"multicore"` unless changed).
pub fn device_type_name() -> &'static str {
    device::current_type().name()
}

/// Ends a whole program's use of the runtime (`accjit run`, after `main`
/// returns and before its code is freed): waits for every queue of every
/// device and emits `acc_ev_runtime_shutdown`. Present data stays (the
/// process is about to end, or a later program may reuse the runtime).
/// An async task that ended the program is the error (the first found).
pub fn program_finished() -> AccResult<()> {
    let mut r = Ok(());
    for d in device::all_devices() {
        let w = d.queues.wait_all(None);
        if r.is_ok() {
            r = w;
        }
    }
    if prof::active() {
        prof::emit(&Event { kind: consts::acc_ev_runtime_shutdown, ..Event::default() });
    }
    r
}

/// C library functions bound for generated code ahead of the process's libc:
/// those that end a program (`exit`, `_Exit`, `_exit`, `abort`: hosted, they
/// end only the program, see [`hosted`]; otherwise they behave as libc's),
/// and the `vprintf`/`vwprintf` families, whose `va_list` is accjit's (see [`printf`]).
pub fn libc_overrides() -> Vec<(String, usize)> {
    vec![
        ("exit".to_string(), hosted::__accjit_exit as *const () as usize),
        ("_Exit".to_string(), hosted::__accjit_exit_now as *const () as usize),
        ("_exit".to_string(), hosted::__accjit_exit_now as *const () as usize),
        ("abort".to_string(), hosted::__accjit_abort as *const () as usize),
        ("vprintf".to_string(), printf::__accjit_vprintf as *const () as usize),
        ("vfprintf".to_string(), printf::__accjit_vfprintf as *const () as usize),
        ("vsprintf".to_string(), printf::__accjit_vsprintf as *const () as usize),
        ("vsnprintf".to_string(), printf::__accjit_vsnprintf as *const () as usize),
        ("vwprintf".to_string(), printf::__accjit_vwprintf as *const () as usize),
        ("vfwprintf".to_string(), printf::__accjit_vfwprintf as *const () as usize),
        ("vswprintf".to_string(), printf::__accjit_vswprintf as *const () as usize),
    ]
}

macro_rules! symbol_table {
    ($($m:ident :: $f:ident),* $(,)?) => {
        /// Name → address of every `extern "C"` function generated code may
        /// call (`__accjit_*`, `__accjit_f_*` and every public `acc_*` routine).
        pub fn symbols() -> Vec<(String, usize)> {
            let mut v = vec![$((stringify!($f).to_string(), $m::$f as *const () as usize)),*];
            v.extend(fortran::symbols());
            v
        }
    };
}

symbol_table!(
    abi::__accjit_launch,
    abi::__accjit_data_enter,
    abi::__accjit_data_exit,
    abi::__accjit_update,
    abi::__accjit_deep,
    abi::__accjit_use_device,
    abi::__accjit_attach,
    abi::__accjit_detach,
    abi::__accjit_wait,
    abi::__accjit_init,
    abi::__accjit_shutdown,
    abi::__accjit_set,
    support::__accjit_lock,
    support::__accjit_unlock,
    support::__accjit_alloca,
    support::__accjit_stack_mark,
    support::__accjit_stack_release,
    hosted::__accjit_assert_fail,
    printf::__accjit_va_printf,
    printf::__accjit_va_fprintf,
    printf::__accjit_va_sprintf,
    printf::__accjit_va_snprintf,
    printf::__accjit_va_wprintf,
    printf::__accjit_va_fwprintf,
    printf::__accjit_va_swprintf,
    scanf::__accjit_va_scanf,
    scanf::__accjit_va_sscanf,
    scanf::__accjit_va_fscanf,
    vacall::__accjit_va_open,
    vacall::__accjit_va_fcntl,
    omp::omp_get_wtime,
    omp::omp_get_wtick,
    omp::omp_get_num_threads,
    omp::omp_get_thread_num,
    omp::omp_get_max_threads,
    omp::omp_set_num_threads,
    omp::omp_get_num_procs,
    omp::omp_in_parallel,
    omp::omp_get_dynamic,
    omp::omp_set_dynamic,
    omp::omp_get_level,
    capi::acc_get_num_devices,
    capi::acc_set_device_type,
    capi::acc_get_device_type,
    capi::acc_set_device_num,
    capi::acc_get_device_num,
    capi::acc_get_property,
    capi::acc_get_property_string,
    capi::acc_init,
    capi::acc_init_device,
    capi::acc_shutdown,
    capi::acc_shutdown_device,
    capi::acc_on_device,
    capi::acc_async_test,
    capi::acc_async_test_device,
    capi::acc_async_test_all,
    capi::acc_async_test_all_device,
    capi::acc_wait,
    capi::acc_wait_device,
    capi::acc_wait_all,
    capi::acc_wait_all_device,
    capi::acc_wait_async,
    capi::acc_wait_device_async,
    capi::acc_wait_all_async,
    capi::acc_wait_all_device_async,
    capi::acc_wait_any,
    capi::acc_wait_any_device,
    capi::acc_get_default_async,
    capi::acc_set_default_async,
    capi::acc_async_wait,
    capi::acc_async_wait_all,
    capi::acc_malloc,
    capi::acc_free,
    capi::acc_copyin,
    capi::acc_copyin_async,
    capi::acc_create,
    capi::acc_create_async,
    capi::acc_present_or_copyin,
    capi::acc_pcopyin,
    capi::acc_present_or_create,
    capi::acc_pcreate,
    capi::acc_copyout,
    capi::acc_copyout_async,
    capi::acc_copyout_finalize,
    capi::acc_copyout_finalize_async,
    capi::acc_delete,
    capi::acc_delete_async,
    capi::acc_delete_finalize,
    capi::acc_delete_finalize_async,
    capi::acc_update_device,
    capi::acc_update_device_async,
    capi::acc_update_self,
    capi::acc_update_self_async,
    capi::acc_map_data,
    capi::acc_unmap_data,
    capi::acc_deviceptr,
    capi::acc_hostptr,
    capi::acc_is_present,
    capi::acc_memcpy_to_device,
    capi::acc_memcpy_to_device_async,
    capi::acc_memcpy_from_device,
    capi::acc_memcpy_from_device_async,
    capi::acc_memcpy_device,
    capi::acc_memcpy_device_async,
    capi::acc_memcpy_d2d,
    capi::acc_memcpy_d2d_async,
    capi::acc_attach,
    capi::acc_attach_async,
    capi::acc_detach,
    capi::acc_detach_async,
    capi::acc_detach_finalize,
    capi::acc_detach_finalize_async,
    capi::acc_get_current_cuda_device,
    capi::acc_get_current_cuda_context,
    capi::acc_get_cuda_stream,
    capi::acc_set_cuda_stream,
    capi::acc_get_current_opencl_device,
    capi::acc_get_current_opencl_context,
    capi::acc_get_opencl_queue,
    capi::acc_set_opencl_queue,
    capi::acc_prof_register,
    capi::acc_prof_unregister,
    capi::acc_callback_register,
    capi::acc_callback_unregister,
    capi::acc_register,
    capi::acc_unregister,
    capi::acc_prof_lookup,
);

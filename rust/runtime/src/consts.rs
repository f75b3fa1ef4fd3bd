//! The numeric values of the OpenACC C interface: `acc_device_t`, async
//! values, device properties, `acc_error_t`, and the profiling enums
//! (`acc_event_t`, `acc_construct_t`, `acc_register_t`, `acc_device_api`).
//!
//! These must agree with the bundled `openacc.h`
//! (`rust/front/c/include/openacc.h`): generated code passes them through the
//! C ABI unchanged. Values not fixed by the spec follow GCC's `openacc.h` /
//! `acc_prof.h`, with accjit's own `acc_device_multicore`.

#![allow(non_upper_case_globals)]

// --- acc_device_t (§3.1): from the runtime ABI table ------------------------
pub use accjit_abi::{
    acc_device_current, acc_device_default, acc_device_host, acc_device_multicore, acc_device_none, acc_device_not_host, acc_device_nvidia, acc_device_opencl,
    acc_device_radeon,
};

// --- async values (§2.16) --------------------------------------------------
pub const acc_async_noval: i64 = -1;
pub const acc_async_sync: i64 = -2;
pub const acc_async_default: i64 = -3;

// --- acc_device_property_t (§3.2.6) ----------------------------------------
pub const acc_property_memory: i32 = 1;
pub const acc_property_free_memory: i32 = 2;
/// OpenACC 3.3; answers 1 on the shared-memory host and multicore devices.
pub const acc_property_shared_memory_support: i32 = 3;
pub const acc_property_name: i32 = 0x10000;
pub const acc_property_vendor: i32 = 0x10001;
pub const acc_property_driver: i32 = 0x10002;

// --- acc_error_t (§5.2.2) --------------------------------------------------
pub const acc_error_none: i32 = 0;
pub const acc_error_other: i32 = 1;
pub const acc_error_system: i32 = 2;
pub const acc_error_execution: i32 = 3;
pub const acc_error_device_init: i32 = 4;
pub const acc_error_device_shutdown: i32 = 5;
pub const acc_error_device_unavailable: i32 = 6;
pub const acc_error_device_type_unavailable: i32 = 7;
pub const acc_error_wrong_device_type: i32 = 8;
pub const acc_error_out_of_memory: i32 = 9;
pub const acc_error_not_present: i32 = 10;
pub const acc_error_partly_present: i32 = 11;
pub const acc_error_present: i32 = 12;
pub const acc_error_invalid_argument: i32 = 13;
pub const acc_error_invalid_async: i32 = 14;
pub const acc_error_invalid_null_pointer: i32 = 15;
pub const acc_error_invalid_data_section: i32 = 16;
/// First implementation-defined code.
pub const acc_error_implementation_defined: i32 = 100;

/// The spelling of an `acc_error_*` code (for messages and Python).
pub fn error_name(code: i32) -> &'static str {
    match code {
        acc_error_none => "acc_error_none",
        acc_error_other => "acc_error_other",
        acc_error_system => "acc_error_system",
        acc_error_execution => "acc_error_execution",
        acc_error_device_init => "acc_error_device_init",
        acc_error_device_shutdown => "acc_error_device_shutdown",
        acc_error_device_unavailable => "acc_error_device_unavailable",
        acc_error_device_type_unavailable => "acc_error_device_type_unavailable",
        acc_error_wrong_device_type => "acc_error_wrong_device_type",
        acc_error_out_of_memory => "acc_error_out_of_memory",
        acc_error_not_present => "acc_error_not_present",
        acc_error_partly_present => "acc_error_partly_present",
        acc_error_present => "acc_error_present",
        acc_error_invalid_argument => "acc_error_invalid_argument",
        acc_error_invalid_async => "acc_error_invalid_async",
        acc_error_invalid_null_pointer => "acc_error_invalid_null_pointer",
        acc_error_invalid_data_section => "acc_error_invalid_data_section",
        _ => "acc_error_implementation_defined",
    }
}

// --- acc_event_t (§5.1; GCC order, then acc_ev_error) ----------------------
pub const acc_ev_none: i32 = 0;
pub const acc_ev_device_init_start: i32 = 1;
pub const acc_ev_device_init_end: i32 = 2;
pub const acc_ev_device_shutdown_start: i32 = 3;
pub const acc_ev_device_shutdown_end: i32 = 4;
pub const acc_ev_runtime_shutdown: i32 = 5;
pub const acc_ev_create: i32 = 6;
pub const acc_ev_delete: i32 = 7;
pub const acc_ev_alloc: i32 = 8;
pub const acc_ev_free: i32 = 9;
pub const acc_ev_enter_data_start: i32 = 10;
pub const acc_ev_enter_data_end: i32 = 11;
pub const acc_ev_exit_data_start: i32 = 12;
pub const acc_ev_exit_data_end: i32 = 13;
pub const acc_ev_update_start: i32 = 14;
pub const acc_ev_update_end: i32 = 15;
pub const acc_ev_compute_construct_start: i32 = 16;
pub const acc_ev_compute_construct_end: i32 = 17;
pub const acc_ev_enqueue_launch_start: i32 = 18;
pub const acc_ev_enqueue_launch_end: i32 = 19;
pub const acc_ev_enqueue_upload_start: i32 = 20;
pub const acc_ev_enqueue_upload_end: i32 = 21;
pub const acc_ev_enqueue_download_start: i32 = 22;
pub const acc_ev_enqueue_download_end: i32 = 23;
pub const acc_ev_wait_start: i32 = 24;
pub const acc_ev_wait_end: i32 = 25;
/// OpenACC 3.2+: a runtime error was detected (the error callback).
pub const acc_ev_error: i32 = 26;
pub const acc_ev_last: i32 = 27;

/// The spelling of an event kind without the `acc_ev_` prefix.
pub fn event_name(ev: i32) -> &'static str {
    const NAMES: [&str; 28] = [
        "none",
        "device_init_start",
        "device_init_end",
        "device_shutdown_start",
        "device_shutdown_end",
        "runtime_shutdown",
        "create",
        "delete",
        "alloc",
        "free",
        "enter_data_start",
        "enter_data_end",
        "exit_data_start",
        "exit_data_end",
        "update_start",
        "update_end",
        "compute_construct_start",
        "compute_construct_end",
        "enqueue_launch_start",
        "enqueue_launch_end",
        "enqueue_upload_start",
        "enqueue_upload_end",
        "enqueue_download_start",
        "enqueue_download_end",
        "wait_start",
        "wait_end",
        "error",
        "last",
    ];
    NAMES.get(ev as usize).copied().unwrap_or("unknown")
}

// --- acc_construct_t (§5.2.2) ----------------------------------------------
pub const acc_construct_parallel: i32 = 0;
pub const acc_construct_kernels: i32 = 1;
pub const acc_construct_loop: i32 = 2;
pub const acc_construct_data: i32 = 3;
pub const acc_construct_enter_data: i32 = 4;
pub const acc_construct_exit_data: i32 = 5;
pub const acc_construct_host_data: i32 = 6;
pub const acc_construct_atomic: i32 = 7;
pub const acc_construct_declare: i32 = 8;
pub const acc_construct_init: i32 = 9;
pub const acc_construct_shutdown: i32 = 10;
pub const acc_construct_set: i32 = 11;
pub const acc_construct_update: i32 = 12;
pub const acc_construct_routine: i32 = 13;
pub const acc_construct_wait: i32 = 14;
pub const acc_construct_runtime_api: i32 = 15;
/// The seed lost serial's value; GCC appends it as 16.
pub const acc_construct_serial: i32 = 16;

// --- acc_register_t (§5.4) -------------------------------------------------
pub const acc_reg: i32 = 0;
pub const acc_toggle: i32 = 1;
pub const acc_toggle_per_thread: i32 = 2;

// --- acc_device_api (§5.2.3) -----------------------------------------------
pub const acc_device_api_none: i32 = 0;
pub const acc_device_api_cuda: i32 = 1;
pub const acc_device_api_opencl: i32 = 2;
pub const acc_device_api_coi: i32 = 3;
pub const acc_device_api_other: i32 = 4;

/// `_OPENACC` of the implemented interface (OpenACC 3.3).
pub const OPENACC_VERSION: i32 = 202211;

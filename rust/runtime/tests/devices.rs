//! Device selection, the host device, init/shutdown and properties. One
//! test function: these steps change process-wide ICVs in order.

use accjit_runtime::api;
use accjit_runtime::capi;
use accjit_runtime::consts::*;
use accjit_runtime::{launch, KernelSlot, LaunchOpts, PARAM_VALUE};
use std::ffi::CStr;
use std::sync::Mutex;

static GANGS: Mutex<Vec<(i64, std::thread::ThreadId)>> = Mutex::new(Vec::new());

unsafe extern "C" fn record(_a: *const u64, gang: i64, _n: i64) {
    GANGS.lock().unwrap().push((gang, std::thread::current().id()));
}

#[test]
fn device_selection_host_device_init_shutdown_properties() {
    // defaults
    assert_eq!(accjit_runtime::device_type_name(), "multicore");
    assert_eq!(api::get_device_type(), acc_device_multicore);
    assert_eq!(api::get_num_devices(acc_device_multicore), 1);
    assert_eq!(api::get_num_devices(acc_device_host), 1);
    assert_eq!(api::get_num_devices(acc_device_nvidia), 0);
    assert_eq!(api::get_num_devices(acc_device_opencl), 0);
    assert_eq!(api::get_num_devices(acc_device_not_host), 1);
    assert_eq!(api::get_num_devices(acc_device_default), 1);
    assert_eq!(api::get_device_num(acc_device_multicore), 0);
    assert_eq!(api::get_device_num(acc_device_nvidia), -1);

    // GPU types exist as names but cannot be selected yet
    let e = accjit_runtime::set_device_type("nvidia").unwrap_err();
    assert_eq!(e.code, acc_error_device_type_unavailable);
    assert_eq!(accjit_runtime::set_device_type("tpu").unwrap_err().code, acc_error_invalid_argument);
    assert_eq!(api::init(acc_device_opencl).unwrap_err().code, acc_error_device_type_unavailable);
    assert_eq!(api::set_device_num(1, acc_device_multicore).unwrap_err().code, acc_error_device_unavailable);
    assert_eq!(accjit_runtime::device_type_name(), "multicore", "failed selections change nothing");

    // properties
    assert!(api::get_property(0, acc_device_multicore, acc_property_memory) > 0);
    assert_eq!(api::get_property(0, acc_device_multicore, acc_property_shared_memory_support), 1);
    assert_eq!(api::get_property(1, acc_device_multicore, acc_property_memory), 0);
    let name = capi::acc_get_property_string(0, acc_device_multicore, acc_property_name);
    assert!(!name.is_null());
    let name = unsafe { CStr::from_ptr(name) }.to_str().unwrap().to_string();
    assert!(name.contains("threads"), "{name}");
    let vendor = capi::acc_get_property_string(0, acc_device_current, acc_property_vendor);
    assert_eq!(unsafe { CStr::from_ptr(vendor) }.to_str().unwrap(), "accjit");
    assert!(capi::acc_get_property_string(0, acc_device_nvidia, acc_property_name).is_null());

    // the host device: gangs run one after another on the calling thread
    accjit_runtime::set_device_type("acc_device_host").unwrap();
    assert_eq!(api::get_device_type(), acc_device_host);
    let s = KernelSlot::new("rec".into(), vec![PARAM_VALUE], None);
    s.set_host_fn(record as *const () as usize);
    launch(&s, &mut [0], &LaunchOpts::default()).unwrap();
    launch(&s, &mut [0], &LaunchOpts { num_gangs: 4, ..LaunchOpts::default() }).unwrap();
    let me = std::thread::current().id();
    let g = GANGS.lock().unwrap().clone();
    assert_eq!(g.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 0, 1, 2, 3], "1 gang by default, then exactly 4 in order");
    assert!(g.iter().all(|x| x.1 == me));
    // async on the host device completes at once
    launch(&s, &mut [0], &LaunchOpts { async_: 3, ..LaunchOpts::default() }).unwrap();
    assert!(api::async_test(3).unwrap());
    // the host device has its own present table
    let a = [0u8; 8];
    let h = a.as_ptr() as usize;
    api::copyin(h, 8, acc_async_sync).unwrap();
    assert!(api::is_present(h, 8).unwrap());
    capi::acc_set_device_type(acc_device_multicore);
    assert!(!api::is_present(h, 8).unwrap(), "present on host, not on multicore");
    capi::acc_set_device_type(acc_device_host);
    // shutdown frees present data
    api::shutdown(acc_device_host).unwrap();
    assert!(!api::is_present(h, 8).unwrap());

    // init sets the type; set_device_num with type none applies to all
    api::init(acc_device_multicore).unwrap();
    assert_eq!(api::get_device_type(), acc_device_multicore);
    api::set_device_num(0, acc_device_none).unwrap();
    api::set_device_num(-1, acc_device_multicore).unwrap();
    assert_eq!(api::get_device_num(acc_device_multicore), 0);

    // default async
    assert_eq!(api::get_default_async(), acc_async_noval);
    api::set_default_async(4).unwrap();
    assert_eq!(api::get_default_async(), 4);
    api::set_default_async(acc_async_default).unwrap();
    assert_eq!(api::get_default_async(), acc_async_noval);
    assert_eq!(api::set_default_async(-9).unwrap_err().code, acc_error_invalid_async);

    // the symbol table has every routine openacc.h declares
    let syms = accjit_runtime::symbols();
    let header = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../front/c/include/openacc.h")).unwrap_or_default();
    let mut checked = 0;
    for line in header.lines() {
        let l = line.trim();
        if l.starts_with('#') || l.starts_with("typedef") || !l.ends_with(");") {
            continue;
        }
        let Some(name) = l.split('(').next().and_then(|s| s.split([' ', '*']).next_back()) else { continue };
        if name.starts_with("acc_") && name != "acc_register_library" {
            assert!(syms.iter().any(|(n, a)| n == name && *a != 0), "symbols() lacks {name}");
            checked += 1;
        }
    }
    assert!(checked >= 70, "only {checked} routines found in openacc.h");
    assert!(syms.iter().any(|(n, _)| n == "__accjit_launch"));
    let mut names: Vec<&str> = syms.iter().map(|s| s.0.as_str()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), syms.len(), "no duplicate symbols");
}

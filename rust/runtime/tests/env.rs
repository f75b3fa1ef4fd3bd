//! The environment read at first use: ACC_DEVICE_TYPE, ACCJIT_NUM_THREADS and
//! ACC_PROFLIB (a C tools library built here with `cc`, skipped without one).
//! One test function: the environment is read once per process.

use accjit_runtime::api;
use accjit_runtime::consts::*;
use accjit_runtime::{launch, AccError, KernelSlot, LaunchOpts};
use std::ffi::{c_long, CString};
use std::path::PathBuf;

unsafe extern "C" fn nothing(_a: *const u64, _g: i64, _n: i64) {}

fn build_tool() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let out = dir.join("libaccjit_test_tool.so");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tool/tool.c");
    let inc = concat!(env!("CARGO_MANIFEST_DIR"), "/../front/c/include");
    let ok = std::process::Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-nostdinc", "-I", inc, src, "-o"])
        .arg(&out)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    ok.then_some(out)
}

#[test]
fn environment_is_read_at_first_use() {
    let tool = build_tool();
    std::env::set_var("ACC_DEVICE_TYPE", "  Host ");
    std::env::set_var("ACCJIT_NUM_THREADS", "3");
    std::env::set_var("ACC_NUM_CORES", "5");
    if let Some(t) = &tool {
        std::env::set_var("ACC_PROFLIB", t);
    } else {
        eprintln!("no C compiler: ACC_PROFLIB not tested");
    }

    assert_eq!(accjit_runtime::device_type_name(), "host");
    assert_eq!(accjit_runtime::num_threads(), 3, "ACCJIT_NUM_THREADS wins over ACC_NUM_CORES");

    let s = KernelSlot::new("zkernel".into(), vec![], None);
    s.set_host_fn(nothing as *const () as usize);
    launch(&s, &mut [], &LaunchOpts { num_gangs: 6, loc: Some("env.c:42"), ..LaunchOpts::default() }).unwrap();
    let a = [0u8; 24];
    api::copyin(a.as_ptr() as usize, 24, acc_async_sync).unwrap();
    api::delete(a.as_ptr() as usize, 24, false, acc_async_sync).unwrap();
    accjit_runtime::prof::dispatch_error(&AccError::new(acc_error_partly_present, "test"));

    let Some(t) = tool else { return };
    let q = unsafe {
        let p = CString::new(t.to_str().unwrap()).unwrap();
        let h = libc::dlopen(p.as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD);
        assert!(!h.is_null(), "ACC_PROFLIB was not loaded");
        let f = libc::dlsym(h, c"tool_query".as_ptr());
        assert!(!f.is_null());
        std::mem::transmute::<*mut libc::c_void, unsafe extern "C" fn(i32) -> c_long>(f)
    };
    unsafe {
        assert_eq!(q(100 + acc_ev_device_init_start), 1, "host device initialised once");
        assert_eq!(q(100 + acc_ev_enqueue_launch_start), 1);
        assert_eq!(q(0), 6, "num_gangs in acc_launch_event_info");
        assert_eq!(q(3), b'z' as c_long, "kernel_name");
        assert_eq!(q(4), 42, "line_no from loc");
        assert_eq!(q(100 + acc_ev_create), 1);
        assert_eq!(q(1), 24, "bytes in acc_data_event_info");
        assert_eq!(q(2), acc_error_partly_present as c_long, "error_code in acc_error_event_info");
    }
}

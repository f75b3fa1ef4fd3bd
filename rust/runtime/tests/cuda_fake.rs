//! The CUDA layer over a fake driver: `tests/fake_cuda/libcuda.c` (built
//! here with the system C compiler) stands in for libcuda, and the layer's
//! selftest (`examples/cuda_selftest.rs`, the same code the GPU run uses)
//! runs over it in a child process whose `LD_LIBRARY_PATH` finds it. This
//! checks on machines without a GPU everything but the GPU itself: loading
//! and discovery, the allocator's books, the staged copy pipeline (every
//! byte of round trips of many sizes), streams, the JIT/disk-cache/module
//! path across processes (a corrupt cubin is a miss), launches, a fault
//! poisoning the context and `recover()`. Skipped when no C compiler runs.

#[allow(dead_code)]
#[path = "../examples/cuda_selftest.rs"]
mod selftest;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod fake_cuda;

const CHILD_ENV: &str = "ACCJIT_FAKE_CUDA_CHILD";

/// Builds the fake libcuda (with extra C flags) into a fresh directory;
/// None without a compiler. A compiler that rejects the fake is a failure,
/// not a skip (a broken fake once made every test here skip quietly).
fn build_fake(flags: &[&str]) -> Option<PathBuf> {
    // One directory per call: tests run in parallel and each removes its own.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    fake_cuda::build(&format!("cuda_{n}"), flags)
}

/// This test binary again, running only test `name` with the fake driver.
fn rerun(dir: &Path, name: &str, extra_env: &[(&str, &Path)]) -> Option<Output> {
    let mut c = Command::new(std::env::current_exe().ok()?);
    c.args(["--ignored", "--exact", name, "--nocapture", "--test-threads=1"]).env("LD_LIBRARY_PATH", dir).env(CHILD_ENV, "1");
    for (k, v) in extra_env {
        c.env(k, v);
    }
    c.output().ok()
}

#[test]
fn cuda_layer_selftest_on_a_fake_driver() {
    let Some(dir) = build_fake(&[]) else {
        eprintln!("skipped: no C compiler to build the fake libcuda");
        return;
    };
    let out = rerun(&dir, "fake_driver_selftest", &[]).expect("cannot rerun the test binary");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "selftest over the fake driver failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(", 0 failed"), "{stdout}");
    // The checks that matter all ran.
    for what in [
        "sync round trips",
        "module from disk",
        "corrupt cubin on disk is a miss",
        "acc_error_execution",
        "recover()",
        "device works again",
        "block too big",
        "strategy primary-reset",
        "first kernel with prewarm",
        "runtime launch of saxpy on present data computes",
        "unwritable cache dir",
        "bad PTX",
    ] {
        assert!(stdout.contains(what), "no '{what}' row:\n{stdout}");
    }
}

#[test]
#[ignore = "child of cuda_layer_selftest_on_a_fake_driver"]
fn fake_driver_selftest() {
    assert!(std::env::var_os(CHILD_ENV).is_some(), "run through cuda_layer_selftest_on_a_fake_driver");
    assert!(accjit_runtime::cuda::available(), "the fake libcuda was not loaded");
    let dir = PathBuf::from(std::env::var_os("LD_LIBRARY_PATH").unwrap_or_default());
    let opts = selftest::Options {
        quick: true,
        untimed: true,
        bandwidth_bytes: 64 << 20,
        spawn: Box::new(move |args, env| {
            let joined = PathBuf::from(args.join("\n"));
            let mut env: Vec<(&str, &Path)> = env.to_vec();
            env.push(("ACCJIT_SELFTEST_ARGS", &joined));
            rerun(&dir, "fake_driver_child", &env)
        }),
    };
    assert_eq!(selftest::selftest(&opts), 0);
}

#[test]
#[ignore = "child of fake_driver_selftest"]
fn fake_driver_child() {
    let args = std::env::var("ACCJIT_SELFTEST_ARGS").expect("run through fake_driver_selftest");
    let args: Vec<String> = args.split('\n').map(String::from).collect();
    assert_eq!(selftest::child_main(&args), Some(0));
}

#[test]
fn a_fault_the_driver_cannot_recover_from_loses_the_device_cleanly() {
    let Some(dir) = build_fake(&[]) else {
        eprintln!("skipped: no C compiler to build the fake libcuda");
        return;
    };
    let flag = PathBuf::from("1");
    let out = rerun(&dir, "fake_unrecoverable_fault", &[("FAKE_CUDA_UNRECOVERABLE", &flag)]).expect("cannot rerun the test binary");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("1 passed"), "{stdout}");
}

#[test]
#[ignore = "child of a_fault_the_driver_cannot_recover_from_loses_the_device_cleanly"]
fn fake_unrecoverable_fault() {
    use accjit_runtime::consts::*;
    use accjit_runtime::cuda;
    assert!(std::env::var_os(CHILD_ENV).is_some(), "run through a_fault_the_driver_cannot_recover_from_loses_the_device_cleanly");
    let g = cuda::gpu(0).expect("the fake device");
    let m = g.load_module(include_str!("../examples/cuda_selftest.ptx")).unwrap();
    let poke = m.function("poke").unwrap();
    let s = g.stream(acc_async_sync).unwrap();
    // A bad configuration first: an execution error that poisons nothing.
    let e = g.launch(&poke, [1, 1, 1], [4096, 1, 1], 0, &mut [], s).unwrap_err();
    assert_eq!(e.code, acc_error_execution);
    assert!(!g.poisoned());
    let mut addr = 0x10u64;
    let mut p = [&mut addr as *mut u64 as *mut std::ffi::c_void];
    g.launch(&poke, [1, 1, 1], [1, 1, 1], 0, &mut p, s).unwrap();
    let e = g.sync_stream(s).unwrap_err();
    assert_eq!(e.code, acc_error_execution);
    assert!(e.message.contains("CUDA_ERROR_ILLEGAL_ADDRESS"), "{}", e.message);
    assert!(g.poisoned());
    let e = g.recover().unwrap_err();
    let lost = "nvidia device 0 was lost after a kernel fault (CUDA_ERROR_ILLEGAL_ADDRESS); restart the process to use it again";
    assert!(e.message.starts_with(lost), "{}", e.message);
    assert_eq!(e.code, acc_error_device_unavailable);
    assert!(g.lost() && !g.poisoned());
    // Every later use: the same error, at once.
    let later = [
        g.alloc(64).err(),
        g.load_module(include_str!("../examples/cuda_selftest.ptx")).err(),
        g.launch(&poke, [1, 1, 1], [1, 1, 1], 0, &mut p, s).err(),
        g.stream(5).and_then(|q| g.sync_stream(q)).err(),
        g.recover().err(),
    ];
    for e in later {
        let e = e.expect("an error on a lost device");
        assert_eq!(e.code, acc_error_device_unavailable);
        assert!(e.message.starts_with(lost), "{}", e.message);
    }
    let mem = g.memory();
    let mut b = [0u8; 8];
    unsafe { mem.copy_from(b.as_mut_ptr(), 0x1000, 8) };
    assert!(g.take_error().is_some_and(|e| e.message.starts_with(lost)));
}

#[test]
fn a_driver_lacking_a_function_is_no_driver() {
    let Some(dir) = build_fake(&["-DFAKE_OLD_DRIVER"]) else {
        eprintln!("skipped: no C compiler to build the fake libcuda");
        return;
    };
    let out = rerun(&dir, "fake_old_driver", &[]).expect("cannot rerun the test binary");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("1 passed"), "{stdout}");
}

#[test]
#[ignore = "child of a_driver_lacking_a_function_is_no_driver"]
fn fake_old_driver() {
    assert!(std::env::var_os(CHILD_ENV).is_some(), "run through a_driver_lacking_a_function_is_no_driver");
    use accjit_runtime::cuda;
    assert!(!cuda::available());
    assert_eq!(cuda::device_count(), 0);
    assert_eq!(cuda::gpu(0).err().map(|e| e.code), Some(accjit_runtime::consts::acc_error_device_unavailable));
    assert_eq!(cuda::pointer_device(0x1000), None);
}

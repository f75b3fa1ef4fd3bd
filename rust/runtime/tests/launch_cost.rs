//! The CPU cost of a kernel launch on the nvidia device, measured over the
//! fake libcuda of `tests/fake_cuda/libcuda.c` (whose `cuLaunchKernel`
//! does almost nothing): what the runtime itself spends per launch of a
//! tiny kernel on present data, beside what the CUDA layer's
//! `Gpu::launch` alone costs (the floor), synchronous and asynchronous,
//! and the whole sequence generated host code runs for
//! `#pragma acc parallel loop present(a[0:n]) [async(1)]`
//! (`__accjit_data_enter` + `__accjit_launch` + `__accjit_data_exit`).
//!
//! A counting global allocator checks the claim that matters most and
//! does not depend on the machine's speed: an asynchronous launch on
//! present data allocates nothing (and a synchronous one nothing either).
//! The fake libcuda counts its calls too: such a launch makes one driver
//! call (two when synchronous), each 0.1-1 µs on a virtual machine.
//! The times are printed (`cargo test -p accjit-runtime --release --test
//! launch_cost -- --nocapture`) for docs/cuda.md. Skipped when no C compiler runs.

use accjit_runtime::api;
use accjit_runtime::consts::*;
use accjit_runtime::cuda;
use accjit_runtime::{device, KernelSlot, LaunchOpts, PtxForm, PtxModuleText, PARAM_DEVICE_ADDR, PARAM_VALUE};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

mod fake_cuda;

/// Counts heap allocations (every thread).
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const CHILD_ENV: &str = "ACCJIT_LAUNCH_COST_CHILD";

fn build_fake() -> Option<PathBuf> {
    fake_cuda::build("launch_cost", &[])
}

#[test]
fn launch_cost_on_a_fake_driver() {
    let Some(dir) = build_fake() else {
        eprintln!("skipped: no C compiler to build the fake libcuda");
        return;
    };
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "launch_cost_child", "--nocapture", "--test-threads=1"])
        .env("LD_LIBRARY_PATH", &dir)
        .env("ACCJIT_CACHE_DIR", dir.join("cache"))
        .env(CHILD_ENV, "1")
        .env_remove("ACC_DEVICE_TYPE")
        .env_remove("ACC_PROFLIB")
        .output()
        .expect("cannot rerun the test binary");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "launch cost over the fake driver failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("1 passed"), "{stdout}");
    // The table, for whoever runs with --nocapture.
    for line in stdout.lines().filter(|l| l.starts_with("launch cost")) {
        println!("{line}");
    }
}

const PTX: &str = "\
.version 7.8
.target sm_80
.address_size 64
.visible .entry saxpy(.param .u64 p0, .param .u64 p1, .param .u64 p2, .param .u64 p3) { ret; }
";

/// Driver calls made so far (`fake_cuda_calls` of the fake libcuda, which
/// the runtime loaded), or `None` when it cannot be found.
fn driver_calls() -> Option<u64> {
    for name in cudarc::get_lib_name_candidates("cuda") {
        let Ok(c) = std::ffi::CString::new(name) else { continue };
        // SAFETY: RTLD_NOLOAD only finds a library already loaded; the
        // symbol is `unsigned long long fake_cuda_calls(void)`.
        unsafe {
            let h = libc::dlopen(c.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD);
            if h.is_null() {
                continue;
            }
            let f = libc::dlsym(h, c"fake_cuda_calls".as_ptr());
            if !f.is_null() {
                let f: extern "C" fn() -> u64 = std::mem::transmute(f);
                return Some(f());
            }
        }
    }
    None
}

/// Driver calls per call of `f` over `n` calls.
fn driver_calls_per(n: u32, mut f: impl FnMut()) -> f64 {
    let before = driver_calls().expect("the fake libcuda counts its calls");
    for _ in 0..n {
        f();
    }
    (driver_calls().expect("the fake libcuda counts its calls") - before) as f64 / n as f64
}

/// Rounds of [`per_call`]; the fastest counts (the machine may be busy).
const ROUNDS: u32 = 5;

/// Runs `f` `ROUNDS` × `n` times (after a warm-up of `n` / 10): nanoseconds
/// per call in the fastest round, and allocations per call over all.
fn per_call(n: u32, mut f: impl FnMut()) -> (f64, f64) {
    for _ in 0..n / 10 {
        f();
    }
    let a0 = ALLOCS.load(Relaxed);
    let mut best = f64::INFINITY;
    for _ in 0..ROUNDS {
        let t0 = Instant::now();
        for _ in 0..n {
            f();
        }
        best = best.min(t0.elapsed().as_nanos() as f64 / n as f64);
    }
    (best, (ALLOCS.load(Relaxed) - a0) as f64 / (ROUNDS * n) as f64)
}

#[test]
#[ignore = "child of launch_cost_on_a_fake_driver"]
fn launch_cost_child() {
    assert!(std::env::var_os(CHILD_ENV).is_some(), "run through launch_cost_on_a_fake_driver");
    assert!(cuda::available(), "the fake libcuda was not loaded");
    api::set_device_type(acc_device_nvidia).unwrap();
    let dev = device::current_device().unwrap();
    // More for a profiler (perf record on this child).
    let iters: u32 = std::env::var("ACCJIT_LAUNCH_COST_ITERS").ok().and_then(|v| v.parse().ok()).unwrap_or(4_000);

    let n = 16usize;
    let x: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
    let mut y: Vec<f32> = vec![1.0; n];
    let (xh, yh) = (x.as_ptr() as usize, y.as_mut_ptr() as usize);
    api::copyin(xh, 4 * n, acc_async_sync).unwrap();
    api::copyin(yh, 4 * n, acc_async_sync).unwrap();
    let xd = api::deviceptr(xh).unwrap();
    let yd = api::deviceptr(yh).unwrap();

    let module = PtxModuleText::new(PTX.into(), vec![]);
    let slot = KernelSlot::new("saxpy".into(), vec![PARAM_VALUE, PARAM_VALUE, PARAM_DEVICE_ADDR, PARAM_DEVICE_ADDR], None);
    slot.set_param_names(vec!["n".into(), "a".into(), "x".into(), "y".into()]);
    slot.set_ptx(PtxForm::new(module.clone(), "saxpy".into(), vec![0; 4], 128, 1, None, 1, None));
    let bits = 1.0f32.to_bits() as u64;

    // The floor: the CUDA layer's launch of the same function, nothing else.
    let gpu = cuda::gpu(0).unwrap();
    let m = gpu.load_module(PTX).unwrap();
    let f = m.function("saxpy").unwrap();
    let stream = gpu.stream(1).unwrap();
    let mut raw_args = [n as u64, bits, xd as u64, yd as u64];
    let (raw_ns, _) = per_call(iters, || {
        let mut p: [*mut std::ffi::c_void; 4] = std::array::from_fn(|i| &mut raw_args[i] as *mut u64 as *mut std::ffi::c_void);
        gpu.launch(&f, [8, 1, 1], [128, 1, 1], 0, &mut p, stream).unwrap();
    });

    let launch = |async_: i64| {
        let mut args = [n as u64, bits, xh as u64, yh as u64];
        accjit_runtime::launch(&slot, &mut args, &LaunchOpts { async_, loc: Some("cost.c:2"), ..LaunchOpts::default() }).unwrap();
    };
    let (sync_ns, sync_allocs) = per_call(iters, || launch(acc_async_sync));
    let (async_ns, async_allocs) = per_call(iters, || launch(1));
    api::wait(1).unwrap();

    // What generated code runs for `parallel loop present(a[0:n])`.
    let name = c"y[0:n]";
    let loc = c"cost.c:2";
    let region = |async_: i64| unsafe {
        use accjit_runtime::abi::*;
        let fl = accjit_abi::flags::STRUCTURED;
        __accjit_data_enter(accjit_abi::clause::PRESENT, yh as *mut _, 4 * n as i64, fl, async_, name.as_ptr(), loc.as_ptr());
        let mut args = [n as u64, bits, xh as u64, yh as u64];
        __accjit_launch(&*slot, args.as_mut_ptr(), 4, 0, 0, 0, async_, std::ptr::null(), -1, 0, loc.as_ptr());
        __accjit_data_exit(accjit_abi::clause::PRESENT, yh as *mut _, 4 * n as i64, fl, async_, name.as_ptr(), loc.as_ptr());
    };
    let (region_sync_ns, region_sync_allocs) = per_call(iters, || region(acc_async_sync));
    let (region_async_ns, region_async_allocs) = per_call(iters, || region(1));
    api::wait(1).unwrap();

    // Each driver call costs 0.1-1 µs on a virtual machine: a launch on
    // present data makes `cuLaunchKernel` and, synchronous, one
    // `cuStreamSynchronize`; nothing else (context, query, event, pointer
    // attributes), with or without its `present` region.
    let calls = [
        ("launch, sync", driver_calls_per(100, || launch(acc_async_sync)), 2.0),
        ("launch, async", driver_calls_per(100, || launch(1)), 1.0),
        ("present region + launch, sync", driver_calls_per(100, || region(acc_async_sync)), 2.0),
        ("present region + launch, async", driver_calls_per(100, || region(1)), 1.0),
    ];
    api::wait(1).unwrap();
    for (what, got, want) in calls {
        assert_eq!(got, want, "driver calls per {what}");
    }

    // A program's kernels preloaded ahead of the first launch (the device
    // is open and current): that launch then makes only its own calls.
    // Without the preload, the first launch of another module also loads
    // it, looks the kernel up and asks its occupancy.
    let first_launch_calls = |text: &str, preload: bool| {
        let module = PtxModuleText::new(text.into(), vec![]);
        let slot = KernelSlot::new("saxpy".into(), vec![PARAM_VALUE, PARAM_VALUE, PARAM_DEVICE_ADDR, PARAM_DEVICE_ADDR], None);
        slot.set_ptx(PtxForm::new(module.clone(), "saxpy".into(), vec![0; 4], 128, 1, None, 1, None));
        if preload {
            let done = accjit_runtime::nvidia::preload(&module, vec![("saxpy".into(), 128)]).expect("a preload on the open current device");
            done.recv().expect("the preload ends");
        }
        driver_calls_per(1, || {
            let mut args = [n as u64, bits, xh as u64, yh as u64];
            accjit_runtime::launch(&slot, &mut args, &LaunchOpts { async_: acc_async_sync, loc: Some("cost.c:9"), ..LaunchOpts::default() }).unwrap();
        })
    };
    assert_eq!(first_launch_calls(&format!("{PTX}// preloaded\n"), true), 2.0, "driver calls of the first launch of a preloaded kernel");
    let cold = first_launch_calls(&format!("{PTX}// not preloaded\n"), false);
    assert!(cold > 2.0, "the first launch of a kernel not preloaded makes {cold} driver calls");

    // Every launch ran: y = x * 1 + y once per launch on the device copy.
    // Five measurements of ROUNDS × iters launches, each after iters/10
    // warm-up launches; four counts of the driver calls of 100 each; two
    // first launches.
    let launches = 5 * (ROUNDS * iters + iters / 10) + 400 + 2;
    api::copyout(yh, 4 * n, false, acc_async_sync).unwrap();
    for i in 0..n {
        let want = 1.0 + launches as f32 * x[i];
        assert_eq!(y[i], want, "element {i}: every launch updated y");
    }
    api::delete(xh, 4 * n, false, acc_async_sync).unwrap();
    assert_eq!(dev.table().len(), 0);

    println!();
    println!("launch cost, CUDA layer alone (Gpu::launch): {raw_ns:.0} ns");
    println!("launch cost, runtime launch, sync: {sync_ns:.0} ns, {sync_allocs:.2} allocations");
    println!("launch cost, runtime launch, async: {async_ns:.0} ns, {async_allocs:.2} allocations");
    println!("launch cost, present region + launch, sync: {region_sync_ns:.0} ns, {region_sync_allocs:.2} allocations");
    println!("launch cost, present region + launch, async: {region_async_ns:.0} ns, {region_async_allocs:.2} allocations");
    assert_eq!(async_allocs, 0.0, "an asynchronous launch on present data allocates");
    assert_eq!(sync_allocs, 0.0, "a synchronous launch on present data allocates");
    assert_eq!(region_async_allocs, 0.0, "a present region around an asynchronous launch allocates");
    drop(module);
}

//! Where the time of a tiny kernel launch on the nvidia device goes
//! (`cargo run --release -p accjit-runtime --example nvidia_launch_bench`,
//! on a machine with a GPU; says so and exits 0 without one): the same
//! empty kernel launched
//!
//! - through the CUDA layer only (`Gpu::launch` + `Gpu::sync_stream`),
//! - through the runtime (`__accjit_launch`, synchronous) with its pointer
//!   argument on present data (translation, module/function lookup, grid),
//! - the same with a `present` clause entered and exited around it (what a
//!   compute construct with `present(x[0:n])` costs),
//! - enqueued on an async queue only (no sync), then one wait,
//!
//! each as the median of batches of back-to-back launches, in µs; the table
//! is printed last.

use accjit_runtime::api::{self, flags::STRUCTURED};
use accjit_runtime::consts::*;
use accjit_runtime::{abi, data, device, Clause, KernelSlot, PtxForm, PtxModuleText, PARAM_DEVICE_ADDR};
use std::time::Instant;

const PTX: &str = "\
.version 7.8
.target sm_80
.address_size 64
.visible .entry empty(.param .u64 p0) { ret; }
";

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median over 15 batches of `iters` calls of `f`, in µs per call.
fn time(iters: usize, mut f: impl FnMut()) -> f64 {
    for _ in 0..200 {
        f();
    }
    median(
        (0..15)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..iters {
                    f();
                }
                t.elapsed().as_secs_f64() * 1e6 / iters as f64
            })
            .collect(),
    )
}

fn main() {
    if api::get_num_devices(acc_device_nvidia) == 0 {
        println!("no nvidia device: nothing to measure");
        return;
    }
    api::set_device_type(acc_device_nvidia).unwrap();
    let dev = device::current_device().unwrap();
    let module = PtxModuleText::new(PTX.into(), vec![]);
    let slot = KernelSlot::new("empty".into(), vec![PARAM_DEVICE_ADDR], None);
    slot.set_param_names(vec!["x".into()]);
    slot.set_ptx(PtxForm::new(module, "empty".into(), vec![0], 32, 1, None, 1, Some(1)));
    let mut x = vec![1.0f32; 1024];
    let h = x.as_mut_ptr() as usize;
    api::copyin(h, 4096, acc_async_sync).unwrap();
    let launch = |async_: i64| unsafe {
        let mut args = [h as u64];
        abi::__accjit_launch(&*slot, args.as_mut_ptr(), 1, 0, 0, 0, async_, std::ptr::null(), -1, 0, std::ptr::null());
    };
    launch(acc_async_sync); // loads the module

    let mut rows: Vec<(&str, f64)> = vec![];
    // The CUDA layer alone: launch + sync of the same function.
    let gpu = accjit_runtime::cuda::gpu(dev.num).unwrap();
    let m = gpu.load_module(PTX).unwrap();
    let f = m.function("empty").unwrap();
    let s = gpu.stream(acc_async_sync).unwrap();
    let d = api::deviceptr(h).unwrap() as u64;
    rows.push((
        "CUDA layer: launch + sync",
        time(2000, || {
            let mut p = d;
            let mut params = [&mut p as *mut u64 as *mut std::ffi::c_void];
            gpu.launch(&f, [1, 1, 1], [32, 1, 1], 0, &mut params, s).unwrap();
            gpu.sync_stream(s).unwrap();
        }),
    ));
    rows.push(("runtime: __accjit_launch (sync), present data", time(2000, || launch(acc_async_sync))));
    let ctx = data::Ctx::directive(Some("x[0:n]"), Some("bench.c:1"), acc_construct_parallel);
    rows.push((
        "runtime: present clause + launch + exit",
        time(2000, || {
            data::enter(dev, Clause::Present, h, 4096, STRUCTURED, acc_async_sync, ctx).unwrap();
            launch(acc_async_sync);
            data::exit(dev, Clause::Present, h, 4096, STRUCTURED, acc_async_sync, ctx).unwrap();
        }),
    ));
    rows.push(("runtime: async enqueue only (queue 1)", time(2000, || launch(1))));
    api::wait(1).unwrap();
    let t = Instant::now();
    for _ in 0..1000 {
        launch(1);
    }
    api::wait(1).unwrap();
    rows.push(("runtime: 1000 async launches + wait, per launch", t.elapsed().as_secs_f64() * 1e6 / 1000.0));
    api::delete(h, 4096, false, acc_async_sync).unwrap();
    x[0] = 0.0;

    println!("{:<52} {:>8}", "tiny kernel launch on nvidia device 0", "µs");
    for (what, us) in rows {
        println!("{what:<52} {us:8.2}");
    }
}

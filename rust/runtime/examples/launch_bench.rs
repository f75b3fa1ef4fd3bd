//! Measures the launch overhead of an empty kernel through `__accjit_launch`
//! (`cargo run --release -p accjit-runtime --example launch_bench`).

use accjit_runtime::consts::acc_async_sync;
use accjit_runtime::KernelSlot;
use std::time::Instant;

unsafe extern "C" fn nothing(_a: *const u64, _g: i64, _n: i64) {}

fn main() {
    let s = KernelSlot::new("nothing".into(), vec![], None);
    s.set_host_fn(nothing as *const () as usize);
    let call = |g: i64| unsafe {
        accjit_runtime::abi::__accjit_launch(&*s, std::ptr::null_mut(), 0, g, 0, 0, acc_async_sync, std::ptr::null(), -1, 0, std::ptr::null())
    };
    for gangs in [0i64, 1] {
        for _ in 0..1000 {
            call(gangs);
        }
        let mut samples = Vec::new();
        for _ in 0..20 {
            let iters = 2000;
            let t0 = Instant::now();
            for _ in 0..iters {
                call(gangs);
            }
            samples.push(t0.elapsed().as_nanos() as f64 / iters as f64 / 1000.0);
        }
        samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
        println!(
            "threads {:3}  num_gangs {:>7}: median {:.2} µs  min {:.2} µs",
            accjit_runtime::num_threads(),
            if gangs == 0 { "default".to_string() } else { gangs.to_string() },
            samples[samples.len() / 2],
            samples[0]
        );
    }
}

//! Measures the launch overhead of an empty kernel through `__accjit_launch`
//! (`cargo run --release -p accjit-runtime --example launch_bench`):
//! back-to-back launches, back-to-back launches with one more busy thread
//! than cores (as when a Python caller spins next to the pool), and single
//! launches after 1 ms idle (parked workers).

use accjit_runtime::consts::acc_async_sync;
use accjit_runtime::KernelSlot;
use std::sync::atomic::{AtomicBool, Ordering::*};
use std::sync::Arc;
use std::time::{Duration, Instant};

unsafe extern "C" fn nothing(_a: *const u64, _g: i64, _n: i64) {}

fn report(what: &str, mut samples: Vec<f64>) {
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    println!("threads {:3}  {what:<34}: median {:.2} µs  min {:.2} µs", accjit_runtime::num_threads(), samples[samples.len() / 2], samples[0]);
}

fn main() {
    let s = KernelSlot::new("nothing".into(), vec![], None);
    s.set_host_fn(nothing as *const () as usize);
    let call = |g: i64| unsafe {
        accjit_runtime::abi::__accjit_launch(&*s, std::ptr::null_mut(), 0, g, 0, 0, acc_async_sync, std::ptr::null(), -1, 0, std::ptr::null())
    };
    let batches = |gangs: i64| {
        let mut samples = Vec::new();
        for _ in 0..20 {
            let iters = 2000;
            let t0 = Instant::now();
            for _ in 0..iters {
                call(gangs);
            }
            samples.push(t0.elapsed().as_nanos() as f64 / iters as f64 / 1000.0);
        }
        samples
    };
    for gangs in [0i64, 1] {
        for _ in 0..1000 {
            call(gangs);
        }
        let what = if gangs == 0 { "num_gangs default".to_string() } else { format!("num_gangs {gangs}") };
        report(&what, batches(gangs));
    }

    // One extra spinning thread: more runnable threads than cores.
    let stop = Arc::new(AtomicBool::new(false));
    let hog = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            while !stop.load(Relaxed) {
                std::hint::spin_loop();
            }
        })
    };
    report("default, + 1 busy thread", batches(0));
    stop.store(true, Relaxed);
    hog.join().unwrap();

    // Workers asleep: each launch follows 1 ms of idleness.
    let mut samples = Vec::new();
    for _ in 0..200 {
        std::thread::sleep(Duration::from_millis(1));
        let t0 = Instant::now();
        call(0);
        samples.push(t0.elapsed().as_nanos() as f64 / 1000.0);
    }
    report("default, after 1 ms idle", samples);
}

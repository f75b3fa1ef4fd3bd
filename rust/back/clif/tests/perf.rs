//! Performance checks. Timing assertions apply to optimised builds only
//! (`cargo test --release -p accjit-back-clif --test perf -- --nocapture`);
//! debug builds check correctness and print the numbers.

use std::time::{Duration, Instant};

use accjit_back_clif::{compile, ClifOptions};
use accjit_ir::{Module, ParamKind, SourceMap};
use accjit_runtime::KernelSlot;

fn input(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../../tests/in/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn front(src: &str) -> Module {
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    m
}

// Boxed: generated code holds each slot's address, which must not move.
#[allow(clippy::vec_box)]
fn slots(m: &Module) -> Vec<Box<KernelSlot>> {
    m.kernels.iter().map(|k| KernelSlot::new(k.name.clone(), k.params.iter().map(|p| (p.kind == ParamKind::DeviceAddr) as u8).collect(), k.max_gangs)).collect()
}

fn best<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut last = None;
    for _ in 0..n {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed());
        last = Some(r);
    }
    (best, last.unwrap())
}

#[test]
fn small_kernel_compiles_fast() {
    let src = input("saxpy.c");
    let (t_all, _) = best(10, || {
        let m = front(&src);
        let s = slots(&m);
        let o = ClifOptions {
            symbols: accjit_runtime::symbols().into(),
            kernel_slots: s.iter().map(|s| s.addr()).collect(),
            keep_clif: false,
            ..Default::default()
        };
        (compile(&m, &o).map(|_| ()).is_ok(), s)
    });
    let m = front(&src);
    let s = slots(&m);
    let o =
        ClifOptions { symbols: accjit_runtime::symbols().into(), kernel_slots: s.iter().map(|s| s.addr()).collect(), keep_clif: false, ..Default::default() };
    let (t_clif, ok) = best(10, || compile(&m, &o).is_ok());
    assert!(ok);
    eprintln!("saxpy: all passes {:?}, Cranelift {:?}", t_all, t_clif);
    if !cfg!(debug_assertions) {
        assert!(t_all < Duration::from_millis(10), "full JIT of a small kernel took {t_all:?}");
    }
}

#[test]
fn saxpy_and_jacobi_throughput() {
    let m = front(&(input("saxpy.c") + &input("jacobi.c")));
    let s = slots(&m);
    let o =
        ClifOptions { symbols: accjit_runtime::symbols().into(), kernel_slots: s.iter().map(|s| s.addr()).collect(), keep_clif: false, ..Default::default() };
    let cm = compile(&m, &o).unwrap_or_else(|d| panic!("{:?}", d.0));
    for (i, sl) in s.iter().enumerate() {
        sl.set_host_fn(cm.kernels[i]);
    }
    let call = |name: &str, args: &[u64]| {
        let f = cm.function(name).unwrap();
        let mut r = [0u64; 2];
        unsafe { (f.trampoline)(args.as_ptr(), r.as_mut_ptr()) };
    };
    let n = if cfg!(debug_assertions) { 1 << 20 } else { 1 << 24 };
    let x: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let mut y = vec![1.0f32; n];
    let (t_jit, _) = best(5, || call("saxpy", &[n as u64, 2.0f32.to_bits() as u64, x.as_ptr() as u64, y.as_mut_ptr() as u64]));
    let mut y2 = vec![1.0f32; n];
    let (t_rust, _) = best(5, || {
        for i in 0..n {
            y2[i] += 2.0 * x[i];
        }
        std::hint::black_box(&y2);
    });
    assert_eq!(y, y2);
    let gbs = |t: Duration| 12.0 * n as f64 / t.as_secs_f64() / 1e9;
    eprintln!(
        "saxpy n={n}: JIT {:?} ({:.1} GB/s, {} threads), Rust 1 thread {:?} ({:.1} GB/s)",
        t_jit,
        gbs(t_jit),
        accjit_runtime::num_threads(),
        t_rust,
        gbs(t_rust)
    );
    let mm = if cfg!(debug_assertions) { 512 } else { 2048 };
    let a: Vec<f32> = (0..mm * mm).map(|i| (i % 17) as f32).collect();
    let mut b = vec![0.0f32; mm * mm];
    accjit_runtime::api::copyin(a.as_ptr() as usize, 4 * mm * mm, -2).unwrap();
    accjit_runtime::api::copyin(b.as_ptr() as usize, 4 * mm * mm, -2).unwrap();
    let (t_j, _) = best(5, || call("jacobi", &[mm as u64, a.as_ptr() as u64, b.as_mut_ptr() as u64]));
    let mut b2 = vec![0.0f32; mm * mm];
    let (t_jr, _) = best(3, || {
        for i in 1..mm - 1 {
            for j in 1..mm - 1 {
                b2[i * mm + j] = 0.25f32 * (a[(i - 1) * mm + j] + a[(i + 1) * mm + j] + a[i * mm + j - 1] + a[i * mm + j + 1]);
            }
        }
        std::hint::black_box(&b2);
    });
    assert_eq!(b, b2);
    eprintln!("jacobi {mm}x{mm}: JIT {:?}, Rust 1 thread {:?}", t_j, t_jr);
}

//! Self-test of the CUDA layer (`accjit_runtime::cuda`) on a real GPU,
//! with no Python: discovery and properties, the caching allocator, copy
//! round trips and bandwidth (staged pageable, driver-direct pageable,
//! registered), the tuning sweep of the staged copies, module loading
//! through the disk cache (cold, in-process warm, and a second process
//! that finds the cubin on disk; where a cold load's time goes), launch
//! latency (through the layer and straight to the driver, several ways),
//! start-up to the first kernel with and without `cuda::prewarm`, streams
//! waiting for streams, `.global` symbols, and a kernel fault followed by
//! `recover()` (and each recovery strategy tried alone in a child process).
//! Prints a table last; exits 1 when a check fails. Without a GPU it says
//! so and exits 0.
//!
//!     cargo run --release -p accjit-runtime --example cuda_selftest [-- --quick]

use accjit_runtime::cuda::{self, Attr, CopyTuning, Gpu, ModuleOrigin};
use cudarc::driver::sys::{self, CUresult};
use std::ffi::c_void;
use std::time::{Duration, Instant};

/// saxpy, empty, poke (stores 7 at an address), bump_table (a `.global`).
const PTX: &str = include_str!("cuda_selftest.ptx");
const GIB: usize = 1 << 30;

/// Runs a child process of the selftest ([`child_main`] with these
/// arguments, and these environment variables set); its output.
pub type Spawn = dyn Fn(&[String], &[(&str, &std::path::Path)]) -> Option<std::process::Output>;

/// How the selftest runs.
pub struct Options {
    /// Fewer sizes and repetitions.
    pub quick: bool,
    /// Timing thresholds are reported, not checked (a fake driver).
    pub untimed: bool,
    /// Bytes of the bandwidth tests (1 GiB on a GPU).
    pub bandwidth_bytes: usize,
    /// Runs a child process ([`child_main`]).
    pub spawn: Box<Spawn>,
}

impl Options {
    /// The example's own options: `--quick`, and child processes that are
    /// this executable again.
    pub fn from_args(args: &[String]) -> Options {
        Options {
            quick: args.iter().any(|a| a == "--quick"),
            untimed: false,
            bandwidth_bytes: GIB,
            spawn: Box::new(|args, env| {
                let mut c = std::process::Command::new(std::env::current_exe().ok()?);
                c.args(args);
                for (k, v) in env {
                    c.env(k, v);
                }
                c.output().ok()
            }),
        }
    }

    fn disk_load(&self, ptx: &std::path::Path, cache: &std::path::Path) -> Option<std::process::Output> {
        (self.spawn)(&["--disk-load".into(), ptx.display().to_string()], &[("ACCJIT_CACHE_DIR", cache)])
    }
}

struct Table {
    rows: Vec<(String, String, Option<bool>)>,
    untimed: bool,
}

impl Table {
    /// A check on a time or rate: only reported when timings mean nothing.
    fn timed(&mut self, what: &str, ok: bool, value: impl Into<String>) {
        if self.untimed {
            self.info(what, value)
        } else {
            self.check(what, ok, value)
        }
    }
    fn info(&mut self, what: &str, value: impl Into<String>) {
        let v = value.into();
        println!("  {what}: {v}");
        self.rows.push((what.into(), v, None));
    }
    fn check(&mut self, what: &str, ok: bool, value: impl Into<String>) {
        let v = value.into();
        println!("  {what}: {v} [{}]", if ok { "ok" } else { "FAIL" });
        self.rows.push((what.into(), v, Some(ok)));
    }
    fn failed(&self) -> usize {
        self.rows.iter().filter(|r| r.2 == Some(false)).count()
    }
    fn print(&self) {
        let w = self.rows.iter().map(|r| r.0.len()).max().unwrap_or(10);
        println!("\n{:-<1$}", "", w + 50);
        println!("{:<w$}  {:<38} status", "check", "value");
        println!("{:-<1$}", "", w + 50);
        for (what, v, ok) in &self.rows {
            let s = match ok {
                Some(true) => "ok",
                Some(false) => "FAIL",
                None => "",
            };
            // Long values (error messages) are cut in the table; the log above has them whole.
            let v: String = if v.chars().count() > 60 { v.chars().take(57).chain("...".chars()).collect() } else { v.clone() };
            println!("{what:<w$}  {v:<38} {s}");
        }
        println!("{:-<1$}", "", w + 50);
        println!("{} checks, {} failed", self.rows.iter().filter(|r| r.2.is_some()).count(), self.failed());
    }
}

fn random_bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut v = Vec::with_capacity(n);
    while v.len() < n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let b = x.to_le_bytes();
        let k = (n - v.len()).min(8);
        v.extend_from_slice(&b[..k]);
    }
    v
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        0.0
    } else {
        v[v.len() / 2]
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(code) = child_main(&args[1..]) {
        std::process::exit(code);
    }
    std::process::exit(selftest(&Options::from_args(&args)));
}

/// The selftest's child processes: `--disk-load PTX-FILE`, `--recovery
/// STRATEGY`, `--startup plain|prewarm`; None when `args` asks for none.
pub fn child_main(args: &[String]) -> Option<i32> {
    let start = Instant::now();
    match args.first()?.as_str() {
        "--disk-load" => Some(disk_load(std::path::Path::new(args.get(1)?))),
        "--recovery" => Some(recovery_child(args.get(1)?)),
        "--startup" => Some(startup_child(start, args.get(1)? == "prewarm")),
        _ => None,
    }
}

/// Runs every check and prints the table; the number of failed checks
/// (0 also when there is no CUDA device).
pub fn selftest(opts: &Options) -> i32 {
    // The first call loads libcuda and runs cuInit.
    let t0 = Instant::now();
    let available = cuda::available();
    let init = t0.elapsed();
    if !available || cuda::device_count() == 0 {
        println!("cuda_selftest: no CUDA (libcuda not found or no device): nothing to test");
        return 0;
    }
    // A fresh disk cache, so that the first load is really cold.
    if std::env::var_os("ACCJIT_CUDA_TRACE").is_none() {
        // The layer's timing lines on stderr (device open, modules, pinned buffers, allocations).
        std::env::set_var("ACCJIT_CUDA_TRACE", "1");
    }
    let cache_dir = std::env::temp_dir().join(format!("accjit-cuda-selftest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache_dir);
    std::env::set_var("ACCJIT_CACHE_DIR", &cache_dir);
    let mut t = Table { rows: Vec::new(), untimed: opts.untimed };
    if let Err(e) = run(&mut t, opts, &cache_dir, init) {
        t.check("selftest ran to the end", false, format!("{e}"));
    }
    let _ = std::fs::remove_dir_all(&cache_dir);
    t.print();
    t.failed() as i32
}

/// Child process: open the device, load the PTX in file `path` (the disk
/// cache directory comes in the environment), print origin and times.
pub fn disk_load(path: &std::path::Path) -> i32 {
    let Ok(ptx) = std::fs::read_to_string(path) else { return 2 };
    let t0 = Instant::now();
    let g = match cuda::gpu(0) {
        Ok(g) => g,
        Err(e) => {
            println!("error {e}");
            return 1;
        }
    };
    let open = t0.elapsed();
    let t1 = Instant::now();
    match g.load_module_traced(&ptx).and_then(|(m, o)| m.function("saxpy").map(|_| o)) {
        Ok(origin) => {
            println!("origin {origin:?} open_ms {:.3} load_ms {:.3}", ms(open), ms(t1.elapsed()));
            0
        }
        Err(e) => {
            println!("error {e}");
            1
        }
    }
}

/// The `origin ...` line of a child's output.
fn child_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    // Under a test harness the line may follow "test NAME ... ".
    text.lines().find_map(|l| l.find("origin ").or_else(|| l.find("error ")).map(|i| l[i..].trim().to_string())).unwrap_or_default()
}

fn run(t: &mut Table, opts: &Options, cache_dir: &std::path::Path, init: Duration) -> Result<(), accjit_runtime::AccError> {
    let quick = opts.quick;
    println!("== discovery");
    t.info("devices", cuda::device_count().to_string());
    t.info("driver version", cuda::driver_version().to_string());
    let t0 = Instant::now();
    let g: &'static Gpu = cuda::gpu(0)?;
    let open = t0.elapsed();
    t.timed(
        "device start-up (cuInit + context) <= 200 ms",
        init + open <= Duration::from_millis(200),
        format!("{:.1} ms (cuInit {:.1}, context {:.1})", ms(init + open), ms(init), ms(open)),
    );
    if let Some((lib, syms, cuinit)) = cuda::init_timings() {
        t.info("start-up: load libcuda / check functions / cuInit", format!("{:.1} / {:.1} / {:.1} ms", ms(lib), ms(syms), ms(cuinit)));
    }
    t.info("name", g.name());
    let (maj, min) = g.compute_capability();
    t.check("compute capability >= 8.0", maj >= 8, format!("{maj}.{min}"));
    t.check("SM count", g.sm_count() > 0, g.sm_count().to_string());
    t.info("memory", format!("{:.1} GiB", g.total_memory() as f64 / GIB as f64));
    t.info(
        "clock / mem clock / bus",
        format!(
            "{} MHz / {} MHz / {} bit",
            g.attribute(Attr::CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000,
            g.attribute(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000,
            g.attribute(Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)
        ),
    );
    t.check(
        "max threads per block",
        g.attribute(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK) == 1024,
        g.attribute(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK).to_string(),
    );
    let (total, free) = g.mem_info();
    t.check("mem_info free <= total", free <= total && total > 0, format!("{:.1} / {:.1} GiB", free as f64 / GIB as f64, total as f64 / GIB as f64));
    let e = cuda::gpu(cuda::device_count()).err();
    t.check(
        "gpu(count) is device_unavailable",
        e.as_ref().map(|e| e.code) == Some(accjit_runtime::consts::acc_error_device_unavailable),
        e.map(|e| e.message).unwrap_or_default(),
    );

    // The process's first JIT, right after the device opened (the later
    // cold load then tells whether a first JIT or the state after the big
    // copies is what costs).
    let early = g.load_timings(&format!("{PTX}\n// early {:?}\n", Instant::now()))?;
    t.info(
        "first JIT of the process, right after open",
        format!("{:.2} ms (link add), then {:.2} ms (direct load)", early.link_add_ptx * 1e3, early.load_ptx_direct * 1e3),
    );

    println!("== allocator");
    let s0 = g.pool_stats();
    let t0 = Instant::now();
    let first = g.alloc(3 << 20)?;
    let first_alloc = t0.elapsed();
    g.free(first);
    let t0 = Instant::now();
    for _ in 0..1000 {
        let p = g.alloc(3 << 20)?;
        g.free(p);
    }
    let cached = t0.elapsed() / 1000;
    let s1 = g.pool_stats();
    t.check(
        "1000 alloc/free of 3 MiB reuse the block",
        s1.driver_allocs - s0.driver_allocs == 1 && s1.reuses - s0.reuses == 1000,
        format!("{} driver allocs, {} reuses", s1.driver_allocs - s0.driver_allocs, s1.reuses - s0.reuses),
    );
    t.info("cuMemAlloc vs cached alloc+free", format!("{:.1} µs vs {:.2} µs", first_alloc.as_secs_f64() * 1e6, cached.as_secs_f64() * 1e6));
    let huge = g.alloc(g.total_memory() * 2).err();
    t.check(
        "allocating twice the memory is out_of_memory",
        huge.as_ref().is_some_and(|e| e.code == accjit_runtime::consts::acc_error_out_of_memory),
        huge.map(|e| e.message).unwrap_or_else(|| "allocated".into()),
    );
    let probe = g.alloc(4096)?;
    let on_host = [0u8; 8];
    t.check(
        "pointer_device: device memory and host memory",
        cuda::pointer_device(probe + 100) == Some(0) && cuda::pointer_device(on_host.as_ptr() as usize).is_none(),
        format!("{:?} / {:?}", cuda::pointer_device(probe + 100), cuda::pointer_device(on_host.as_ptr() as usize)),
    );
    g.free(probe);
    let mem = g.memory();
    t.check("memory() is not shared", !mem.is_shared(), "is_shared() = false");
    let mut host = [1u8; 16];
    let d = mem.alloc_copy(host.as_mut_ptr() as usize, 16)?;
    t.check("alloc_copy gives a device copy", d != host.as_ptr() as usize && d != 0, format!("{d:#x}"));
    mem.free_copy(d, host.as_ptr() as usize, 16);

    println!("== copy round trips");
    let sizes: &[usize] =
        if quick { &[1, 4097, (1 << 20) + 1, (37 << 20) + 123] } else { &[1, 4097, 1 << 20, (1 << 20) + 1, (37 << 20) + 123, (256 << 20) + 5] };
    let mut all_ok = true;
    let mut detail = String::new();
    for (i, &n) in sizes.iter().enumerate() {
        let src = random_bytes(n, i as u64 + 1);
        let mut back = vec![0u8; n];
        let d = mem.malloc(n)?;
        unsafe {
            mem.copy_to(d, src.as_ptr(), n);
            let d2 = mem.malloc(n)?;
            mem.copy_within(d2, d, n);
            mem.copy_from(back.as_mut_ptr(), d2, n);
            mem.free(d2);
        }
        mem.free(d);
        let ok = back == src;
        all_ok &= ok;
        if !ok {
            detail += &format!("{n} bytes differ; ");
        }
    }
    let err = g.take_error();
    t.check(
        "sync round trips (H2D, D2D, D2H)",
        all_ok && err.is_none(),
        if all_ok { format!("{} sizes up to {} MiB", sizes.len(), sizes[sizes.len() - 1] >> 20) } else { detail },
    );
    if let Some(e) = err {
        t.check("no pending copy error", false, e.message);
    }
    // Async on a queue's stream, then zero().
    let n = (40 << 20) + 3;
    let src = random_bytes(n, 99);
    let mut back = vec![0u8; n];
    let d = g.alloc(n)?;
    let s = g.stream(1)?;
    unsafe {
        g.copy_to_async(d, src.as_ptr(), n, s)?;
        g.copy_from_async(back.as_mut_ptr(), d, n, s)?;
    }
    g.sync_stream(s)?;
    let ok_async = back == src;
    unsafe { mem.zero(d, n) };
    unsafe { mem.copy_from(back.as_mut_ptr(), d, n) };
    g.free(d);
    t.check("async round trip on queue 1 + zero", ok_async && back.iter().all(|&b| b == 0), format!("{} MiB", n >> 20));

    println!("== bandwidth ({} MiB)", opts.bandwidth_bytes >> 20);
    bandwidth(t, g, quick, opts.bandwidth_bytes)?;

    println!("== modules and the disk cache");
    // A nonce makes the PTX new to the driver's own JIT cache as well.
    let ptx = format!("{PTX}\n// selftest {:?}\n", Instant::now());
    let t0 = Instant::now();
    let (m, origin) = g.load_module_traced(&ptx)?;
    let saxpy = m.function("saxpy")?;
    let cold = t0.elapsed();
    t.check("first load compiles", origin == ModuleOrigin::Compiled, format!("{origin:?}"));
    t.timed("cold load after the 1 GiB copies <= 50 ms", cold <= Duration::from_millis(50), format!("{:.2} ms (JIT + load + store + function)", ms(cold)));
    let t0 = Instant::now();
    let (m2, origin2) = g.load_module_traced(&ptx)?;
    let _ = m2.function("saxpy")?;
    let warm = t0.elapsed();
    t.check("second load from memory", origin2 == ModuleOrigin::Memory, format!("{:.3} ms ({origin2:?})", ms(warm)));
    let files = std::fs::read_dir(cache_dir).map(|d| d.count()).unwrap_or(0);
    t.check("cubin stored on disk", files == 1, format!("{files} file(s) in {}", cache_dir.display()));
    let ptx_path = cache_dir.join("selftest.ptx.txt");
    let child = std::fs::write(&ptx_path, &ptx).ok().and_then(|()| opts.disk_load(&ptx_path, cache_dir));
    match child {
        Some(out) => {
            let text = child_line(&out);
            let words: Vec<&str> = text.split_whitespace().collect();
            let field = |k: &str| words.iter().position(|w| *w == k).and_then(|i| words.get(i + 1)).and_then(|v| v.parse::<f64>().ok());
            t.check("new process: module from disk", out.status.success() && words.get(1) == Some(&"Disk"), text.clone());
            if let (Some(open), Some(load)) = (field("open_ms"), field("load_ms")) {
                t.info("new process: device open", format!("{open:.1} ms"));
                t.timed("new process: disk load <= 1 ms", load <= 1.0, format!("{load:.3} ms"));
            }
        }
        None => t.check("new process: module from disk", false, "cannot run the child process"),
    }
    // Corrupt the cubin: the next process-cold load is a miss and compiles.
    let cubin =
        std::fs::read_dir(cache_dir).ok().and_then(|mut d| d.find_map(|e| e.ok().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "bin"))));
    if let Some(f) = cubin {
        let mut bytes = std::fs::read(&f).unwrap_or_default();
        let mid = bytes.len() / 2;
        if let Some(b) = bytes.get_mut(mid) {
            *b ^= 0x5a;
        }
        let _ = std::fs::write(&f, &bytes);
        let text = opts.disk_load(&ptx_path, cache_dir).map(|o| child_line(&o)).unwrap_or_default();
        t.check("corrupt cubin on disk is a miss", text.starts_with("origin Compiled"), text);
    }
    // A cache directory that cannot be created: compiled, one warning.
    let blocked = ptx_path.join("cache");
    match opts.disk_load(&ptx_path, &blocked) {
        Some(out) => {
            let text = child_line(&out);
            let err = String::from_utf8_lossy(&out.stderr);
            let warnings = err.matches("warning: cannot write the kernel cache").count();
            t.check(
                "unwritable cache dir: compiled, one warning",
                text.starts_with("origin Compiled") && warnings == 1,
                format!("{text}; {warnings} warning(s)"),
            );
        }
        None => t.check("unwritable cache dir: compiled, one warning", false, "cannot run the child process"),
    }
    // Bad PTX: an error carrying the JIT's name for it.
    let bad = g.load_module(".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry broken() { this is not ptx; }\n").err();
    t.check(
        "bad PTX is an error with the CUDA name",
        bad.as_ref().is_some_and(|e| e.message.contains("CUDA_ERROR_")),
        bad.map(|e| e.message.lines().next().unwrap_or("").to_string()).unwrap_or_else(|| "loaded".into()),
    );

    // Where a cold load's time goes, now that the JIT compiler is loaded.
    let lt = g.load_timings(&format!("{PTX}\n// timings {:?}\n", Instant::now()))?;
    t.info(
        "cold load again (JIT loaded): link create/add/complete, load",
        format!(
            "{:.2}/{:.2}/{:.2} ms, {:.2} ms; PTX loaded directly {:.2} ms",
            lt.link_create * 1e3,
            lt.link_add_ptx * 1e3,
            lt.link_complete * 1e3,
            lt.load_cubin * 1e3,
            lt.load_ptx_direct * 1e3
        ),
    );
    t.info(
        "JIT at optimization level 0/1/2/3/4 (4 = default)",
        lt.by_opt_level.iter().map(|s| format!("{:.2}", s * 1e3)).collect::<Vec<_>>().join("/") + " ms",
    );
    let t0 = Instant::now();
    let (_, o) = g.load_module_traced(&format!("{PTX}\n// second cold {:?}\n", Instant::now()))?;
    t.timed("cold load after the first (JIT loaded) <= 50 ms", t0.elapsed() <= Duration::from_millis(50), format!("{:.2} ms ({o:?})", ms(t0.elapsed())));

    // saxpy on 1M floats.
    let n: usize = 1 << 20;
    let x: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1000) as f32 * 0.001).collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 104729) % 977) as f32 * 0.5).collect();
    let a = 2.5f32;
    let ok = run_saxpy(g, &saxpy, &x, &y, a)?;
    t.check("saxpy y = a*x + y (1M floats)", ok, format!("grid {} x 256", n / 256));
    t.info("saxpy occupancy (blocks/SM at 256)", saxpy.blocks_per_sm(256, 0).to_string());

    // .global symbol.
    let (addr, size) = m.global("selftest_table")?;
    let table: Vec<u32> = (0..16).collect();
    unsafe { mem.copy_to(addr, table.as_ptr().cast(), 64) };
    let bump = m.function("bump_table")?;
    let s = g.stream(acc_async_sync())?;
    g.launch(&bump, [1, 1, 1], [16, 1, 1], 0, &mut [], s)?;
    g.sync_stream(s)?;
    let mut back = vec![0u32; 16];
    unsafe { mem.copy_from(back.as_mut_ptr().cast(), addr, 64) };
    t.check(
        ".global symbol read/written by kernel and host",
        size == 64 && back.iter().enumerate().all(|(i, &v)| v == i as u32 + 1),
        format!("{size} bytes at {addr:#x}"),
    );

    println!("== launch latency");
    let empty = m.function("empty")?;
    let s = g.stream(acc_async_sync())?;
    launch_latency(t, g, &empty, s, if quick { 300 } else { 1000 })?;
    runtime_launch_latency(t, if quick { 300 } else { 1000 })?;
    // A block beyond the kernel's limit: an execution error that leaves the device intact.
    let big = g.launch(&empty, [1, 1, 1], [2048, 1, 1], 0, &mut [], s).err();
    t.check(
        "block too big: execution error, device not poisoned",
        big.as_ref().is_some_and(|e| e.code == accjit_runtime::consts::acc_error_execution) && !g.poisoned(),
        big.map(|e| e.message).unwrap_or_else(|| "launched".into()),
    );

    println!("== streams");
    // Queue 2 waits for queue 3's saxpy before copying y back.
    let n = 1 << 22;
    let x: Vec<f32> = (0..n).map(|i| (i % 100) as f32).collect();
    let y: Vec<f32> = vec![1.0; n];
    let (dx, dy) = (g.alloc(n * 4)?, g.alloc(n * 4)?);
    let (q3, q2) = (g.stream(3)?, g.stream(2)?);
    let mut out = vec![0f32; n];
    unsafe {
        g.copy_to_async(dx, x.as_ptr().cast(), n * 4, q3)?;
        g.copy_to_async(dy, y.as_ptr().cast(), n * 4, q3)?;
    }
    let (mut pn, mut pa, mut px, mut py) = (n as u64, 3.0f32.to_bits() as u64, dx as u64, dy as u64);
    let mut params =
        [&mut pn as *mut u64 as *mut c_void, &mut pa as *mut u64 as *mut c_void, &mut px as *mut u64 as *mut c_void, &mut py as *mut u64 as *mut c_void];
    for _ in 0..20 {
        g.launch(&saxpy, [(n / 256) as u32, 1, 1], [256, 1, 1], 0, &mut params, q3)?;
    }
    let idle_before = g.query_stream(q3)?;
    g.stream_wait_stream(q2, q3)?;
    unsafe { g.copy_from_async(out.as_mut_ptr().cast(), dy, n * 4, q2)? };
    g.sync_stream(q2)?;
    let ok = out.iter().zip(&x).all(|(o, xi)| *o == 1.0 + 20.0 * 3.0 * xi);
    let idle_after = g.query_stream(q3)?;
    t.check("stream_wait_stream orders queue 2 after queue 3", ok && idle_after, format!("q3 idle before wait: {idle_before}, after: {idle_after}"));
    g.free(dx);
    g.free(dy);

    if cuda::device_count() > 1 {
        println!("== second device");
        let g1 = cuda::gpu(1)?;
        let n = 64 << 20;
        let src = random_bytes(n, 1234);
        let (d0, d1) = (g.alloc(n)?, g1.alloc(n)?);
        let mut back = vec![0u8; n];
        let s1 = g1.stream(acc_async_sync())?;
        unsafe {
            g.copy_to_async(d0, src.as_ptr(), n, g.stream(acc_async_sync())?)?;
            g.sync_stream(g.stream(acc_async_sync())?)?;
            let t1 = Instant::now();
            g1.copy_peer_async(d1, g, d0, n, s1)?;
            g1.sync_stream(s1)?;
            t.info("peer copy device 0 -> 1 (64 MiB)", format!("{:.1} GB/s", n as f64 / t1.elapsed().as_secs_f64() / 1e9));
            g1.copy_from_async(back.as_mut_ptr(), d1, n, s1)?;
            g1.sync_stream(s1)?;
        }
        t.check("device 1: own memory, peer copy round trip", back == src && cuda::pointer_device(d1) == Some(1), g1.name().to_string());
        g.free(d0);
        g1.free(d1);
    }

    println!("== start-up to the first kernel (child processes, a 20 ms \"compile\" first)");
    let startup = |mode: &str| {
        let dir = cache_dir.join(format!("startup-{mode}"));
        (opts.spawn)(&["--startup".into(), mode.into()], &[("ACCJIT_CACHE_DIR", &dir)]).map(|o| {
            let text = String::from_utf8_lossy(&o.stdout).into_owned();
            text.lines().find_map(|l| l.find("startup ").map(|i| l[i..].trim().to_string())).unwrap_or_else(|| format!("no result: {}", text.trim()))
        })
    };
    let plain = startup("plain").unwrap_or_else(|| "cannot run the child process".into());
    let warm = startup("prewarm").unwrap_or_else(|| "cannot run the child process".into());
    let total = |line: &str| line.split_whitespace().skip_while(|w| *w != "total_ms").nth(1).and_then(|v| v.parse::<f64>().ok());
    t.info("first kernel without prewarm", plain.clone());
    // The first JIT of a fresh process: the module phase of the start-up child.
    let module_ms = |line: &str| line.split("module ").nth(1).and_then(|r| r.split([',', ' ']).next()).and_then(|v| v.parse::<f64>().ok());
    t.timed(
        "fresh process: first module load (JIT) <= 50 ms",
        module_ms(&plain).is_some_and(|v| v <= 50.0),
        format!("{:?} ms without prewarm, {:?} ms with", module_ms(&plain), module_ms(&warm)),
    );
    t.timed("first kernel with prewarm <= 200 ms", total(&warm).is_some_and(|v| v <= 200.0), warm.clone());
    t.check("prewarm gets the first kernel done", total(&warm).is_some() && total(&plain).is_some(), format!("{:?} vs {:?} ms", total(&warm), total(&plain)));

    println!("== recovery strategies (each alone in a child process, straight to the driver)");
    let mut working = Vec::new();
    for how in RAW_RECOVERY {
        let line = (opts.spawn)(&["--recovery".into(), how.to_string()], &[])
            .map(|o| {
                let text = String::from_utf8_lossy(&o.stdout).into_owned();
                text.lines()
                    .find_map(|l| l.find("recovery ").map(|i| l[i..].trim().to_string()))
                    .unwrap_or_else(|| format!("recovery {how} no result ({})", o.status))
            })
            .unwrap_or_else(|| format!("recovery {how} cannot run the child process"));
        if line.contains(" works") {
            working.push(*how);
        }
        t.info(&format!("strategy {how}"), line);
    }
    t.info("strategies that recover from a fault", if working.is_empty() { "none: a fault loses the device".to_string() } else { working.join(", ") });

    println!("== fault and recover");
    let poke = m.function("poke")?;
    let mut addr = 0x10u64;
    let mut p = [&mut addr as *mut u64 as *mut c_void];
    let gen0 = g.generation();
    let launched = g.launch(&poke, [1, 1, 1], [1, 1, 1], 0, &mut p, s);
    let synced = g.sync_stream(s);
    let err = launched.err().or(synced.err());
    let fault_ok = err.as_ref().is_some_and(|e| e.code == accjit_runtime::consts::acc_error_execution && e.message.contains("CUDA_ERROR"));
    t.check("store to 0x10 is acc_error_execution", fault_ok, err.as_ref().map(|e| e.message.clone()).unwrap_or_else(|| "no error".into()));
    t.check("device poisoned after the fault", g.poisoned(), g.poisoned().to_string());
    let t0 = Instant::now();
    let rec = g.recover();
    let rec_ms = ms(t0.elapsed());
    t.info("recover(): how", g.last_recovery());
    match rec {
        Ok(()) => {
            t.check("recover()", g.generation() == gen0 + 1 && !g.poisoned(), format!("{rec_ms:.1} ms, generation {}", g.generation()));
            let stale = g.launch(&saxpy, [1, 1, 1], [32, 1, 1], 0, &mut params, s).err();
            t.check("old kernel refused after recover", stale.is_some(), stale.map(|e| e.message).unwrap_or_default());
            let (m3, origin3) = g.load_module_traced(&ptx)?;
            let saxpy3 = m3.function("saxpy")?;
            let x: Vec<f32> = (0..4096).map(|i| i as f32).collect();
            let y: Vec<f32> = (0..4096).map(|i| (4096 - i) as f32).collect();
            let ok = run_saxpy(g, &saxpy3, &x, &y, -1.5)?;
            t.check("device works again (reload + saxpy)", ok && origin3 != ModuleOrigin::Memory, format!("module from {origin3:?}"));
        }
        Err(e) => {
            // Not recoverable in-process: every later use must be this clear error, at once.
            let lost_msg = |e: &accjit_runtime::AccError| e.message.contains("was lost after a kernel fault") && e.message.contains("restart the process");
            let t1 = Instant::now();
            let later = [
                g.alloc(4096).err(),
                g.load_module(&ptx).err(),
                g.launch(&saxpy, [1, 1, 1], [32, 1, 1], 0, &mut params, s).err(),
                g.stream(77).and_then(|q| g.sync_stream(q)).err(),
                g.recover().err(),
            ];
            let all = later.iter().all(|e| e.as_ref().is_some_and(|e| lost_msg(e) && e.code == accjit_runtime::consts::acc_error_device_unavailable));
            t.check(
                "recover() failed: the device is lost, every later use a clear error",
                lost_msg(&e) && g.lost() && !g.poisoned() && all && t1.elapsed() < Duration::from_secs(1),
                format!("{rec_ms:.1} ms: {}", e.message),
            );
        }
    }
    Ok(())
}

/// The recovery strategies a `--recovery` child tries (straight to the
/// driver, one per process): the layer's own ([`cuda::RECOVERY_STRATEGIES`])
/// and variants.
const RAW_RECOVERY: &[&str] = &["primary-reset", "primary-reset-keep-ref", "new-context", "own-context-recreate"];

/// Child process: a fault in a fresh context, then recovery strategy
/// `how`, then a kernel that must work; prints `recovery HOW works` or
/// `recovery HOW fails at STEP: ERROR`.
pub fn recovery_child(how: &str) -> i32 {
    let r = unsafe { recovery_attempt(how) };
    match r {
        Ok(()) => println!("recovery {how} works"),
        Err((step, e)) => println!("recovery {how} fails at {step}: {}", cuda_name(e)),
    }
    0
}

fn cuda_name(r: CUresult) -> String {
    let mut p: *const std::ffi::c_char = std::ptr::null();
    if unsafe { sys::cuGetErrorName(r, &mut p) } == CUresult::CUDA_SUCCESS && !p.is_null() {
        unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy().into_owned()
    } else {
        format!("{r:?}")
    }
}

unsafe fn recovery_attempt(how: &str) -> Result<(), (&'static str, CUresult)> {
    let ok = |r: CUresult, step: &'static str| if r == CUresult::CUDA_SUCCESS { Ok(()) } else { Err((step, r)) };
    if !cuda::available() {
        return Err(("cuInit", CUresult::CUDA_ERROR_NO_DEVICE));
    }
    let mut dev = 0;
    ok(sys::cuDeviceGet(&mut dev, 0), "cuDeviceGet")?;
    let mut ctx: sys::CUcontext = std::ptr::null_mut();
    let own = how == "own-context-recreate";
    if own {
        ok(sys::cuCtxCreate_v2(&mut ctx, 0, dev), "cuCtxCreate")?;
    } else {
        ok(sys::cuDevicePrimaryCtxRetain(&mut ctx, dev), "cuDevicePrimaryCtxRetain")?;
    }
    ok(sys::cuCtxSetCurrent(ctx), "cuCtxSetCurrent")?;
    let mut src = PTX.as_bytes().to_vec();
    src.push(0);
    let run_poke = |addr: u64| -> Result<(), (&'static str, CUresult)> {
        let mut m: sys::CUmodule = std::ptr::null_mut();
        ok(sys::cuModuleLoadDataEx(&mut m, src.as_ptr().cast(), 0, std::ptr::null_mut(), std::ptr::null_mut()), "cuModuleLoadDataEx")?;
        let mut f: sys::CUfunction = std::ptr::null_mut();
        ok(sys::cuModuleGetFunction(&mut f, m, c"poke".as_ptr()), "cuModuleGetFunction")?;
        let mut a = addr;
        let mut p = [&mut a as *mut u64 as *mut c_void];
        ok(sys::cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, std::ptr::null_mut(), p.as_mut_ptr(), std::ptr::null_mut()), "cuLaunchKernel")?;
        ok(sys::cuCtxSynchronize(), "cuCtxSynchronize")
    };
    if run_poke(0x10).is_ok() {
        return Err(("the fault (none happened)", CUresult::CUDA_ERROR_UNKNOWN));
    }
    match how {
        "primary-reset" => {
            let _ = sys::cuCtxSetCurrent(std::ptr::null_mut());
            let _ = sys::cuDevicePrimaryCtxRelease_v2(dev);
            ok(sys::cuDevicePrimaryCtxReset_v2(dev), "cuDevicePrimaryCtxReset")?;
            ok(sys::cuDevicePrimaryCtxRetain(&mut ctx, dev), "cuDevicePrimaryCtxRetain after reset")?;
        }
        "primary-reset-keep-ref" => {
            ok(sys::cuDevicePrimaryCtxReset_v2(dev), "cuDevicePrimaryCtxReset")?;
            let _ = sys::cuDevicePrimaryCtxRelease_v2(dev);
            ok(sys::cuDevicePrimaryCtxRetain(&mut ctx, dev), "cuDevicePrimaryCtxRetain after reset")?;
        }
        "new-context" => {
            let _ = sys::cuCtxSetCurrent(std::ptr::null_mut());
            ok(sys::cuCtxCreate_v2(&mut ctx, 0, dev), "cuCtxCreate after the fault")?;
        }
        "own-context-recreate" => {
            let _ = sys::cuCtxSetCurrent(std::ptr::null_mut());
            ok(sys::cuCtxDestroy_v2(ctx), "cuCtxDestroy")?;
            ok(sys::cuCtxCreate_v2(&mut ctx, 0, dev), "cuCtxCreate after destroy")?;
        }
        _ => return Err(("unknown strategy", CUresult::CUDA_ERROR_INVALID_VALUE)),
    }
    ok(sys::cuCtxSetCurrent(ctx), "cuCtxSetCurrent (new)")?;
    let mut d: sys::CUdeviceptr = 0;
    ok(sys::cuMemAlloc_v2(&mut d, 4096), "cuMemAlloc (new)")?;
    run_poke(d).map_err(|(s, e)| (if s == "cuCtxSynchronize" { "a kernel in the new context" } else { s }, e))?;
    let mut v = 0u32;
    ok(sys::cuMemcpyDtoHAsync_v2((&mut v as *mut u32).cast(), d, 4, std::ptr::null_mut()), "cuMemcpyDtoH (new)")?;
    ok(sys::cuCtxSynchronize(), "cuCtxSynchronize (new)")?;
    if v != 7 {
        return Err(("the kernel's store (not seen)", CUresult::CUDA_ERROR_UNKNOWN));
    }
    Ok(())
}

/// Child process: from `start` (the process's start, near enough) to the
/// first kernel done — `cuda::prewarm()` or not, then a 20 ms stand-in for
/// compiling the program, then open device 0, load a new module (the JIT:
/// the cache directory is empty), launch, wait. Prints `startup total_ms
/// T ...` with the phases.
pub fn startup_child(start: Instant, prewarm: bool) -> i32 {
    if prewarm {
        cuda::prewarm();
    }
    std::thread::sleep(Duration::from_millis(20));
    let t0 = Instant::now();
    let r = (|| {
        let g = cuda::gpu(0)?;
        let opened = t0.elapsed();
        let t1 = Instant::now();
        let m = g.load_module(&format!("{PTX}\n// startup {:?}\n", Instant::now()))?;
        let f = m.function("empty")?;
        let loaded = t1.elapsed();
        let s = g.stream(acc_async_sync())?;
        g.launch(&f, [1, 1, 1], [1, 1, 1], 0, &mut [], s)?;
        g.sync_stream(s)?;
        Ok::<_, accjit_runtime::AccError>((opened, loaded))
    })();
    match r {
        Ok((opened, loaded)) => {
            let init = cuda::init_timings().map(|(l, s, i)| format!(", libcuda {:.1} + cuInit {:.1}", ms(l + s), ms(i))).unwrap_or_default();
            println!(
                "startup total_ms {:.1} (device wait after compile {:.1}, module {:.1}{init}, {})",
                ms(start.elapsed()),
                ms(opened),
                ms(loaded),
                if prewarm { "prewarm" } else { "no prewarm" }
            );
            0
        }
        Err(e) => {
            println!("startup error {e}");
            1
        }
    }
}

/// Launch + sync of saxpy on 32 floats of present data through the whole
/// runtime (`accjit_runtime::launch` of a PTX form on the nvidia device:
/// argument translation through the present table, launch configuration,
/// the sync stream) — what a compute construct costs apart from Python.
fn runtime_launch_latency(t: &mut Table, n: usize) -> Result<(), accjit_runtime::AccError> {
    use accjit_runtime::{api, data, device, Clause, KernelSlot, LaunchOpts, PtxForm, PtxModuleText, PARAM_DEVICE_ADDR, PARAM_VALUE};
    let sync = acc_async_sync();
    api::set_device_type(accjit_runtime::consts::acc_device_nvidia)?;
    let dev = device::current_device()?;
    let module = PtxModuleText::new(PTX.into(), vec![]);
    let slot = KernelSlot::new("saxpy".into(), vec![PARAM_VALUE, PARAM_VALUE, PARAM_DEVICE_ADDR, PARAM_DEVICE_ADDR], None);
    slot.set_param_names(vec!["n".into(), "a".into(), "x".into(), "y".into()]);
    slot.set_ptx(PtxForm::new(module, "saxpy".into(), vec![0; 4], 32, 1, None, 1, Some(1)));
    let len = 32usize;
    let x: Vec<f32> = (0..len).map(|i| i as f32).collect();
    let mut y: Vec<f32> = vec![1.0; len];
    let (xh, yh) = (x.as_ptr() as usize, y.as_mut_ptr() as usize);
    let ctx = |name| data::Ctx::directive(Some(name), Some("selftest"), accjit_runtime::consts::acc_construct_data);
    data::enter(dev, Clause::CopyIn, xh, 4 * len, api::flags::STRUCTURED, sync, ctx("x[0:32]"))?;
    data::enter(dev, Clause::Copy, yh, 4 * len, api::flags::STRUCTURED, sync, ctx("y[0:32]"))?;
    let bits = 1.0f32.to_bits() as u64;
    let mut v = Vec::with_capacity(n);
    let mut r = Ok(());
    for i in 0..n + 50 {
        let mut args = [len as u64, bits, xh as u64, yh as u64];
        let t0 = Instant::now();
        r = accjit_runtime::launch(&slot, &mut args, &LaunchOpts::default());
        if r.is_err() {
            break;
        }
        if i >= 50 {
            v.push(t0.elapsed().as_secs_f64() * 1e6);
        }
    }
    data::exit(dev, Clause::CopyIn, xh, 4 * len, api::flags::STRUCTURED, sync, ctx("x[0:32]"))?;
    data::exit(dev, Clause::Copy, yh, 4 * len, api::flags::STRUCTURED, sync, ctx("y[0:32]"))?;
    r?;
    let ok = y.iter().enumerate().all(|(i, &v)| v == 1.0 + (n + 50) as f32 * i as f32);
    let lat = median(v);
    t.check("runtime launch of saxpy on present data computes", ok, format!("{} launches", n + 50));
    t.timed("runtime launch+sync on present data <= 6 µs", lat <= 6.0, format!("{lat:.2} µs (median of {n})"));
    Ok(())
}

/// Launch latency of the empty kernel: through the layer, and straight to
/// the driver in several ways, so that a slow number says whether the
/// layer or the driver (or the machine) costs it. Medians of `n`.
fn launch_latency(t: &mut Table, g: &'static Gpu, empty: &cuda::GpuFunction, s: usize, n: usize) -> Result<(), accjit_runtime::AccError> {
    for _ in 0..100 {
        g.launch(empty, [1, 1, 1], [1, 1, 1], 0, &mut [], s)?;
        g.sync_stream(s)?;
    }
    let (mut lat, mut enq) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for _ in 0..n {
        let t0 = Instant::now();
        g.launch(empty, [1, 1, 1], [1, 1, 1], 0, &mut [], s)?;
        let t1 = Instant::now();
        g.sync_stream(s)?;
        enq.push((t1 - t0).as_secs_f64() * 1e6);
        lat.push(t0.elapsed().as_secs_f64() * 1e6);
    }
    let (lat, enq) = (median(lat), median(enq));
    t.info("launch enqueue only (median)", format!("{enq:.2} µs"));
    t.timed("launch+sync of empty kernel <= 6 µs", lat <= 6.0, format!("{lat:.2} µs (median of {n})"));
    // The same straight to the driver (context already current).
    let f = empty.cu_function() as sys::CUfunction;
    let raw = |stream: sys::CUstream, wait: &dyn Fn(sys::CUstream) -> CUresult| -> (f64, f64, CUresult) {
        let (mut a, mut b, mut worst) = (Vec::with_capacity(n), Vec::with_capacity(n), CUresult::CUDA_SUCCESS);
        for i in 0..n + 50 {
            let t0 = Instant::now();
            let r = unsafe { sys::cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, stream, std::ptr::null_mut(), std::ptr::null_mut()) };
            let t1 = Instant::now();
            let w = wait(stream);
            if r != CUresult::CUDA_SUCCESS || w != CUresult::CUDA_SUCCESS {
                worst = if r != CUresult::CUDA_SUCCESS { r } else { w };
            }
            if i >= 50 {
                a.push((t1 - t0).as_secs_f64() * 1e6);
                b.push(t0.elapsed().as_secs_f64() * 1e6);
            }
        }
        (median(a), median(b), worst)
    };
    let sync = |st: sys::CUstream| unsafe { sys::cuStreamSynchronize(st) };
    let spin = |st: sys::CUstream| loop {
        match unsafe { sys::cuStreamQuery(st) } {
            CUresult::CUDA_ERROR_NOT_READY => std::hint::spin_loop(),
            r => break r,
        }
    };
    let fmt = |(e, l, r): (f64, f64, CUresult)| {
        if r == CUresult::CUDA_SUCCESS {
            format!("enqueue {e:.2} µs, +wait {l:.2} µs")
        } else {
            format!("error {}", cuda_name(r))
        }
    };
    let on_queue = raw(s as sys::CUstream, &sync);
    t.info("raw cuLaunchKernel, queue stream, cuStreamSynchronize", fmt(on_queue));
    t.timed("the layer adds <= 1 µs to the driver's launch+sync", lat <= on_queue.1 + 1.0, format!("{lat:.2} vs {:.2} µs", on_queue.1));
    t.info("raw cuLaunchKernel, queue stream, spin on cuStreamQuery", fmt(raw(s as sys::CUstream, &spin)));
    t.info("raw cuLaunchKernel, legacy NULL stream, cuStreamSynchronize", fmt(raw(std::ptr::null_mut(), &sync)));
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let mut c: sys::CUcontext = std::ptr::null_mut();
        let t0 = Instant::now();
        unsafe { sys::cuCtxGetCurrent(&mut c) };
        v.push(t0.elapsed().as_secs_f64() * 1e9);
    }
    let mut flags = 0u32;
    let _ = unsafe { sys::cuCtxGetFlags(&mut flags) };
    t.info(
        "cuCtxGetCurrent (median) / context flags",
        format!("{:.0} ns / {flags:#x} (sched {})", median(v), ["auto", "spin", "yield", "?", "blocking"].get((flags & 7) as usize).unwrap_or(&"?")),
    );
    Ok(())
}

fn acc_async_sync() -> i64 {
    accjit_runtime::consts::acc_async_sync
}

fn run_saxpy(g: &'static Gpu, f: &cuda::GpuFunction, x: &[f32], y: &[f32], a: f32) -> Result<bool, accjit_runtime::AccError> {
    let n = x.len();
    let mem = g.memory();
    let (dx, dy) = (mem.malloc(n * 4)?, mem.malloc(n * 4)?);
    unsafe {
        mem.copy_to(dx, x.as_ptr().cast(), n * 4);
        mem.copy_to(dy, y.as_ptr().cast(), n * 4);
    }
    let (mut pn, mut pa, mut px, mut py) = (n as u64, a.to_bits() as u64, dx as u64, dy as u64);
    let mut params =
        [&mut pn as *mut u64 as *mut c_void, &mut pa as *mut u64 as *mut c_void, &mut px as *mut u64 as *mut c_void, &mut py as *mut u64 as *mut c_void];
    let s = g.stream(acc_async_sync())?;
    g.launch(f, [n.div_ceil(256) as u32, 1, 1], [256, 1, 1], 0, &mut params, s)?;
    g.sync_stream(s)?;
    let mut out = vec![0f32; n];
    unsafe { mem.copy_from(out.as_mut_ptr().cast(), dy, n * 4) };
    mem.free(dx);
    mem.free(dy);
    if let Some(e) = g.take_error() {
        return Err(e);
    }
    Ok(out.iter().enumerate().all(|(i, &o)| o == a.mul_add(x[i], y[i])))
}

/// GB/s of `reps` timed runs of `op` (after one warm-up): (best, median).
fn rate(bytes: usize, reps: usize, mut op: impl FnMut()) -> (f64, f64) {
    op();
    let mut v = Vec::new();
    for _ in 0..reps {
        let t0 = Instant::now();
        op();
        v.push(bytes as f64 / t0.elapsed().as_secs_f64() / 1e9);
    }
    let best = v.iter().cloned().fold(0.0, f64::max);
    (best, median(v))
}

fn bandwidth(t: &mut Table, g: &'static Gpu, quick: bool, n: usize) -> Result<(), accjit_runtime::AccError> {
    let mem = g.memory();
    let mut host = vec![0u8; n];
    for (i, c) in host.chunks_mut(4096).enumerate() {
        c[0] = i as u8;
        c[c.len() - 1] = (i >> 8) as u8;
    }
    let d = mem.malloc(n)?;
    let reps = if quick { 3 } else { 5 };
    let default = g.copy_tuning();
    let h2d = |h: &Vec<u8>| unsafe { mem.copy_to(d, h.as_ptr(), n) };
    let (best, med) = rate(n, reps, || h2d(&host));
    t.info("copyin pageable H2D (staged), first", format!("median {med:.1} GB/s, best {best:.1}"));
    let (best, med) = rate(n, reps, || unsafe { mem.copy_from(host.as_mut_ptr(), d, n) });
    t.info("copyout pageable D2H (staged)", format!("median {med:.1} GB/s, best {best:.1}"));
    t.info("staged copy defaults", format!("chunk {} MiB, {} buffers, {} threads", default.chunk_bytes >> 20, default.buffers, default.threads));
    // Check the bytes survived the round trips.
    let ok = host.chunks(4096).enumerate().all(|(i, c)| c[0] == i as u8 && c[c.len() - 1] == (i >> 8) as u8);
    t.check("bandwidth buffer round trip intact", ok && g.take_error().is_none(), "");

    g.set_copy_tuning(CopyTuning { direct_max: usize::MAX, ..default });
    let (best, _) = rate(n, reps.min(3), || h2d(&host));
    let (best_d2h, _) = rate(n, reps.min(3), || unsafe { mem.copy_from(host.as_mut_ptr(), d, n) });
    t.info("driver-direct pageable H2D / D2H", format!("{best:.1} / {best_d2h:.1} GB/s"));
    g.set_copy_tuning(default);

    let pageable_pinned = g.is_pinned_host(host.as_ptr());
    t.check("pageable memory is not taken for pinned", !pageable_pinned, pageable_pinned.to_string());
    let t0 = Instant::now();
    let reg = unsafe { g.register_host(host.as_mut_ptr(), n) };
    let reg_ms = ms(t0.elapsed());
    match reg {
        Ok(()) => {
            t.check("registered memory is recognised as pinned", g.is_pinned_host(host[12345..].as_ptr()), "cuMemHostGetFlags");
            let (best, _) = rate(n, reps.min(3), || h2d(&host));
            let (best_d2h, _) = rate(n, reps.min(3), || unsafe { mem.copy_from(host.as_mut_ptr(), d, n) });
            t.info("registered H2D / D2H", format!("{best:.1} / {best_d2h:.1} GB/s (register {reg_ms:.0} ms)"));
            let _ = unsafe { g.unregister_host(host.as_mut_ptr()) };
            // Pinning in place for one copy: register + copy + unregister.
            let (once, _) = rate(n, reps.min(3), || unsafe {
                if g.register_host(host.as_mut_ptr(), n).is_ok() {
                    mem.copy_to(d, host.as_ptr(), n);
                    let _ = g.unregister_host(host.as_mut_ptr());
                }
            });
            t.info("register + H2D + unregister (one-shot)", format!("{once:.1} GB/s"));
        }
        Err(e) => t.info("registered H2D / D2H", format!("cannot register: {}", e.message)),
    }

    // Sweep the staged H2D/D2H over chunk size and host threads.
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let chunks: &[usize] = if quick || n < GIB { &[8 << 20, 16 << 20] } else { &[4 << 20, 8 << 20, 16 << 20, 32 << 20] };
    let threads: Vec<usize> = [1, 2, 4, 6, 8, 12, 16].into_iter().filter(|&k| k <= cores).collect();
    let mut best_cfg = (0.0, default);
    println!("  sweep (H2D GB/s / D2H GB/s):");
    for &c in chunks {
        let mut line = format!("    chunk {:>2} MiB:", c >> 20);
        for &k in &threads {
            let tune = CopyTuning { chunk_bytes: c, threads: k, ..default };
            g.set_copy_tuning(tune);
            let (h, _) = rate(n, 2, || h2d(&host));
            let (dh, _) = rate(n, 2, || unsafe { mem.copy_from(host.as_mut_ptr(), d, n) });
            line += &format!("  t{k}: {h:.1}/{dh:.1}");
            if h > best_cfg.0 {
                best_cfg = (h, tune);
            }
        }
        println!("{line}");
    }
    let mut line = "    buffers (best chunk/threads):".to_string();
    for b in [2, 3, 4, 6] {
        g.set_copy_tuning(CopyTuning { buffers: b, ..best_cfg.1 });
        let (h, _) = rate(n, 2, || h2d(&host));
        let (dh, _) = rate(n, 2, || unsafe { mem.copy_from(host.as_mut_ptr(), d, n) });
        line += &format!("  b{b}: {h:.1}/{dh:.1}");
        if h > best_cfg.0 {
            best_cfg = (h, CopyTuning { buffers: b, ..best_cfg.1 });
        }
    }
    println!("{line}");
    g.set_copy_tuning(default);
    // The defaults again, after the sweep (the first measurement ran on a colder machine).
    let (best, med) = rate(n, reps, || h2d(&host));
    t.timed("copyin pageable H2D (staged, defaults), median >= 40 GB/s", med >= 40.0, format!("median {med:.1} GB/s, best {best:.1}"));
    let (best, med) = rate(n, reps, || unsafe { mem.copy_from(host.as_mut_ptr(), d, n) });
    t.info("copyout pageable D2H (staged, defaults) again", format!("median {med:.1} GB/s, best {best:.1}"));
    t.info(
        "best staged H2D config",
        format!("{:.1} GB/s: chunk {} MiB, {} threads, {} buffers", best_cfg.0, best_cfg.1.chunk_bytes >> 20, best_cfg.1.threads, best_cfg.1.buffers),
    );
    mem.free(d);
    Ok(())
}

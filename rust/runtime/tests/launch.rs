//! Kernel launches through `KernelSlot` and `launch` (what
//! `__accjit_launch` does): gang counts, async queues and wait clauses,
//! acc_on_device inside kernels, DeviceAddr translation, the fatal path.

use accjit_runtime::api;
use accjit_runtime::consts::*;
use accjit_runtime::{launch, KernelSlot, LaunchOpts, PARAM_DEVICE_ADDR, PARAM_SNAPSHOT, PARAM_VALUE};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::*};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// args[0]: *AtomicU64 counters (one per gang), args[1]: *AtomicI64 (num_gangs seen).
unsafe extern "C" fn count_gangs(args: *const u64, gang: i64, n: i64) {
    let counters = *args as *const AtomicU64;
    (*counters.add(gang as usize)).fetch_add(1, SeqCst);
    (*(*args.add(1) as *const AtomicI64)).store(n, SeqCst);
}

fn slot(f: unsafe extern "C" fn(*const u64, i64, i64), kinds: Vec<u8>, max_gangs: Option<u64>) -> Box<KernelSlot> {
    let s = KernelSlot::new("k".into(), kinds, max_gangs);
    s.set_host_fn(f as *const () as usize);
    s
}

fn run_count(s: &KernelSlot, num_gangs: i64, cap: usize) -> (Vec<u64>, i64) {
    let counters: Vec<AtomicU64> = (0..cap).map(|_| AtomicU64::new(0)).collect();
    let seen = AtomicI64::new(-1);
    let mut args = [counters.as_ptr() as u64, &seen as *const AtomicI64 as u64];
    launch(s, &mut args, &LaunchOpts { num_gangs, ..LaunchOpts::default() }).unwrap();
    (counters.iter().map(|c| c.load(SeqCst)).collect(), seen.load(SeqCst))
}

#[test]
fn explicit_num_gangs_runs_exactly_n_gangs_each_once() {
    let s = slot(count_gangs, vec![PARAM_VALUE, PARAM_VALUE], None);
    for n in [1usize, 2, 3, 17, 100, 1000] {
        let (c, seen) = run_count(&s, n as i64, n + 5);
        assert!(c[..n].iter().all(|x| *x == 1), "n={n}: {c:?}");
        assert!(c[n..].iter().all(|x| *x == 0), "n={n}: extra gangs ran");
        assert_eq!(seen, n as i64);
    }
}

#[test]
fn default_gangs_is_the_thread_count_capped_by_max_gangs() {
    let t = accjit_runtime::num_threads();
    let s = slot(count_gangs, vec![PARAM_VALUE, PARAM_VALUE], None);
    let (c, seen) = run_count(&s, 0, t + 4);
    assert_eq!(seen, t as i64);
    assert_eq!(c.iter().sum::<u64>(), t as u64);
    let serial = slot(count_gangs, vec![PARAM_VALUE, PARAM_VALUE], Some(1));
    let (_, seen) = run_count(&serial, 0, t + 4);
    assert_eq!(seen, 1);
    // an explicit num_gangs is not capped
    let (_, seen) = run_count(&serial, 3, 4);
    assert_eq!(seen, 3);
}

static LOG: Mutex<Vec<u64>> = Mutex::new(Vec::new());

/// args[0]: id to log, args[1]: milliseconds to sleep first (gang 0 only).
unsafe extern "C" fn log_id(args: *const u64, gang: i64, _n: i64) {
    if gang == 0 {
        std::thread::sleep(Duration::from_millis(*args.add(1)));
        LOG.lock().unwrap().push(*args);
    }
}

static QUEUE_TESTS: Mutex<()> = Mutex::new(());

#[test]
fn async_launches_run_in_order_and_wait_joins() {
    let _g = QUEUE_TESTS.lock().unwrap();
    LOG.lock().unwrap().clear();
    let s = slot(log_id, vec![PARAM_VALUE, PARAM_VALUE], Some(1));
    let t0 = Instant::now();
    for (id, ms) in [(1u64, 300u64), (2, 0), (3, 0)] {
        let mut args = [id, ms];
        launch(&s, &mut args, &LaunchOpts { async_: 5, ..LaunchOpts::default() }).unwrap();
    }
    assert!(t0.elapsed() < Duration::from_millis(250), "async launches must not block the host");
    assert!(!api::async_test(5).unwrap(), "queue 5 is still busy");
    assert!(api::async_test(6).unwrap(), "an unused queue is idle");
    assert!(!api::async_test_all().unwrap());
    api::wait(5).unwrap();
    assert!(api::async_test(5).unwrap());
    assert_eq!(*LOG.lock().unwrap(), vec![1, 2, 3]);
    // the arguments were copied: the caller's array may die right after launch
}

#[test]
fn wait_clause_orders_queues_and_wait_any() {
    let _g = QUEUE_TESTS.lock().unwrap();
    LOG.lock().unwrap().clear();
    let s = slot(log_id, vec![PARAM_VALUE, PARAM_VALUE], Some(1));
    launch(&s, &mut [10, 300], &LaunchOpts { async_: 7, ..LaunchOpts::default() }).unwrap();
    // async(8) wait(7): runs after queue 7's kernel, without blocking the host
    let t0 = Instant::now();
    launch(&s, &mut [20, 0], &LaunchOpts { async_: 8, wait: Some(&[7]), ..LaunchOpts::default() }).unwrap();
    assert!(t0.elapsed() < Duration::from_millis(250));
    assert_eq!(api::wait_any(&[acc_async_sync, 9]).unwrap(), 1, "unused queue 9 is idle");
    assert_eq!(api::wait_any(&[acc_async_sync]).unwrap(), -1);
    api::wait_all().unwrap();
    assert_eq!(*LOG.lock().unwrap(), vec![10, 20]);
    // synchronous launch with wait(7): the host waits first
    launch(&s, &mut [30, 40], &LaunchOpts { async_: 7, ..LaunchOpts::default() }).unwrap();
    launch(&s, &mut [40, 0], &LaunchOpts { wait: Some(&[]), ..LaunchOpts::default() }).unwrap();
    assert_eq!(*LOG.lock().unwrap(), vec![10, 20, 30, 40]);
    // wait_async: queue 12 waits for queue 11
    launch(&s, &mut [50, 50], &LaunchOpts { async_: 11, ..LaunchOpts::default() }).unwrap();
    api::wait_async(11, 12).unwrap();
    launch(&s, &mut [60, 0], &LaunchOpts { async_: 12, ..LaunchOpts::default() }).unwrap();
    api::wait(12).unwrap();
    assert_eq!(*LOG.lock().unwrap(), vec![10, 20, 30, 40, 50, 60]);
    api::wait_all().unwrap();
    assert_eq!(launch(&s, &mut [0, 0], &LaunchOpts { async_: -9, ..LaunchOpts::default() }).unwrap_err().code, acc_error_invalid_async);
}

/// args[0]: *[i64; 4]: on_device(host, multicore, not_host), thread ok.
unsafe extern "C" fn probe(args: *const u64, _gang: i64, _n: i64) {
    let out = *args as *mut i64;
    *out = accjit_runtime::capi::acc_on_device(acc_device_host) as i64;
    *out.add(1) = accjit_runtime::capi::acc_on_device(acc_device_multicore) as i64;
    *out.add(2) = accjit_runtime::capi::acc_on_device(acc_device_not_host) as i64;
}

#[test]
fn acc_on_device_inside_and_outside_kernels() {
    assert!(api::on_device(acc_device_host));
    assert!(!api::on_device(acc_device_multicore));
    assert!(!api::on_device(acc_device_not_host));
    let s = slot(probe, vec![PARAM_VALUE], Some(1));
    let mut out = [9i64; 3];
    launch(&s, &mut [out.as_mut_ptr() as u64], &LaunchOpts::default()).unwrap();
    assert_eq!(out, [1, 1, 0], "inside a multicore kernel: still the host CPU (as lower folds it)");
    launch(&s, &mut [out.as_mut_ptr() as u64], &LaunchOpts { local: true, ..LaunchOpts::default() }).unwrap();
    assert_eq!(out, [1, 0, 0], "if(false): the region runs on the local thread");
}

/// args[0]: DeviceAddr pointer to u32 data; writes 77 there.
unsafe extern "C" fn write77(args: *const u64, _g: i64, _n: i64) {
    *(*args as *mut u32) = 77;
}

#[test]
fn device_addr_arguments_are_translated_when_remapped() {
    let mut host = [0u32; 4];
    let h = host.as_mut_ptr() as usize;
    let d = api::malloc(16).unwrap();
    unsafe { std::ptr::write_bytes(d as *mut u8, 0, 16) };
    api::map_data(h, d, 16).unwrap();
    let s = slot(write77, vec![PARAM_DEVICE_ADDR], Some(1));
    launch(&s, &mut [(h + 4) as u64], &LaunchOpts::default()).unwrap();
    assert_eq!(unsafe { *((d + 4) as *const u32) }, 77, "the kernel wrote the device copy");
    assert_eq!(host[1], 0);
    api::update(false, h, 16, acc_async_sync).unwrap();
    assert_eq!(host[1], 77);
    api::unmap_data(h).unwrap();
    api::free(d).unwrap();
    // a Value parameter is never translated
    let v = slot(write77, vec![PARAM_VALUE], Some(1));
    launch(&v, &mut [(h + 8) as u64], &LaunchOpts::default()).unwrap();
    assert_eq!(host[2], 77);
}

#[test]
fn kernel_without_code_is_an_error() {
    let s = KernelSlot::new("empty".into(), vec![], None);
    let e = launch(&s, &mut [], &LaunchOpts { loc: Some("k.c:3"), ..LaunchOpts::default() }).unwrap_err();
    assert_eq!(e.loc.as_deref(), Some("k.c:3"));
}

unsafe extern "C" fn nothing(_a: *const u64, _g: i64, _n: i64) {}

#[test]
fn launch_overhead_through_the_abi() {
    let _g = QUEUE_TESTS.lock().unwrap();
    let s = slot(nothing, vec![], None);
    let call =
        || unsafe { accjit_runtime::abi::__accjit_launch(&*s, std::ptr::null_mut(), 0, 0, 0, 0, acc_async_sync, std::ptr::null(), -1, 0, std::ptr::null()) };
    for _ in 0..200 {
        call();
    }
    let iters = 2000;
    let t0 = Instant::now();
    for _ in 0..iters {
        call();
    }
    let per = t0.elapsed() / iters;
    println!("__accjit_launch of an empty kernel on {} threads: {per:?}", accjit_runtime::num_threads());
    assert!(per < Duration::from_millis(2));
}

/// The child half of `fatal_errors_print_one_line_and_exit_1`.
#[test]
fn fatal_child() {
    if std::env::var("ACCJIT_FATAL_CHILD").is_err() {
        return;
    }
    let a = [0u8; 400];
    unsafe {
        accjit_runtime::abi::__accjit_data_enter(5, a.as_ptr() as *mut _, 400, 1, acc_async_sync, c"a[0:n]".as_ptr(), c"prog.c:12".as_ptr());
    }
    unreachable!("fatal must not return");
}

#[test]
fn fatal_errors_print_one_line_and_exit_1() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "fatal_child", "--nocapture", "--test-threads=1"])
        .env("ACCJIT_FATAL_CHILD", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err.lines().find(|l| l.starts_with("accjit: ")).unwrap_or_else(|| panic!("no accjit line in {err:?}"));
    assert!(line.starts_with("accjit: present: data is not present on the multicore device"), "{line}");
    assert!(line.ends_with("(variable 'a[0:n]' at prog.c:12)"), "{line}");
}

/// The child half of `assert_failure_prints_like_glibc_and_aborts`.
#[test]
fn assert_child() {
    if std::env::var("ACCJIT_ASSERT_CHILD").is_err() {
        return;
    }
    unsafe { accjit_runtime::hosted::__accjit_assert_fail(c"x == 1".as_ptr(), c"prog.c".as_ptr(), 7) }
}

#[test]
fn assert_failure_prints_like_glibc_and_aborts() {
    use std::os::unix::process::ExitStatusExt;
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "assert_child", "--nocapture", "--test-threads=1"])
        .env("ACCJIT_ASSERT_CHILD", "1")
        .output()
        .unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGABRT));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(": prog.c:7: Assertion `x == 1' failed."), "{err}");
}

#[test]
fn wait_directive_through_the_abi_emits_wait_events() {
    let _g = QUEUE_TESTS.lock().unwrap();
    LOG.lock().unwrap().clear();
    let s = slot(log_id, vec![PARAM_VALUE, PARAM_VALUE], Some(1));
    launch(&s, &mut [70, 30], &LaunchOpts { async_: 21, ..LaunchOpts::default() }).unwrap();
    let seen = std::sync::Arc::new(Mutex::new(Vec::new()));
    let s2 = seen.clone();
    accjit_runtime::set_recorder(Some(Box::new(move |e| {
        if e.loc == Some("w.c:4") {
            s2.lock().unwrap().push((e.name(), e.async_));
        }
    })));
    let queues = [21i64];
    unsafe { accjit_runtime::abi::__accjit_wait(-1, queues.as_ptr(), 1, acc_async_sync, c"w.c:4".as_ptr()) };
    accjit_runtime::set_recorder(None);
    assert_eq!(*LOG.lock().unwrap(), vec![70], "the host waited for queue 21");
    assert_eq!(*seen.lock().unwrap(), vec![("wait_start", 21), ("wait_end", 21)]);
}

/// args[0]: snapshot of 4 u64 (args[1] = 32 bytes), args[2]: *u64 out; args[3]: ms to sleep first.
unsafe extern "C" fn sum_snapshot(args: *const u64, gang: i64, _n: i64) {
    if gang != 0 {
        return;
    }
    std::thread::sleep(Duration::from_millis(*args.add(3)));
    let src = *args as *const u64;
    let s: u64 = (0..4).map(|k| *src.add(k)).sum();
    *(*args.add(2) as *mut u64) = s;
}

#[test]
fn async_launch_reads_firstprivate_data_as_it_was_when_enqueued() {
    let s = slot(sum_snapshot, vec![PARAM_SNAPSHOT, PARAM_VALUE, PARAM_DEVICE_ADDR, PARAM_VALUE], None);
    let data: Vec<u64> = vec![1, 2, 3, 4];
    let mut out = 0u64;
    // A busy queue first, so the launch waits in it while the host writes.
    let mut args = [data.as_ptr() as u64, 32, &mut out as *mut u64 as u64, 100];
    launch(&s, &mut args, &LaunchOpts { async_: 21, ..LaunchOpts::default() }).unwrap();
    let p = data.as_ptr() as *mut u64;
    unsafe { p.write_volatile(1000) };
    api::wait(21).unwrap();
    assert_eq!(out, 10, "the kernel must see the values at the launch");
    // Synchronous launches read the data in place.
    let mut args = [data.as_ptr() as u64, 32, &mut out as *mut u64 as u64, 0];
    launch(&s, &mut args, &LaunchOpts::default()).unwrap();
    assert_eq!(out, 1009);
}

//! Hosted calls (`hosted.rs`): a program that ends early — a runtime error,
//! `exit`, `abort`, a failed `assert`, on the calling thread, on a pool
//! worker running a gang, or on an async queue — hands its outcome to the
//! caller and never ends the process; afterwards the runtime still works.

use accjit_runtime::abi::{__accjit_data_enter, __accjit_data_exit, __accjit_update};
use accjit_runtime::hosted::{self, Outcome};
use accjit_runtime::{api, consts::*, launch, KernelSlot, LaunchOpts, PARAM_VALUE};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Duration;

static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `f` hosted on a thread of its own: `Ok(value)` when it returns,
/// `Err(outcome)` when the program ended early (the thread is then parked).
fn hosted_call<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, Outcome> {
    let (tx, rx) = mpsc::channel::<Result<T, Outcome>>();
    let tx2 = tx.clone();
    std::thread::spawn(move || {
        let deliver: hosted::Deliver = Box::new(move |o| {
            let _ = tx2.send(Err(o));
        });
        let v = hosted::run_hosted(deliver, f);
        let _ = tx.send(Ok(v));
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("the hosted call neither returned nor delivered an outcome")
}

#[test]
fn runtime_error_is_delivered_with_var_and_loc() {
    let _s = serial();
    let data = [0u8; 64];
    let addr = data.as_ptr() as usize;
    let r = hosted_call(move || unsafe {
        __accjit_update(0, addr as *mut _, 64, 0, acc_async_sync, c"a[0:n]".as_ptr(), c"prog.c:12".as_ptr());
    });
    match r {
        Err(Outcome::Error(e)) => {
            assert_eq!(e.code, acc_error_not_present);
            assert_eq!(e.var.as_deref(), Some("a[0:n]"));
            assert_eq!(e.loc.as_deref(), Some("prog.c:12"));
            assert_eq!(e.host_range, Some((addr, addr + 64)));
        }
        other => panic!("expected a not-present error, got {other:?}"),
    }
    // The process and the runtime go on.
    assert!(!api::is_present(addr, 64).unwrap());
}

#[test]
fn exit_and_abort_are_delivered() {
    let _s = serial();
    assert_eq!(hosted_call(|| hosted::__accjit_exit(3)).unwrap_err(), Outcome::Exit(3));
    assert_eq!(hosted_call(|| hosted::__accjit_exit_now(4)).unwrap_err(), Outcome::Exit(4));
    assert!(matches!(hosted_call(|| hosted::__accjit_abort()).unwrap_err(), Outcome::Abort(_)));
    let a = hosted_call(|| unsafe { hosted::__accjit_assert_fail(c"x == 1".as_ptr(), c"prog.c".as_ptr(), 7) }).unwrap_err();
    assert_eq!(a, Outcome::Abort("prog.c:7: Assertion `x == 1' failed.".into()));
    assert_eq!(hosted_call(|| 5).unwrap(), 5, "a call that returns normally is unaffected");
}

#[test]
fn structured_references_of_a_dead_call_are_released() {
    let _s = serial();
    let a = vec![1u32; 100];
    let b = vec![2u32; 100];
    let keep = vec![3u32; 10];
    let (pa, pb, pk) = (a.as_ptr() as usize, b.as_ptr() as usize, keep.as_ptr() as usize);
    let r = hosted_call(move || unsafe {
        // copyin(a) structured, copyin(keep) dynamic, then update of absent b
        __accjit_data_enter(1, pa as *mut _, 400, 1, acc_async_sync, c"a".as_ptr(), c"p.c:1".as_ptr());
        __accjit_data_enter(1, pk as *mut _, 40, 0, acc_async_sync, c"keep".as_ptr(), c"p.c:2".as_ptr());
        // a balanced region inside must not be released twice
        __accjit_data_enter(3, pa as *mut _, 400, 1, acc_async_sync, c"a".as_ptr(), c"p.c:3".as_ptr());
        __accjit_data_exit(3, pa as *mut _, 400, 1, acc_async_sync, c"a".as_ptr(), c"p.c:3".as_ptr());
        __accjit_update(0, pb as *mut _, 400, 0, acc_async_sync, c"b".as_ptr(), c"p.c:4".as_ptr());
    });
    assert!(matches!(r, Err(Outcome::Error(ref e)) if e.code == acc_error_not_present), "{r:?}");
    assert!(!api::is_present(pa, 400).unwrap(), "the dead call's data region ended");
    assert_eq!(api::ref_counts(pk, 40).unwrap(), Some((0, 1)), "dynamic references stay");
    api::delete(pk, 40, false, acc_async_sync).unwrap();
    drop((a, b, keep));
}

#[test]
fn the_process_wide_lock_is_released() {
    let _s = serial();
    let r = hosted_call(|| {
        accjit_runtime::support::__accjit_lock();
        hosted::__accjit_exit(9)
    });
    assert_eq!(r.unwrap_err(), Outcome::Exit(9));
    // Would spin forever if the dead call still held it.
    let t = std::thread::spawn(|| {
        accjit_runtime::support::__accjit_lock();
        accjit_runtime::support::__accjit_unlock();
    });
    let t0 = std::time::Instant::now();
    while !t.is_finished() {
        assert!(t0.elapsed() < Duration::from_secs(10), "__accjit_lock is still held");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// args[0]: the gang that exits with code 40 + gang; every other gang just counts in args[1].
unsafe extern "C" fn gang_exits(args: *const u64, gang: i64, _n: i64) {
    if gang as u64 == *args {
        hosted::__accjit_exit(40 + gang as i32);
    }
    let c = *args.add(1) as *const std::sync::atomic::AtomicU64;
    (*c).fetch_add(1, std::sync::atomic::Ordering::SeqCst);
}

fn launch_exiting(gang: u64, num_gangs: i64, async_: i64) -> Result<(), Outcome> {
    hosted_call(move || {
        let slot = KernelSlot::new("k".into(), vec![PARAM_VALUE, PARAM_VALUE], None);
        slot.set_host_fn(gang_exits as *const () as usize);
        let count = Box::leak(Box::new(std::sync::atomic::AtomicU64::new(0)));
        let mut args = [gang, count as *const _ as u64];
        launch(&slot, &mut args, &LaunchOpts { num_gangs, async_, ..LaunchOpts::default() }).unwrap();
        if async_ != acc_async_sync {
            if let Err(e) = api::wait(async_) {
                accjit_runtime::fatal(&e);
            }
        }
        std::mem::forget(slot);
    })
}

#[test]
fn a_gang_that_ends_the_program_fails_the_launch_not_the_process() {
    let _s = serial();
    accjit_runtime::set_device_type("multicore").unwrap();
    accjit_runtime::set_num_threads(3);
    // On a pool worker: the launcher gets the outcome.
    assert_eq!(launch_exiting(1, 3, acc_async_sync).unwrap_err(), Outcome::Exit(41));
    // The pool was replaced: launches work again, on every gang.
    assert!(launch_exiting(99, 3, acc_async_sync).is_ok());
    // On the launching thread (gang 0).
    assert_eq!(launch_exiting(0, 3, acc_async_sync).unwrap_err(), Outcome::Exit(40));
    assert!(launch_exiting(99, 64, acc_async_sync).is_ok());
    // On an async queue: the next wait reports it; the queue keeps serving.
    match launch_exiting(2, 3, 5).unwrap_err() {
        Outcome::Error(e) => {
            assert_eq!(e.code, acc_error_execution);
            assert!(e.message.contains("exit(42)"), "{}", e.message);
        }
        o => panic!("{o:?}"),
    }
    assert!(launch_exiting(99, 3, 5).is_ok());
}

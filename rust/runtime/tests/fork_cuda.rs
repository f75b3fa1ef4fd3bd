//! The nvidia device across `fork()` (`cuda/driver.rs`'s fork guard, over
//! the fake libcuda of `tests/fake_cuda/libcuda.c`): a child of a process
//! that initialised the driver gets a clear `acc_error_device_unavailable`
//! from every use of the GPU — never a hang, a crash or a call into the
//! inherited driver — while host and multicore keep working there (the
//! multicore pool started over); a child of a process that never went into
//! the driver uses the GPU normally; a fork while the CUDA prewarm threads
//! are starting the driver neither hangs the child nor delays its exit; a
//! child whose `cuInit` fails (its parent initialised CUDA through another
//! library) is told why.
//! Each case runs in a fresh process (the test binary again, with the fake
//! libcuda on `LD_LIBRARY_PATH`), which forks. Skipped when no C compiler runs.

use accjit_runtime::api;
use accjit_runtime::consts::*;
use accjit_runtime::{cuda, pool};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

mod fake_cuda;

const CHILD_ENV: &str = "ACCJIT_FORK_CUDA_CHILD";
const SYNC: i64 = acc_async_sync;

/// Builds the fake libcuda in a directory of its own for `case` (the tests run in parallel).
fn build_fake(case: &str) -> Option<PathBuf> {
    fake_cuda::build(&format!("fork_{case}"), &[])
}

/// Runs the ignored test `child` in a fresh process over the fake driver.
fn run_over_fake_driver(child: &str) {
    let Some(dir) = build_fake(child) else {
        eprintln!("skipped: no C compiler to build the fake libcuda");
        return;
    };
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", child, "--nocapture", "--test-threads=1"])
        .env("LD_LIBRARY_PATH", &dir)
        .env("ACCJIT_CACHE_DIR", dir.join("cache"))
        .env(CHILD_ENV, "1")
        .env_remove("ACC_DEVICE_TYPE")
        .output()
        .expect("cannot rerun the test binary");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{child} failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("1 passed"), "{stdout}");
}

/// Runs `body` in a child of `fork()`: `Ok` when it returned `Ok`, else
/// what went wrong there (its error, a panic, a signal, or no exit within
/// 30 s: a hang).
fn in_forked_child(body: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    let mut pipe = [0; 2];
    assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
    // SAFETY: the child runs `body`, writes its verdict and `_exit`s.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        let verdict = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or_else(|_| Err("panicked".into()));
        let msg = match &verdict {
            Ok(()) => String::new(),
            Err(e) => e.clone(),
        };
        unsafe {
            libc::write(pipe[1], msg.as_ptr().cast(), msg.len());
            libc::_exit(i32::from(verdict.is_err()))
        }
    }
    unsafe { libc::close(pipe[1]) };
    let t0 = Instant::now();
    let mut status = 0;
    loop {
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            break;
        }
        if t0.elapsed() > Duration::from_secs(30) {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            unsafe { libc::waitpid(pid, &mut status, 0) };
            return Err("the forked child hung".into());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut buf = vec![0u8; 4096];
    let n = unsafe { libc::read(pipe[0], buf.as_mut_ptr().cast(), buf.len()) };
    unsafe { libc::close(pipe[0]) };
    let msg = String::from_utf8_lossy(&buf[..n.max(0) as usize]).into_owned();
    if !libc::WIFEXITED(status) {
        return Err(format!("the forked child died ({status:#x})"));
    }
    match libc::WEXITSTATUS(status) {
        0 => Ok(()),
        _ => Err(msg),
    }
}

/// A multicore launch of 64 gangs runs each gang once, over several threads
/// of the pool when it has them.
fn multicore_works() -> Result<(), String> {
    let pool = pool::global();
    let hits: Vec<AtomicU64> = (0..64).map(|_| AtomicU64::new(0)).collect();
    if let Some(o) = pool.run(64, acc_device_multicore, &|g| {
        hits[g as usize].fetch_add(1, Relaxed);
    }) {
        return Err(format!("a multicore launch failed: {o:?}"));
    }
    if hits.iter().any(|h| h.load(Relaxed) != 1) {
        return Err("a gang ran twice or never".into());
    }
    Ok(())
}

fn expect_forked_error<T: std::fmt::Debug>(what: &str, r: accjit_runtime::AccResult<T>) -> Result<(), String> {
    match r {
        Err(e) if e.code == acc_error_device_unavailable && e.message.contains("fork") => Ok(()),
        other => Err(format!("{what}: expected the fork error, got {other:?}")),
    }
}

#[test]
fn a_child_of_a_process_that_used_cuda_gets_an_error_and_keeps_the_cpu() {
    run_over_fake_driver("fork_after_cuda_child");
}

#[test]
#[ignore = "child of a_child_of_a_process_that_used_cuda_gets_an_error_and_keeps_the_cpu"]
fn fork_after_cuda_child() {
    assert!(std::env::var_os(CHILD_ENV).is_some());
    assert!(cuda::available(), "the fake libcuda was not loaded");
    api::set_device_type(acc_device_nvidia).unwrap();
    let data: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let h = data.as_ptr() as usize;
    api::copyin(h, 4 * data.len(), SYNC).unwrap();
    multicore_works().unwrap();
    let r = in_forked_child(|| {
        if cuda::available() || !cuda::inherited() {
            return Err("the child thinks it may use the inherited driver".into());
        }
        expect_forked_error("gpu(0)", cuda::gpu(0).map(|_| ()))?;
        // Device memory the parent set up: its context is not this process's.
        expect_forked_error("update", api::update(true, h, 4 * data.len(), SYNC))?;
        let other: Vec<f32> = vec![1.0; 64];
        expect_forked_error("copyin", api::copyin(other.as_ptr() as usize, 256, SYNC))?;
        let t0 = Instant::now();
        cuda::settle_before_exit(Duration::from_secs(5));
        if t0.elapsed() > Duration::from_secs(1) {
            return Err("settle_before_exit waited for the parent's threads".into());
        }
        api::set_device_type(acc_device_multicore).map_err(|e| e.message)?;
        multicore_works()?;
        let mut v = vec![0u32; 8];
        api::copyin(v.as_mut_ptr() as usize, 32, SYNC).map_err(|e| e.message)?;
        api::copyout(v.as_mut_ptr() as usize, 32, false, SYNC).map_err(|e| e.message)
    });
    r.unwrap();
    // The parent is unaffected.
    api::update(false, h, 4 * data.len(), SYNC).unwrap();
    api::copyout(h, 4 * data.len(), false, SYNC).unwrap();
    assert!(cuda::gpu(0).is_ok());
    multicore_works().unwrap();
}

#[test]
fn a_child_of_a_process_that_never_used_cuda_uses_it() {
    run_over_fake_driver("fork_before_cuda_child");
}

#[test]
#[ignore = "child of a_child_of_a_process_that_never_used_cuda_uses_it"]
fn fork_before_cuda_child() {
    assert!(std::env::var_os(CHILD_ENV).is_some());
    multicore_works().unwrap();
    let r = in_forked_child(|| {
        if !cuda::available() {
            return Err("no driver in the child".into());
        }
        cuda::gpu(0).map_err(|e| e.message)?;
        api::set_device_type(acc_device_nvidia).map_err(|e| e.message)?;
        let mut v: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
        let h = v.as_mut_ptr() as usize;
        api::copyin(h, 256, SYNC).map_err(|e| e.message)?;
        v.iter_mut().for_each(|x| *x = -1.0);
        api::copyout(h, 256, false, SYNC).map_err(|e| e.message)?;
        if v.iter().enumerate().any(|(i, x)| *x != i as f32 * 0.5) {
            return Err("the device copy did not come back".into());
        }
        Ok(())
    });
    r.unwrap();
}

#[test]
fn a_fork_during_the_cuda_prewarm_neither_hangs_nor_delays_the_child() {
    run_over_fake_driver("fork_during_prewarm_child");
}

#[test]
#[ignore = "child of a_fork_during_the_cuda_prewarm_neither_hangs_nor_delays_the_child"]
fn fork_during_prewarm_child() {
    assert!(std::env::var_os(CHILD_ENV).is_some());
    cuda::prewarm();
    // At once: the prewarm threads may be anywhere in the driver's start-up.
    let r = in_forked_child(|| {
        let t0 = Instant::now();
        expect_forked_error("gpu(0)", cuda::gpu(0).map(|_| ()))?;
        if cuda::device_count() != 0 {
            return Err("the child counts devices it cannot use".into());
        }
        cuda::settle_before_exit(Duration::from_secs(5));
        multicore_works()?;
        match t0.elapsed() {
            t if t > Duration::from_secs(1) => Err(format!("the child waited {t:?}")),
            _ => Ok(()),
        }
    });
    r.unwrap();
    assert!(cuda::gpu(0).is_ok(), "the parent's prewarm opened the device");
}

#[test]
fn a_child_whose_cuinit_fails_is_told_about_fork() {
    run_over_fake_driver("cuinit_fails_in_child");
}

#[test]
#[ignore = "child of a_child_whose_cuinit_fails_is_told_about_fork"]
fn cuinit_fails_in_child() {
    assert!(std::env::var_os(CHILD_ENV).is_some());
    multicore_works().unwrap();
    let r = in_forked_child(|| {
        // What a real driver does here when the parent initialised it
        // through another library (PyTorch, CuPy): accjit never did.
        std::env::set_var("FAKE_CUDA_INIT_FAILS", "1");
        if cuda::available() || cuda::inherited() {
            return Err("cuInit did not fail, or the driver counts as accjit's".into());
        }
        match api::set_device_type(acc_device_nvidia) {
            Err(e) if e.code == acc_error_device_unavailable && e.message.contains("fork") && e.message.contains("cuInit failed") => {}
            other => return Err(format!("expected the cuInit-in-a-child error, got {other:?}")),
        }
        multicore_works()
    });
    r.unwrap();
}

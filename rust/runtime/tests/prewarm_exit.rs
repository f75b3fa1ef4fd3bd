//! A process that ends while `cuda::prewarm` is still opening the device
//! waits for it at exit (an `atexit` handler), so that the driver is not
//! torn down under the prewarm thread. Over the fake libcuda with a slow
//! context opening (`FAKE_CUDA_OPEN_DELAY_MS`): the child calls `prewarm`
//! and returns at once; the prewarm thread's last trace line
//! (`ACCJIT_CUDA_TRACE`) must still appear. Skipped when no C compiler runs.

use std::path::{Path, PathBuf};
use std::process::Command;

const CHILD_ENV: &str = "ACCJIT_PREWARM_EXIT_CHILD";

fn build_fake() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fake_prewarm_exit_{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_cuda/libcuda.c");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let ok = Command::new(cc).args(["-shared", "-fPIC", "-O1", "-o"]).arg(dir.join("libcuda.so")).arg(&src).args(["-lpthread", "-lm"]).status().ok()?.success();
    ok.then_some(dir)
}

#[test]
fn exit_waits_for_the_prewarm() {
    let Some(dir) = build_fake() else {
        eprintln!("skipped: no C compiler to build the fake libcuda");
        return;
    };
    let t0 = std::time::Instant::now();
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "prewarm_exit_child", "--nocapture", "--test-threads=1"])
        .env("LD_LIBRARY_PATH", &dir)
        .env("ACCJIT_CACHE_DIR", dir.join("cache"))
        .env("ACCJIT_CUDA_TRACE", "1")
        .env("FAKE_CUDA_OPEN_DELAY_MS", "400")
        .env(CHILD_ENV, "1")
        .output()
        .expect("cannot rerun the test binary");
    let took = t0.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{}\n{stderr}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr.contains("prewarm done"), "the process ended before the prewarm left the driver ({took:?}):\n{stderr}");
}

#[test]
#[ignore = "child of exit_waits_for_the_prewarm"]
fn prewarm_exit_child() {
    assert!(std::env::var_os(CHILD_ENV).is_some(), "run through exit_waits_for_the_prewarm");
    assert!(accjit_runtime::cuda::available(), "the fake libcuda was not loaded");
    accjit_runtime::cuda::prewarm();
}

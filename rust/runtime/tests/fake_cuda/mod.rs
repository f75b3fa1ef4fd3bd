//! Builds the fake libcuda (`libcuda.c` beside this file) for the tests
//! that run the runtime over it (`mod fake_cuda;` in each).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Compiles the fake libcuda, with the extra C `flags`, into a directory of
/// its own named after `tag` and this process (tests run in parallel and
/// each removes its own); `None` when no C compiler runs. The fake failing
/// to compile fails the test.
pub fn build(tag: &str, flags: &[&str]) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fake_{tag}_{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_cuda/libcuda.c");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out =
        Command::new(cc).args(flags).args(["-shared", "-fPIC", "-O1", "-o"]).arg(dir.join("libcuda.so")).arg(&src).args(["-lpthread", "-lm"]).output().ok()?;
    assert!(out.status.success(), "the fake libcuda does not compile:\n{}", String::from_utf8_lossy(&out.stderr));
    Some(dir)
}

//! The in-process cache of compiled programs.
//!
//! An LRU (capacity [`CAPACITY`]) behind a mutex, keyed by a 128-bit content
//! hash of everything that determines the result and is known *before*
//! compiling: the engine version, the display name (it appears in diagnostics
//! and anchors `#include "..."` lookups), the source text, the device type and
//! the options (defines and undefines in order, include directories, whether
//! CLIF is kept).
//!
//! Headers are covered after the fact, as ccache's "direct mode" does: each
//! entry records every file the preprocessor read from disk (every file of
//! the program's source map but the main text, which is in the key, and the
//! bundled `<bundled>/...` headers) by absolute path, with a hash of the text
//! the compiler saw. A lookup re-reads those files (decoded as the
//! preprocessor decodes them) and treats any change, or a file that cannot be
//! read, as a miss. Headers that accjit bundles
//! (`<stdio.h>`, `<openacc.h>`) are part of the engine and covered by the
//! version. Known gap: a *new* file that would now shadow a recorded one
//! earlier on the include path is not noticed.
//!
//! Evicting an entry drops the cache's reference only; the program (and its
//! native code) is freed when its last user lets go of it.
//!
//! The disk cache is the runtime's (`accjit_runtime::cuda::DiskCache`):
//! the cubins the CUDA driver compiled from the PTX of nvidia kernels, and
//! this driver's compiled programs (`disk.rs`, consulted by `build_parsed`
//! after an in-process miss). [`disk_cache_info`] and
//! [`disk_cache_clear`] inspect and empty it for `accjit cache`.

use crate::hash::{hash128, Hasher128};
use crate::program::Program;
use crate::python::PyKernel;
use crate::Options;
use lru::LruCache;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

pub const CAPACITY: usize = 64;

/// The version folded into every key.
pub const ENGINE_VERSION: &str = concat!("accjit ", env!("CARGO_PKG_VERSION"), " cache-format 1");

struct Dep {
    path: PathBuf,
    hash: u128,
}

struct Entry {
    program: Arc<Program>,
    deps: Vec<Dep>,
}

/// Counters since process start (or the last [`clear`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: u64,
    /// Lookups that found nothing (each is followed by a compilation).
    pub misses: u64,
    /// Entries found but out of date because a header changed.
    pub stale: u64,
    /// Compilations started (successful or not).
    pub compilations: u64,
    pub entries: u64,
}

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);
static STALE: AtomicU64 = AtomicU64::new(0);
pub(crate) static COMPILATIONS: AtomicU64 = AtomicU64::new(0);

fn lru() -> MutexGuard<'static, LruCache<u128, Entry>> {
    static CACHE: OnceLock<Mutex<LruCache<u128, Entry>>> = OnceLock::new();
    let m = CACHE.get_or_init(|| Mutex::new(LruCache::new(NonZeroUsize::new(CAPACITY).expect("nonzero"))));
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One compilation at a time (like Numba's compile lock): a second thread
/// asking for the same source waits and then finds it in the cache.
pub(crate) fn compile_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The cache key of one compile request.
pub fn key(name: &str, text: &str, opts: &Options, device_type: &str) -> u128 {
    let mut h = Hasher128::new();
    h.str(ENGINE_VERSION).str(name).str(text).str(device_type);
    hash_options(&mut h, opts);
    h.finish()
}

/// The key of a Python kernel: its request text (which holds the function's
/// file and source, every routine it calls and the constants it froze), the
/// argument types of the call, the device type and the options.
pub fn key_python(request: &str, args: &[accjit_front_python::ArgType], opts: &Options, device_type: &str) -> u128 {
    let mut h = Hasher128::new();
    h.str(ENGINE_VERSION).str("python").str(request).str(device_type);
    h.str(&format!("{args:?}"));
    hash_options(&mut h, opts);
    h.finish()
}

/// The key of a Fortran program: every file's name and text, in order.
pub fn key_fortran(files: &[(String, String)], opts: &Options, device_type: &str) -> u128 {
    let mut h = Hasher128::new();
    h.str(ENGINE_VERSION).str("fortran").str(device_type).u64(files.len() as u64);
    for (name, text) in files {
        h.str(name).str(text);
    }
    hash_options(&mut h, opts);
    h.finish()
}

fn hash_options(h: &mut Hasher128, opts: &Options) {
    h.u64(opts.defines.len() as u64);
    for (n, v) in &opts.defines {
        h.str(n);
        match v {
            Some(v) => h.u64(1).str(v),
            None => h.u64(0),
        };
    }
    h.u64(opts.undefines.len() as u64);
    for u in &opts.undefines {
        h.str(u);
    }
    h.u64(opts.include_dirs.len() as u64);
    for d in &opts.include_dirs {
        h.str(&d.to_string_lossy());
    }
    h.u64(opts.keep_clif as u64);
    let b = &opts.back_end;
    let t = &b.tuning;
    let nontemporal = match t.nontemporal_bytes {
        accjit_back_clif::NonTemporal::Off => u64::MAX,
        accjit_back_clif::NonTemporal::Bytes(n) => n as u64,
        // Not resolved here: the cache size is measured only to generate code.
        accjit_back_clif::NonTemporal::CacheSized => u64::MAX - 1,
    };
    h.u64(t.simd as u64).u64(t.avx512 as u64).u64(nontemporal);
    h.u64(b.clif_verify as u64).u64(b.disasm as u64);
}

pub(crate) fn lookup(key: u128) -> Option<Arc<Program>> {
    let mut c = lru();
    let fresh = match c.get(&key) {
        None => {
            MISSES.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Some(e) => deps_fresh(&e.deps),
    };
    if fresh {
        HITS.fetch_add(1, Ordering::Relaxed);
        c.get(&key).map(|e| e.program.clone())
    } else {
        STALE.fetch_add(1, Ordering::Relaxed);
        MISSES.fetch_add(1, Ordering::Relaxed);
        c.pop(&key);
        None
    }
}

/// Lookup without touching the counters (re-check under the compile lock).
pub(crate) fn peek(key: u128) -> Option<Arc<Program>> {
    let mut c = lru();
    let e = c.get(&key)?;
    if deps_fresh(&e.deps) {
        Some(e.program.clone())
    } else {
        None
    }
}

/// The hash a dependency is recorded with: of the text as the preprocessor
/// decodes a file (lossy UTF-8).
fn text_hash(bytes: &[u8]) -> u128 {
    hash128(String::from_utf8_lossy(bytes).as_bytes())
}

fn deps_fresh(deps: &[Dep]) -> bool {
    deps.iter().all(|d| std::fs::read(&d.path).map(|b| text_hash(&b) == d.hash).unwrap_or(false))
}

/// Every file the preprocessor read from disk for `program`: those of its
/// source map but the `given` ones (their text is in the key) and the
/// bundled headers.
fn deps_of(program: &Program, given: &[&str]) -> Vec<Dep> {
    let files = &program.source_map().files;
    files
        .iter()
        .filter(|f| !given.contains(&f.name.as_str()))
        .filter(|f| !f.name.starts_with("<bundled>/"))
        .map(|f| {
            let path = PathBuf::from(&f.name);
            let path = std::fs::canonicalize(&path).unwrap_or(path);
            Dep { path, hash: hash128(f.text.as_bytes()) }
        })
        .collect()
}

pub(crate) fn insert(key: u128, program: Arc<Program>) {
    // the main text is the source map's first file
    let main = program.source_map().files.first().map(|f| f.name.clone()).unwrap_or_default();
    insert_with_sources(key, program, &[main.as_str()]);
}

/// Inserts a program that read no file but its main text.
pub(crate) fn insert_without_deps(key: u128, program: Arc<Program>) {
    lru().put(key, Entry { program, deps: Vec::new() });
}

/// Inserts a program compiled from the texts of the files named `given`
/// (all in its key).
pub(crate) fn insert_with_sources(key: u128, program: Arc<Program>, given: &[&str]) {
    let deps = deps_of(&program, given);
    lru().put(key, Entry { program, deps });
}

/// Python kernels: a second LRU of the same capacity (they have no files to
/// revalidate: the request text holds every source they were built from),
/// counted in the same statistics.
fn py_lru() -> MutexGuard<'static, LruCache<u128, Arc<PyKernel>>> {
    static CACHE: OnceLock<Mutex<LruCache<u128, Arc<PyKernel>>>> = OnceLock::new();
    let m = CACHE.get_or_init(|| Mutex::new(LruCache::new(NonZeroUsize::new(CAPACITY).expect("nonzero"))));
    m.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn lookup_python(key: u128) -> Option<Arc<PyKernel>> {
    let found = py_lru().get(&key).cloned();
    let counter = if found.is_some() { &HITS } else { &MISSES };
    counter.fetch_add(1, Ordering::Relaxed);
    found
}

pub(crate) fn peek_python(key: u128) -> Option<Arc<PyKernel>> {
    py_lru().get(&key).cloned()
}

pub(crate) fn insert_python(key: u128, kernel: Arc<PyKernel>) {
    py_lru().put(key, kernel);
}

pub fn stats() -> CacheStats {
    CacheStats {
        hits: HITS.load(Ordering::Relaxed),
        misses: MISSES.load(Ordering::Relaxed),
        stale: STALE.load(Ordering::Relaxed),
        compilations: COMPILATIONS.load(Ordering::Relaxed),
        entries: (lru().len() + py_lru().len()) as u64,
    }
}

/// Empties the cache and resets the counters.
pub fn clear() {
    lru().clear();
    py_lru().clear();
    for c in [&HITS, &MISSES, &STALE, &COMPILATIONS] {
        c.store(0, Ordering::Relaxed);
    }
}

/// The on-disk kernel cache as the environment configures it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiskCacheInfo {
    /// `ACCJIT_CACHE_DIR`, else `$XDG_CACHE_HOME/accjit`, else `~/.cache/accjit`.
    pub dir: PathBuf,
    /// Whether the directory exists (it is created by the first store).
    pub exists: bool,
    pub entries: u64,
    pub bytes: u64,
    /// The size limit (`ACCJIT_CACHE_MAX_MB`) in bytes.
    pub max_bytes: u64,
}

/// The disk cache's directory, entries, size and limit.
pub fn disk_cache_info() -> DiskCacheInfo {
    let cache = accjit_runtime::cuda::DiskCache::from_env();
    let usage = cache.usage();
    DiskCacheInfo { dir: cache.dir().to_path_buf(), exists: cache.dir().is_dir(), entries: usage.entries, bytes: usage.bytes, max_bytes: cache.max_bytes() }
}

/// Removes the disk cache's entries (only accjit's own files); returns
/// the entries and bytes removed.
pub fn disk_cache_clear() -> accjit_runtime::cuda::CacheUsage {
    accjit_runtime::cuda::DiskCache::from_env().clear()
}

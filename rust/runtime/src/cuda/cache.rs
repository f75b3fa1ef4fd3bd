//! The on-disk kernel cache: bytes (the cubin the driver's JIT produced)
//! stored under a key (a hash of the PTX text, the device's compute
//! capability and the driver version), so that a new process skips the
//! PTX→SASS compilation of kernels it has run before.
//!
//! Directory: `ACCJIT_CACHE_DIR`, else `$XDG_CACHE_HOME/accjit`, else
//! `~/.cache/accjit`. One file per key, `cuda-<32 hex digits>.bin`, made of
//! a header (magic, format version, the key, payload length, payload
//! checksum) and the payload. Files are written to a temporary file in the
//! same directory and renamed into place, so a reader sees a whole file or
//! none; a file whose header, length or checksum does not match (truncated,
//! corrupt, another format) is a miss and is overwritten by the next store.
//! A directory that cannot be written turns the store off for the rest of
//! the process with one warning on stderr (loads still read what is there);
//! the in-process module map keeps working either way.
//!
//! Size: the cache files together stay under `ACCJIT_CACHE_MAX_MB` MiB
//! (default [`DEFAULT_MAX_MB`]; 0 stores nothing). A hit sets the file's
//! modification time to now, so modification times order the files by
//! last use; a store that takes the directory over the limit removes the
//! least recently used files (never the one just stored) until it fits.
//! Finding that out reads every entry's size (~3 ms for 1300 entries), so
//! a store looks only every [`SCAN_FRACTION`]th of the limit stored: each
//! process counts the bytes it stored since its last look and looks when
//! they reach that, and a store also looks with probability (its bytes) /
//! (that amount), so that many short processes storing a little each
//! still look about as often. The directory may thus run over the limit
//! by about 1/[`SCAN_FRACTION`] of it between looks.
//! Other processes may share the directory: a file they removed first, or
//! one that vanishes mid-scan, is simply skipped.
//!
//! Inspection and cleanup (`accjit cache info`, `accjit cache clear`):
//! [`DiskCache::usage`] counts the cache files, [`DiskCache::clear`] removes
//! them. Both touch only accjit's own files — an entry's name
//! (`cuda-<32 hex digits>.bin`) *and* its header's magic, or a writer's
//! temporary file (`.cuda-<32 hex>.<pid>.<n>.tmp`) old enough that no writer
//! can still be renaming it — so a cache directory shared with anything
//! else, or pointed at the wrong place, loses nothing but accjit's entries.
//!
//! The same directory, format and rules hold the driver's compiled
//! programs (`prog-<32 hex digits>.bin`, [`DiskCache::programs`]: the
//! Cranelift image and the PTX of a whole program, so that a new process
//! compiling the same source loads them instead of generating them); the
//! size limit, `usage` and `clear` count both kinds together.
//!
//! `ACCJIT_CACHE=0` (or `off`/`no`/`false`) turns the disk off for both
//! kinds: nothing is read or written ([`DiskCache::from_env`]).
//!
//! Nothing here needs a GPU: the unit tests run everywhere.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

const MAGIC: &[u8; 8] = b"ACCJITCB";
const FORMAT: u32 = 1;
/// magic, format, reserved, key, payload length, checksum.
const HEADER: usize = 8 + 4 + 4 + 16 + 8 + 8;

/// A store looks at the whole directory about once per this fraction of the
/// size limit stored (module doc).
pub const SCAN_FRACTION: u64 = 64;

/// The size limit when `ACCJIT_CACHE_MAX_MB` is unset, in MiB.
pub const DEFAULT_MAX_MB: u64 = 1024;

/// A temporary file younger than this may belong to a store in progress
/// (in this or another process): [`DiskCache::clear`] leaves it.
const TEMP_FILE_GRACE: std::time::Duration = std::time::Duration::from_secs(60);

/// What a cache directory holds: accjit's cache entries and their size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheUsage {
    pub entries: u64,
    pub bytes: u64,
}

/// The kinds of entries, by file name prefix: cubins, whole programs.
const KINDS: [&str; 2] = ["cuda", "prog"];

/// The name without one of the [`KINDS`] prefixes (and its `-`).
fn strip_kind(name: &str) -> Option<&str> {
    KINDS.iter().find_map(|k| name.strip_prefix(k).and_then(|r| r.strip_prefix('-')))
}

/// `cuda-<32 hex digits>.bin` (or `prog-`): the name of a cache entry.
fn is_entry_name(name: &str) -> bool {
    strip_kind(name).and_then(|r| r.strip_suffix(".bin")).is_some_and(|hex| hex.len() == 32 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `.cuda-<32 hex digits>.<pid>.<serial>.tmp` (or `.prog-`): a writer's temporary file.
fn is_temp_name(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.').and_then(strip_kind).and_then(|r| r.strip_suffix(".tmp")) else { return false };
    let mut parts = rest.split('.');
    let hex = parts.next().unwrap_or_default();
    hex.len() == 32
        && hex.bytes().all(|b| b.is_ascii_hexdigit())
        && parts.clone().count() == 2
        && parts.all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The file starts with the cache's magic (a cache entry of any format).
fn has_magic(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && &head == MAGIC
}

/// Set once the "cannot write" warning has been printed (one per process).
static WARNED: AtomicBool = AtomicBool::new(false);

/// A cache key: a 64-bit hash of everything the cached bytes depend on
/// (one pass over the PTX: it is on the path of every load), widened with a
/// second hash of that and the sizes so that file names and headers carry
/// 128 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CacheKey(pub [u8; 16]);

impl CacheKey {
    /// The key of a cubin compiled from `ptx` for a device of compute
    /// capability `cc` by driver `driver` (`cuDriverGetVersion`).
    pub fn for_cubin(ptx: &str, cc: (u32, u32), driver: i32) -> CacheKey {
        let mut h = DefaultHasher::new();
        0x6163_636a_6974_0001u64.hash(&mut h);
        ptx.hash(&mut h);
        cc.hash(&mut h);
        driver.hash(&mut h);
        let first = h.finish();
        let mut h = DefaultHasher::new();
        (0x6163_636a_6974_0002u64, first, ptx.len(), cc, driver).hash(&mut h);
        let mut k = [0u8; 16];
        k[..8].copy_from_slice(&first.to_le_bytes());
        k[8..].copy_from_slice(&h.finish().to_le_bytes());
        CacheKey(k)
    }

    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// A 64-bit hash of a byte string (the in-process module map's key and the
/// payload checksum).
pub fn hash64(bytes: &[u8]) -> u64 {
    let mut h = DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// The kernel cache in one directory.
#[derive(Debug)]
pub struct DiskCache {
    dir: PathBuf,
    /// Stores failed once: do not try again.
    read_only: AtomicBool,
    /// The most bytes the cache files may take together.
    max_bytes: u64,
    /// The file name prefix of this cache's entries (one of [`KINDS`]).
    kind: &'static str,
    /// `ACCJIT_CACHE=0`: nothing is loaded or stored.
    off: bool,
    /// Bytes this process stored since it last looked at the directory's size.
    unscanned: AtomicU64,
}

impl DiskCache {
    /// The cache in `dir`, limited to [`DEFAULT_MAX_MB`] MiB.
    pub fn new(dir: impl Into<PathBuf>) -> DiskCache {
        DiskCache::with_limit(dir, DEFAULT_MAX_MB << 20)
    }

    /// The cache in `dir`, its files limited to `max_bytes` together.
    pub fn with_limit(dir: impl Into<PathBuf>, max_bytes: u64) -> DiskCache {
        DiskCache { dir: dir.into(), read_only: AtomicBool::new(false), max_bytes, kind: KINDS[0], off: false, unscanned: AtomicU64::new(0) }
    }

    /// The same directory and limit for the driver's compiled programs
    /// (`prog-<hex>.bin`).
    pub fn programs(self) -> DiskCache {
        DiskCache { kind: KINDS[1], ..self }
    }

    /// False when `ACCJIT_CACHE=0` turned the disk cache off.
    pub fn is_enabled(&self) -> bool {
        !self.off
    }

    /// The cache in the directory the environment names, with its size
    /// limit (see the module doc; a limit that is no number warns once and
    /// the default applies).
    pub fn from_env() -> DiskCache {
        DiskCache { off: off_by_env(), ..DiskCache::with_limit(default_dir(), max_bytes_from_env()) }
    }

    /// The size limit in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// True after a store failed (the directory cannot be written).
    pub fn is_read_only(&self) -> bool {
        self.read_only.load(Relaxed)
    }

    fn path(&self, key: &CacheKey) -> PathBuf {
        self.dir.join(format!("{}-{}.bin", self.kind, key.hex()))
    }

    /// The bytes stored under `key`, or `None` (absent, unreadable, corrupt).
    /// A hit marks the file as just used (its modification time).
    pub fn load(&self, key: &CacheKey) -> Option<Vec<u8>> {
        if self.off {
            return None;
        }
        let path = self.path(key);
        let file = std::fs::read(&path).ok()?;
        let bytes = decode(&file, key)?;
        if !self.is_read_only() {
            // Best effort: a read-only directory keeps its order.
            let _ = std::fs::File::options().append(true).open(&path).and_then(|f| f.set_modified(std::time::SystemTime::now()));
        }
        Some(bytes)
    }

    /// Removes the least recently used cache files until they take at most
    /// the limit together, keeping `keep`. Returns the bytes removed.
    fn evict(&self, keep: &Path) -> u64 {
        let Ok(rd) = std::fs::read_dir(&self.dir) else { return 0 };
        let mut files: Vec<(std::time::SystemTime, PathBuf, u64)> = rd
            .flatten()
            .filter(|e| e.file_name().to_str().is_some_and(is_entry_name))
            .filter_map(|e| {
                let m = e.metadata().ok()?;
                Some((m.modified().unwrap_or(std::time::UNIX_EPOCH), e.path(), m.len()))
            })
            .collect();
        let mut total: u64 = files.iter().map(|f| f.2).sum();
        if total <= self.max_bytes {
            return 0;
        }
        files.sort();
        let mut removed = 0;
        for (_, path, len) in files {
            if total <= self.max_bytes {
                break;
            }
            if path == keep {
                continue;
            }
            if std::fs::remove_file(&path).is_ok() {
                removed += len;
            }
            // Gone either way (another process may have removed it first).
            total -= len;
        }
        removed
    }

    /// The files named as cache entries in the directory now, as the size
    /// limit counts them (a missing directory holds none; other files are
    /// not counted).
    pub fn usage(&self) -> CacheUsage {
        let mut u = CacheUsage::default();
        let Ok(rd) = std::fs::read_dir(&self.dir) else { return u };
        for e in rd.flatten() {
            if !e.file_name().to_str().is_some_and(is_entry_name) {
                continue;
            }
            if let Some(m) = e.metadata().ok().filter(|m| m.is_file()) {
                u.entries += 1;
                u.bytes += m.len();
            }
        }
        u
    }

    /// Removes the cache's entries (files named as entries that start with
    /// the cache's magic) and writers' temporary files older than a minute;
    /// leaves every other file, and the directory. Returns what was removed
    /// (entries and the bytes of entries and temporary files). Files another
    /// process removes first are skipped.
    pub fn clear(&self) -> CacheUsage {
        let mut removed = CacheUsage::default();
        let Ok(rd) = std::fs::read_dir(&self.dir) else { return removed };
        let now = std::time::SystemTime::now();
        for e in rd.flatten() {
            let Some(name) = e.file_name().to_str().map(str::to_owned) else { continue };
            let Some(m) = e.metadata().ok().filter(|m| m.is_file()) else { continue };
            let path = e.path();
            let entry = is_entry_name(&name) && has_magic(&path);
            let stale_temp = is_temp_name(&name) && m.modified().ok().and_then(|t| now.duration_since(t).ok()).is_some_and(|age| age >= TEMP_FILE_GRACE);
            if (entry || stale_temp) && std::fs::remove_file(&path).is_ok() {
                removed.entries += entry as u64;
                removed.bytes += m.len();
            }
        }
        removed
    }

    /// Stores `bytes` under `key` atomically. False when the directory
    /// cannot be written (the first such failure warns once per process and
    /// turns stores off for this cache).
    pub fn store(&self, key: &CacheKey, bytes: &[u8]) -> bool {
        if self.off || self.is_read_only() || self.max_bytes == 0 {
            return false;
        }
        match self.write(key, bytes) {
            Ok(()) => {
                if self.time_to_scan(bytes.len() as u64) {
                    self.evict(&self.path(key));
                }
                true
            }
            Err(e) => {
                self.read_only.store(true, Relaxed);
                if !WARNED.swap(true, Relaxed) {
                    eprintln!(
                        "accjit: warning: cannot write the kernel cache in {} ({e}); compiled kernels are kept in memory only (set ACCJIT_CACHE_DIR to a writable directory)",
                        self.dir.display()
                    );
                }
                false
            }
        }
    }

    /// Whether the store of `stored` bytes just made looks at the whole
    /// directory's size (module doc: every 1/[`SCAN_FRACTION`] of the limit
    /// stored by this process, and at random in proportion to `stored`).
    fn time_to_scan(&self, stored: u64) -> bool {
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        let every = (self.max_bytes / SCAN_FRACTION).max(1);
        let before = self.unscanned.fetch_add(stored, Relaxed);
        if before + stored >= every {
            self.unscanned.store(0, Relaxed);
            return true;
        }
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        let draw = hash64(&[now.to_le_bytes(), (std::process::id() as u64).to_le_bytes(), SERIAL.fetch_add(1, Relaxed).to_le_bytes()].concat());
        // P(look) = stored / every
        (draw % every) < stored
    }

    fn write(&self, key: &CacheKey, bytes: &[u8]) -> std::io::Result<()> {
        static SERIAL: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(&self.dir)?;
        let target = self.path(key);
        let tmp = self.dir.join(format!(".{}-{}.{}.{}.tmp", self.kind, key.hex(), std::process::id(), SERIAL.fetch_add(1, Relaxed)));
        let written = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&encode(key, bytes))?;
            f.flush()?;
            drop(f);
            std::fs::rename(&tmp, &target)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }
}

/// `ACCJIT_CACHE` is `0`, `off`, `no` or `false` (any case).
fn off_by_env() -> bool {
    std::env::var("ACCJIT_CACHE").is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "0" | "off" | "no" | "false"))
}

/// `ACCJIT_CACHE_MAX_MB` in bytes ([`DEFAULT_MAX_MB`] when unset or not a number).
fn max_bytes_from_env() -> u64 {
    match std::env::var("ACCJIT_CACHE_MAX_MB") {
        Ok(v) if !v.trim().is_empty() => match v.trim().parse::<u64>() {
            Ok(mb) => mb.saturating_mul(1 << 20),
            Err(_) => {
                eprintln!("accjit: ignoring ACCJIT_CACHE_MAX_MB={v:?} (expected a whole number of MiB); the kernel cache keeps at most {DEFAULT_MAX_MB} MiB");
                DEFAULT_MAX_MB << 20
            }
        },
        _ => DEFAULT_MAX_MB << 20,
    }
}

/// `ACCJIT_CACHE_DIR`, else `$XDG_CACHE_HOME/accjit`, else `~/.cache/accjit`
/// (else a directory under the system's temporary directory).
pub fn default_dir() -> PathBuf {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(d) = env("ACCJIT_CACHE_DIR") {
        return d;
    }
    if let Some(d) = env("XDG_CACHE_HOME") {
        return d.join("accjit");
    }
    if let Some(h) = env("HOME") {
        return h.join(".cache").join("accjit");
    }
    std::env::temp_dir().join("accjit-cache")
}

fn encode(key: &CacheKey, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&key.0);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&hash64(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fn decode(file: &[u8], key: &CacheKey) -> Option<Vec<u8>> {
    if file.len() < HEADER || &file[..8] != MAGIC {
        return None;
    }
    let u64_at = |at: usize| file[at..at + 8].try_into().ok().map(u64::from_le_bytes);
    let format = u32::from_le_bytes(file[8..12].try_into().ok()?);
    let len = usize::try_from(u64_at(32)?).ok()?;
    let sum = u64_at(40)?;
    let payload = &file[HEADER..];
    (format == FORMAT && file[16..32] == key.0 && payload.len() == len && hash64(payload) == sum).then(|| payload.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("accjit-cache-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn payload(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    #[test]
    fn keys_depend_on_ptx_capability_and_driver() {
        let k = CacheKey::for_cubin(".entry k() { ret; }", (9, 0), 13000);
        assert_eq!(k, CacheKey::for_cubin(".entry k() { ret; }", (9, 0), 13000));
        assert_ne!(k, CacheKey::for_cubin(".entry k() { ret; } ", (9, 0), 13000));
        assert_ne!(k, CacheKey::for_cubin(".entry k() { ret; }", (8, 0), 13000));
        assert_ne!(k, CacheKey::for_cubin(".entry k() { ret; }", (9, 0), 12080));
        assert_eq!(k.hex().len(), 32);
    }

    #[test]
    fn store_then_load_round_trips_and_other_keys_miss() {
        let dir = scratch("roundtrip");
        let c = DiskCache::new(dir.join("nested"));
        let k = CacheKey::for_cubin("a", (9, 0), 1);
        let other = CacheKey::for_cubin("b", (9, 0), 1);
        assert_eq!(c.load(&k), None);
        let bytes = payload(10_000, 7);
        assert!(c.store(&k, &bytes));
        assert_eq!(c.load(&k).as_deref(), Some(&bytes[..]));
        assert_eq!(c.load(&other), None);
        // Overwrite with other bytes: the new ones are read back.
        let bytes2 = payload(333, 9);
        assert!(c.store(&k, &bytes2));
        assert_eq!(c.load(&k).as_deref(), Some(&bytes2[..]));
        // No temporary files are left behind.
        let names: Vec<String> = std::fs::read_dir(c.dir()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, vec![format!("cuda-{}.bin", k.hex())]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn small_stores_look_at_the_directory_about_once_per_fraction_of_the_limit() {
        let dir = scratch("scan");
        let c = DiskCache::with_limit(&dir, 64 << 20);
        let every = (64u64 << 20) / SCAN_FRACTION;
        // 3000 stores of 1 KiB: a look each time this process's stores
        // since the last look reach 1 MiB (at least twice), and at random
        // with P = 1/1024 each (about 3): very few looks in all
        let looks = (0..3000).filter(|_| c.time_to_scan(1024)).count();
        assert!((2..=16).contains(&looks), "{looks} looks");
        // a store of `every` bytes or more always looks
        assert!(c.time_to_scan(every));
        // a limit below SCAN_FRACTION bytes: every store looks
        let tiny = DiskCache::with_limit(&dir, 10);
        assert!((0..20).all(|_| tiny.time_to_scan(1)));
    }

    #[test]
    fn program_entries_share_the_directory_limit_usage_and_clear() {
        let dir = scratch("programs");
        let cubins = DiskCache::new(&dir);
        let programs = DiskCache::new(&dir).programs();
        let k = CacheKey([7; 16]);
        assert!(cubins.store(&k, &payload(100, 1)));
        assert!(programs.store(&k, &payload(200, 2)));
        // One key, two kinds: two files, each read back by its own kind.
        assert_eq!(cubins.load(&k), Some(payload(100, 1)));
        assert_eq!(programs.load(&k), Some(payload(200, 2)));
        let names: std::collections::BTreeSet<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        assert_eq!(names, [format!("cuda-{}.bin", k.hex()), format!("prog-{}.bin", k.hex())].into_iter().collect());
        assert_eq!(programs.usage().entries, 2);
        assert!(is_temp_name(&format!(".prog-{}.12.0.tmp", k.hex())));
        assert!(!is_entry_name(&format!("other-{}.bin", k.hex())));
        let removed = cubins.clear();
        assert_eq!(removed.entries, 2);
        assert_eq!(programs.usage(), CacheUsage::default());
        // Turned off: nothing is read or written.
        assert!(programs.store(&k, &payload(200, 2)));
        let off = DiskCache { off: true, ..DiskCache::new(&dir).programs() };
        assert!(!off.is_enabled());
        assert_eq!(off.load(&k), None);
        assert!(!off.store(&CacheKey([8; 16]), b"x"));
        assert_eq!(programs.usage().entries, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn truncated_corrupt_or_misnamed_files_are_misses() {
        let dir = scratch("corrupt");
        let c = DiskCache::new(&dir);
        let k = CacheKey::for_cubin("kernel", (8, 0), 2);
        let bytes = payload(4096, 3);
        assert!(c.store(&k, &bytes));
        let path = c.path(&k);
        let whole = std::fs::read(&path).unwrap();
        // Truncated payload.
        std::fs::write(&path, &whole[..whole.len() - 1]).unwrap();
        assert_eq!(c.load(&k), None);
        // Truncated header.
        std::fs::write(&path, &whole[..HEADER - 3]).unwrap();
        assert_eq!(c.load(&k), None);
        // One flipped payload bit.
        let mut flipped = whole.clone();
        flipped[HEADER + 100] ^= 0x10;
        std::fs::write(&path, &flipped).unwrap();
        assert_eq!(c.load(&k), None);
        // A valid file of another key copied under this key's name.
        let other = CacheKey::for_cubin("other", (8, 0), 2);
        std::fs::write(&path, encode(&other, &bytes)).unwrap();
        assert_eq!(c.load(&k), None);
        // Empty file.
        std::fs::write(&path, b"").unwrap();
        assert_eq!(c.load(&k), None);
        // A store repairs it.
        assert!(c.store(&k, &bytes));
        assert_eq!(c.load(&k).as_deref(), Some(&bytes[..]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unwritable_directory_turns_stores_off_without_failing() {
        let dir = scratch("unwritable");
        std::fs::create_dir_all(&dir).unwrap();
        // A directory below a regular file cannot be created, even by root.
        let blocker = dir.join("file");
        std::fs::write(&blocker, b"x").unwrap();
        let c = DiskCache::new(blocker.join("cache"));
        let k = CacheKey::for_cubin("x", (9, 0), 3);
        assert!(!c.store(&k, b"bytes"));
        assert!(c.is_read_only());
        assert!(WARNED.load(Relaxed));
        assert!(!c.store(&k, b"bytes"));
        assert_eq!(c.load(&k), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn concurrent_stores_of_one_key_leave_a_valid_file() {
        let dir = scratch("concurrent");
        let c = DiskCache::new(&dir);
        let k = CacheKey::for_cubin("same", (9, 0), 4);
        let bytes = payload(1 << 16, 5);
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| assert!(c.store(&k, &bytes)));
            }
        });
        assert_eq!(c.load(&k).as_deref(), Some(&bytes[..]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Sets a cache file's last use `secs_ago` seconds back.
    fn age(c: &DiskCache, k: &CacheKey, secs_ago: u64) {
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(secs_ago);
        std::fs::File::options().append(true).open(c.path(k)).unwrap().set_modified(t).unwrap();
    }

    fn cached(c: &DiskCache) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(c.dir()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn stores_over_the_limit_evict_the_least_recently_used() {
        let dir = scratch("limit");
        let file = (10_000 + HEADER) as u64;
        // Room for three files.
        let c = DiskCache::with_limit(&dir, 3 * file + 100);
        let keys: Vec<CacheKey> = (0..5).map(|i| CacheKey::for_cubin(&format!("k{i}"), (9, 0), 5)).collect();
        let bytes: Vec<Vec<u8>> = (0..5).map(|i| payload(10_000, 11 + i)).collect();
        for i in 0..3 {
            assert!(c.store(&keys[i], &bytes[i]));
            age(&c, &keys[i], 1000 - 100 * i as u64);
        }
        assert_eq!(cached(&c).len(), 3, "within the limit: nothing removed");
        // k0 is the oldest, but a hit makes it the most recently used.
        assert_eq!(c.load(&keys[0]).as_deref(), Some(&bytes[0][..]));
        assert!(c.store(&keys[3], &bytes[3]));
        let mut want = vec![format!("cuda-{}.bin", keys[0].hex()), format!("cuda-{}.bin", keys[2].hex()), format!("cuda-{}.bin", keys[3].hex())];
        want.sort();
        assert_eq!(cached(&c), want, "k1, the least recently used, went");
        assert_eq!(c.load(&keys[1]), None);
        // Each of the kept ones still loads whole.
        for i in [0, 2, 3] {
            assert_eq!(c.load(&keys[i]).as_deref(), Some(&bytes[i][..]));
        }
        // A limit below one file keeps the file just stored, alone.
        let small = DiskCache::with_limit(&dir, file / 2);
        assert!(small.store(&keys[4], &bytes[4]));
        assert_eq!(cached(&small), vec![format!("cuda-{}.bin", keys[4].hex())]);
        assert_eq!(small.load(&keys[4]).as_deref(), Some(&bytes[4][..]));
        // Limit 0: nothing is stored.
        let off = DiskCache::with_limit(&dir, 0);
        assert!(!off.store(&keys[0], &bytes[0]));
        assert_eq!(off.load(&keys[0]), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn usage_and_clear_touch_only_the_caches_own_files() {
        let dir = scratch("clear");
        let c = DiskCache::new(&dir);
        assert_eq!(c.usage(), CacheUsage::default(), "a missing directory holds nothing");
        assert_eq!(c.clear(), CacheUsage::default());
        let keys: Vec<CacheKey> = (0..3).map(|i| CacheKey::for_cubin(&format!("c{i}"), (9, 0), 6)).collect();
        let sizes = [100usize, 2000, 30_000];
        for (k, n) in keys.iter().zip(sizes) {
            assert!(c.store(k, &payload(n, n as u64)));
        }
        let want = CacheUsage { entries: 3, bytes: sizes.iter().map(|n| (n + HEADER) as u64).sum() };
        assert_eq!(c.usage(), want);
        // Files that are not the cache's own: other names, an entry-like
        // name without the magic, a fresh temporary file (a store in
        // progress), a subdirectory named like an entry.
        let foreign = ["notes.txt", "cuda-1234.bin", "kernel.cubin"];
        for f in foreign {
            std::fs::write(dir.join(f), b"user data").unwrap();
        }
        let impostor = format!("cuda-{}.bin", "ab".repeat(16));
        std::fs::write(dir.join(&impostor), b"NOTMAGIC and more bytes").unwrap();
        let fresh_tmp = format!(".cuda-{}.77.0.tmp", keys[0].hex());
        std::fs::write(dir.join(&fresh_tmp), b"partial").unwrap();
        let old_tmp = format!(".cuda-{}.78.1.tmp", keys[1].hex());
        std::fs::write(dir.join(&old_tmp), b"abandoned").unwrap();
        let old = std::time::SystemTime::now() - TEMP_FILE_GRACE * 2;
        std::fs::File::options().append(true).open(dir.join(&old_tmp)).unwrap().set_modified(old).unwrap();
        let subdir = format!("cuda-{}.bin", "cd".repeat(16));
        std::fs::create_dir(dir.join(&subdir)).unwrap();
        // The impostor has an entry's name: usage counts it (as evict
        // does), clear keeps it (no magic).
        let impostor_len = std::fs::metadata(dir.join(&impostor)).unwrap().len();
        assert_eq!(c.usage(), CacheUsage { entries: 4, bytes: want.bytes + impostor_len });
        let removed = c.clear();
        assert_eq!(removed, CacheUsage { entries: 3, bytes: want.bytes + "abandoned".len() as u64 });
        let mut left = cached(&c);
        let mut expect: Vec<String> = foreign.iter().map(|s| s.to_string()).chain([impostor.clone(), fresh_tmp, subdir]).collect();
        left.sort();
        expect.sort();
        assert_eq!(left, expect);
        for k in &keys {
            assert_eq!(c.load(k), None);
        }
        // The cache works after a clear.
        assert!(c.store(&keys[0], b"again"));
        assert_eq!(c.load(&keys[0]).as_deref(), Some(&b"again"[..]));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn entry_and_temp_names() {
        let hex = "0123456789abcdef0123456789ABCDEF";
        assert!(is_entry_name(&format!("cuda-{hex}.bin")));
        assert!(!is_entry_name(&format!("cuda-{hex}0.bin")));
        assert!(!is_entry_name("cuda-.bin"));
        assert!(!is_entry_name(&format!("cuda-{hex}.bin.old")));
        assert!(is_temp_name(&format!(".cuda-{hex}.123.4.tmp")));
        assert!(!is_temp_name(&format!(".cuda-{hex}.123.tmp")));
        assert!(!is_temp_name(&format!(".cuda-{hex}.x.4.tmp")));
        assert!(!is_temp_name(&format!("cuda-{hex}.123.4.tmp")));
    }

    #[test]
    fn default_dir_follows_the_environment_rules() {
        // Read-only check of the rule (the environment is process-wide, so
        // the test does not change it).
        let d = default_dir();
        match std::env::var_os("ACCJIT_CACHE_DIR").filter(|v| !v.is_empty()) {
            Some(v) => assert_eq!(d, PathBuf::from(v)),
            None => assert!(d.ends_with("accjit") || d.ends_with("accjit-cache"), "{}", d.display()),
        }
    }
}

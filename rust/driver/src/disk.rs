//! The disk cache of whole compiled programs: a second process compiling
//! the same source runs the front end and `lower` (cheap, and they rebuild
//! the IR, source map and report a [`crate::Program`] needs), then loads
//! the native code and the PTX instead of generating them.
//!
//! Key: the in-process key (source, name, options, device type, engine
//! version), every file of the source map by name and text (the headers
//! the preprocessor read), the host fingerprint (target, Cranelift
//! settings, the CPU features `cranelift-native` detected), all back-end
//! options (Cranelift tuning, PTX tuning, checks) and the build of the
//! engine ([`build_id`]: a rebuilt engine, whose back ends may make other
//! code for the same source, never loads an older build's images). Value: the Cranelift
//! module's image (`accjit_back_clif::image`) and, for nvidia, the PTX back
//! end's module (text and launch facts); the runtime's cubin cache then
//! hits by the PTX's hash as before.
//!
//! The files are the runtime's `DiskCache` (`prog-<hex>.bin` beside the
//! cubins: same directory, atomic writes, checksum, size limit and
//! eviction, one warning when the directory cannot be written,
//! `ACCJIT_CACHE=0` turns it off). A file that does not decode, or an image
//! that no longer loads (an import that does not resolve), is a miss.
//!
//! A C program that reads no header from disk also gets a direct entry
//! (`direct.rs`), keyed by its source: the next process loads it without
//! running the front end and `lower`.

use crate::hash::Hasher128;
use crate::Options;
use accjit_back_clif::Image;
use accjit_back_ptx::{PtxGlobal, PtxKernel, PtxModule};
use accjit_ir::bytes::{ByteReader, ByteWriter};
use accjit_ir::SourceMap;
use accjit_runtime::cuda::{CacheKey, DiskCache};
use std::sync::OnceLock;

/// The payload's own format (inside the cache file's header).
const FORMAT: u32 = 1;

pub(crate) fn cache() -> &'static DiskCache {
    static CACHE: OnceLock<DiskCache> = OnceLock::new();
    CACHE.get_or_init(|| DiskCache::from_env().programs())
}

/// The disk key of a program whose in-process key is `key`, compiled from
/// the files of `sm`.
pub(crate) fn key(key: u128, sm: &SourceMap, opts: &Options, device: &str) -> CacheKey {
    let mut h = Hasher128::new();
    h.str("accjit program image").u64((key >> 64) as u64).u64(key as u64).str(device);
    h.u64(sm.files.len() as u64);
    for f in &sm.files {
        h.str(&f.name).str(&f.text);
    }
    h.str(&accjit_back_clif::host_fingerprint());
    h.str(&crate::back_end_text(&opts.back_end));
    h.str(build_id());
    CacheKey(h.finish().to_le_bytes())
}

/// The identity of the engine's loaded code: the path, size and
/// modification time of the object file this function is in (the Python
/// extension, or the executable), which change with every build and
/// install; one `stat`, once per process. The path is the loader's, not
/// made canonical (a `readlink` per component, ~20 µs of a first load
/// from the disk cache): another spelling of the same file only keys its
/// own entries. Empty when unknown, and then the version alone keys it.
pub(crate) fn build_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| {
        // SAFETY: Dl_info is plain data (pointers and integers); all zeros is valid.
        let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
        // SAFETY: dladdr only reads the address and fills `info`.
        let found = unsafe { libc::dladdr(build_id as *const () as *const libc::c_void, &mut info) } != 0;
        if !found || info.dli_fname.is_null() {
            return String::new();
        }
        // SAFETY: dladdr's file name is a NUL-terminated string owned by the loader.
        let path = unsafe { std::ffi::CStr::from_ptr(info.dli_fname) }.to_string_lossy().into_owned();
        let Ok(meta) = std::fs::metadata(&path) else { return path };
        let mtime = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        format!("{path} {} {mtime}", meta.len())
    })
}

/// What a program's entry holds.
pub(crate) struct Entry {
    pub image: Image,
    pub ptx: Option<PtxModule>,
}

/// The entry stored under `key`, if it is there and decodes, with its bytes.
pub(crate) fn load(key: &CacheKey) -> Option<(Entry, Vec<u8>)> {
    let c = cache();
    if !c.is_enabled() {
        return None;
    }
    let bytes = c.load(key)?;
    Some((decode(&bytes)?, bytes))
}

/// Stores a program's entry, `encode`d (best effort).
pub(crate) fn store(key: &CacheKey, bytes: &[u8]) {
    let c = cache();
    if c.is_enabled() && !c.is_read_only() && c.max_bytes() > 0 {
        c.store(key, bytes);
    }
}

/// A program's entry: its Cranelift image and, for nvidia, its PTX.
pub(crate) fn encode(image: &Image, ptx: Option<&PtxModule>) -> Vec<u8> {
    let mut w = ByteWriter::default();
    w.u32(FORMAT);
    w.bytes(&image.encode());
    match ptx {
        None => w.u8(0),
        Some(p) => {
            w.u8(1);
            w.bytes(p.text.as_bytes());
            w.u64(p.kernels.len() as u64);
            for k in &p.kernels {
                w.bytes(k.entry.as_bytes());
                w.u64(k.param_bytes.len() as u64);
                for &b in &k.param_bytes {
                    w.u32(b);
                }
                w.u32(k.vector);
                w.u32(k.workers);
                w.opt(k.max_gangs);
                w.u8(k.gang_dims);
                w.opt(k.default_gangs);
                w.u8(k.ends_program as u8);
            }
            w.u64(p.globals.len() as u64);
            for g in &p.globals {
                w.bytes(g.ir_name.as_bytes());
                w.bytes(g.symbol.as_bytes());
                w.u64(g.bytes);
                w.u32(g.ir_global);
            }
        }
    }
    w.0
}

pub(crate) fn decode(bytes: &[u8]) -> Option<Entry> {
    let mut r = ByteReader(bytes);
    if r.u32()? != FORMAT {
        return None;
    }
    let image = Image::decode(r.bytes()?)?;
    let ptx = if r.bool()? {
        let text = r.string()?;
        let mut kernels = Vec::new();
        for _ in 0..r.count(28)? {
            let entry = r.string()?;
            let mut param_bytes = Vec::new();
            for _ in 0..r.count(4)? {
                param_bytes.push(r.u32()?);
            }
            kernels.push(PtxKernel {
                entry,
                param_bytes,
                vector: r.u32()?,
                workers: r.u32()?,
                max_gangs: r.opt()?,
                gang_dims: r.u8()?,
                default_gangs: r.opt()?,
                ends_program: r.bool()?,
            });
        }
        let mut globals = Vec::new();
        for _ in 0..r.count(28)? {
            globals.push(PtxGlobal { ir_name: r.string()?, symbol: r.string()?, bytes: r.u64()?, ir_global: r.u32()? });
        }
        Some(PtxModule { text, kernels, globals })
    } else {
        None
    };
    r.is_empty().then_some(Entry { image, ptx })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ptx_parts_round_trip_and_damage_is_a_miss() {
        let mut sm = SourceMap::new();
        let mut m = accjit_front_c::compile(&mut sm, "t.c", "int f(int x) { return x + 1; }", &Default::default()).expect("parses");
        accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "host".into() }).expect("lowers");
        let opts = accjit_back_clif::ClifOptions { symbols: crate::rt::symbols(), ..Default::default() };
        let image = accjit_back_clif::compile(&m, &opts).expect("compiles").take_image().expect("image");
        let ptx = PtxModule {
            text: ".version 8.0\n".into(),
            kernels: vec![PtxKernel {
                entry: "k".into(),
                param_bytes: vec![0, 16],
                vector: 256,
                workers: 1,
                max_gangs: Some(7),
                gang_dims: 2,
                default_gangs: None,
                ends_program: true,
            }],
            globals: vec![PtxGlobal { ir_name: "g".into(), symbol: "g".into(), bytes: 40, ir_global: 3 }],
        };
        let bytes = encode(&image, Some(&ptx));
        let back = decode(&bytes).expect("decodes");
        let p = back.ptx.expect("ptx");
        assert_eq!((p.text, p.kernels, p.globals), (ptx.text.clone(), ptx.kernels.clone(), ptx.globals.clone()));
        assert_eq!(back.image.encode(), image.encode());
        assert!(decode(&encode(&image, None)).expect("decodes").ptx.is_none());
        assert!(build_id().contains(' '), "the engine's object file is found: {:?}", build_id());
        for cut in [0, 3, 10, bytes.len() - 1] {
            assert!(decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }
}

//! Direct entries of the disk cache (as ccache's "direct mode"): a C
//! program loaded in a fresh process without running the front end and
//! `lower`, which were two thirds of a load from the disk cache (`disk.rs`
//! needs the IR they make to key and bind its entry).
//!
//! Key: the in-process key (engine version, name, source text, device type,
//! options: [`crate::cache::key`]), the host fingerprint, every back-end
//! option and the engine's build ([`crate::disk::build_id`]). Value: the
//! program's entry of `disk.rs` (the Cranelift image and the PTX) and what
//! a [`Program`] needs of the IR once its code is loaded: the exported
//! functions as callers see them, the image's shape
//! ([`accjit_back_clif::ImageShape`]), each global's `declare` and size,
//! and each kernel's runtime slot ([`rt::KernelSpec`]). The source map, the
//! lowered IR and the compile report are made again from the source, the
//! first time one is asked for (`Program::report`, `ir()`, `ptx()`): the
//! compilation is deterministic, so they are the ones a compilation makes.
//!
//! Only programs that read no file from disk have direct entries: no
//! `-I` directories, and only `#include <...>` lines in the main text (so
//! that the preprocessor finds every header among the bundled ones, which
//! are part of the engine; a file that a later compilation would read
//! instead, such as a new `stdio.h` beside the source, could never be
//! noticed without running the preprocessor). Others (and Fortran, Python
//! kernels) use `disk.rs` alone, as before. A direct entry that does not
//! decode, whose image no longer loads or that does not fit its facts is a
//! miss: the normal path runs.

use crate::disk;
use crate::hash::Hasher128;
use crate::program::{Declare, GlobalFacts, Lowered};
use crate::rt::{self, KernelSpec};
use crate::{gpu, FunctionInfo, Options, ParamInfo, Program, Timings};
use accjit_back_clif::ImageShape;
use accjit_ir::bytes::{ByteReader, ByteWriter};
use accjit_ir::{FuncSig, Module, Scalar, SourceMap, StructId, Type};
use accjit_runtime::cuda::CacheKey;
use std::time::Instant;

/// The entry's own format (inside the cache file's header).
const FORMAT: u32 = 1;

/// How to make the source map, IR and report of a program loaded without
/// them: its compilation's inputs, and the thread blocks the PTX back end
/// chose (the report shows them; they come with the PTX, not the IR).
pub(crate) struct Relower {
    name: String,
    text: String,
    opts: Options,
    blocks: Vec<(u32, u32)>,
}

impl Relower {
    /// The name the source was compiled under.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The source map, lowered IR and report of the program `relower`
/// describes (compiled for `device`); empty ones when there is nothing to
/// make them from, or should the source no longer compile.
pub(crate) fn relowered(relower: Option<&Relower>, device: &str) -> Lowered {
    let made = relower.and_then(|r| {
        let (sm, module, mut report) = crate::lower_c(&r.name, &r.text, &r.opts, device).ok()?;
        report.add_blocks(&module, &r.blocks);
        Some(Lowered { sm, module, report })
    });
    made.unwrap_or_else(|| Lowered {
        sm: SourceMap::new(),
        module: Module::default(),
        report: crate::Report { device_type: device.to_string(), ..Default::default() },
    })
}

/// Whether the program compiled from `text` with `opts` can read only
/// bundled headers (see the module doc). Conservative: any directive line
/// that mentions `include` without being `#include <`, and any
/// `__has_include`, makes it not.
fn reads_no_file(text: &str, opts: &Options) -> bool {
    if !opts.include_dirs.is_empty() || text.contains("__has_include") {
        return false;
    }
    text.lines().all(|line| {
        let Some(directive) = line.trim_start().strip_prefix('#') else { return true };
        if !directive.contains("include") {
            return true;
        }
        directive.trim_start().strip_prefix("include").is_some_and(|rest| rest.trim_start().starts_with('<'))
    })
}

fn entry_key(key: u128, opts: &Options, device: &str) -> CacheKey {
    let mut h = Hasher128::new();
    h.str("accjit direct entry").u64((key >> 64) as u64).u64(key as u64).str(device);
    h.str(&accjit_back_clif::host_fingerprint());
    h.str(&crate::back_end_text(&opts.back_end));
    h.str(disk::build_id());
    CacheKey(h.finish().to_le_bytes())
}

/// What a program needs of its IR once its code is loaded.
#[derive(Debug, PartialEq)]
struct Facts {
    functions: Vec<FunctionFacts>,
    shape: ImageShape,
    globals: Vec<GlobalFacts>,
    kernels: Vec<KernelSpec>,
}

/// An exported function as callers see it, less its code.
#[derive(Debug, PartialEq)]
struct FunctionFacts {
    name: String,
    sig: FuncSig,
    params: Vec<ParamInfo>,
    ret_ctype: String,
}

/// The program compiled from `text` (in-process key `key`), loaded from its
/// direct entry; `None` when there is none that loads.
pub(crate) fn load(name: &str, text: &str, opts: &Options, device: &str, key: u128) -> Option<Program> {
    let t0 = Instant::now();
    let cache = disk::cache();
    if !cache.is_enabled() || !reads_no_file(text, opts) {
        return None;
    }
    let bytes = cache.load(&entry_key(key, opts, device))?;
    let (payload, facts) = decode(&bytes)?;
    let entry = disk::decode(payload)?;
    if entry.ptx.is_some() != (device == "nvidia") || facts.shape.kernels != facts.kernels.len() {
        return None;
    }
    // The GPU module loads (on the CUDA layer's thread) while the image does.
    let ptx = entry.ptx.map(gpu::early);
    let slots: Vec<rt::Slot> = facts.kernels.iter().map(rt::Slot::new).collect();
    let clif_opts = crate::clif_options(opts, &slots);
    let compiled = accjit_back_clif::image::load_shaped(&facts.shape, &entry.image, &clif_opts).ok()?;
    let mut functions = Vec::new();
    for cf in compiled.functions.iter().filter(|f| !f.name.starts_with("__accjit_")) {
        let f = facts.functions.iter().find(|f| f.name == cf.name)?;
        let (params, ret_ctype) = (f.params.clone(), f.ret_ctype.clone());
        functions.push(FunctionInfo { name: f.name.clone(), sig: f.sig.clone(), params, ret_ctype, trampoline: cf.trampoline });
    }
    if compiled.kernels.len() != slots.len() {
        return None;
    }
    for ((slot, &addr), &any) in slots.iter().zip(&compiled.kernels).zip(&compiled.kernel_any_thread) {
        slot.set_host_fn(addr, any);
    }
    let blocks = match ptx {
        Some(ptx) => gpu::attach_ptx(&facts.globals, &compiled.globals, &slots, ptx).ok()?,
        None => vec![],
    };
    let codegen = t0.elapsed();
    let timings = Timings { parse: Default::default(), lower: Default::default(), codegen, total: codegen, from_disk: true };
    let relower = Relower { name: name.to_string(), text: text.to_string(), opts: opts.clone(), blocks };
    Some(Program::without_ir(device.to_string(), slots, compiled, timings, functions, &facts.globals, relower))
}

/// Stores the direct entry of `program`, compiled from `text` (in-process
/// key `key`), whose `disk.rs` entry is `payload` (best effort; nothing for
/// a program that read a file from disk).
pub(crate) fn store(text: &str, opts: &Options, device: &str, key: u128, program: &Program, payload: &[u8]) {
    let cache = disk::cache();
    if !cache.is_enabled() || cache.is_read_only() || cache.max_bytes() == 0 || !reads_no_file(text, opts) {
        return;
    }
    if program.source_map().files.iter().skip(1).any(|f| !f.name.starts_with("<bundled>/")) {
        return;
    }
    let module = program.module();
    let facts = Facts {
        functions: program
            .functions()
            .iter()
            .map(|f| FunctionFacts { name: f.name.clone(), sig: f.sig.clone(), params: f.params.clone(), ret_ctype: f.ret_ctype.clone() })
            .collect(),
        shape: ImageShape::of(module),
        globals: GlobalFacts::of(module),
        kernels: module.kernels.iter().map(KernelSpec::of).collect(),
    };
    cache.store(&entry_key(key, opts, device), &encode(payload, &facts));
}

// ---- encoding -------------------------------------------------------------

const SCALARS: &[Scalar] =
    &[Scalar::Bool, Scalar::I8, Scalar::U8, Scalar::I16, Scalar::U16, Scalar::I32, Scalar::U32, Scalar::I64, Scalar::U64, Scalar::F32, Scalar::F64];

/// Types nest at most this deep in an entry (a pointer to a pointer ... ).
const MAX_TYPE_DEPTH: u32 = 64;

fn write_scalar(w: &mut ByteWriter, s: Scalar) {
    w.u8(SCALARS.iter().position(|&x| x == s).unwrap_or(0) as u8);
}

fn read_scalar(r: &mut ByteReader) -> Option<Scalar> {
    SCALARS.get(r.u8()? as usize).copied()
}

fn write_type(w: &mut ByteWriter, t: &Type) {
    match t {
        Type::Void => w.u8(0),
        Type::Scalar(s) => {
            w.u8(1);
            write_scalar(w, *s);
        }
        Type::Complex(s) => {
            w.u8(2);
            write_scalar(w, *s);
        }
        Type::Ptr(t) => {
            w.u8(3);
            write_type(w, t);
        }
        Type::Array(t, n) => {
            w.u8(4);
            write_type(w, t);
            w.opt(*n);
        }
        Type::Struct(id) => {
            w.u8(5);
            w.u32(id.0);
        }
        Type::Func(sig) => {
            w.u8(6);
            write_sig(w, sig);
        }
        Type::Desc { elem, rank } => {
            w.u8(7);
            write_type(w, elem);
            w.u8(*rank);
        }
    }
}

fn read_type(r: &mut ByteReader, depth: u32) -> Option<Type> {
    if depth > MAX_TYPE_DEPTH {
        return None;
    }
    Some(match r.u8()? {
        0 => Type::Void,
        1 => Type::Scalar(read_scalar(r)?),
        2 => Type::Complex(read_scalar(r)?),
        3 => Type::Ptr(Box::new(read_type(r, depth + 1)?)),
        4 => Type::Array(Box::new(read_type(r, depth + 1)?), r.opt()?),
        5 => Type::Struct(StructId(r.u32()?)),
        6 => Type::Func(Box::new(read_sig(r, depth + 1)?)),
        7 => Type::Desc { elem: Box::new(read_type(r, depth + 1)?), rank: r.u8()? },
        _ => return None,
    })
}

fn write_sig(w: &mut ByteWriter, sig: &FuncSig) {
    w.u64(sig.params.len() as u64);
    for p in &sig.params {
        write_type(w, p);
    }
    write_type(w, &sig.ret);
    w.bool(sig.variadic);
}

fn read_sig(r: &mut ByteReader, depth: u32) -> Option<FuncSig> {
    let n = r.count(1)?;
    let mut params = Vec::with_capacity(n);
    for _ in 0..n {
        params.push(read_type(r, depth)?);
    }
    Some(FuncSig { params, ret: read_type(r, depth)?, variadic: r.bool()? })
}

fn encode(payload: &[u8], facts: &Facts) -> Vec<u8> {
    let mut w = ByteWriter::default();
    w.u32(FORMAT);
    w.bytes(payload);
    w.u64(facts.functions.len() as u64);
    for f in &facts.functions {
        w.str(&f.name);
        write_sig(&mut w, &f.sig);
        w.u64(f.params.len() as u64);
        for p in &f.params {
            w.str(&p.name);
            write_type(&mut w, &p.ty);
            w.str(&p.ctype);
            w.u8(match p.const_pointee {
                None => 0,
                Some(false) => 1,
                Some(true) => 2,
            });
        }
        w.str(&f.ret_ctype);
    }
    let shape = &facts.shape;
    w.u64(shape.functions.len() as u64);
    for (name, sig) in &shape.functions {
        w.str(name);
        write_sig(&mut w, sig);
    }
    w.u64(shape.globals.len() as u64);
    for (name, import) in &shape.globals {
        w.str(name);
        w.bool(*import);
    }
    w.u64(shape.kernels as u64);
    w.opt(shape.arena_data);
    w.u64(facts.globals.len() as u64);
    for g in &facts.globals {
        w.u8(match g.declare {
            Declare::None => 0,
            Declare::Link => 1,
            Declare::Entered => 2,
        });
        w.u64(g.bytes);
    }
    w.u64(facts.kernels.len() as u64);
    for k in &facts.kernels {
        w.str(&k.name);
        w.bytes(&k.kinds);
        w.u64(k.param_names.len() as u64);
        for n in &k.param_names {
            w.str(n);
        }
        w.opt(k.max_gangs);
        w.bool(k.splittable);
        w.u32(k.construct as u32);
    }
    w.0
}

/// The `disk.rs` entry and the facts of [`encode`]'s bytes.
fn decode(bytes: &[u8]) -> Option<(&[u8], Facts)> {
    let mut r = ByteReader(bytes);
    if r.u32()? != FORMAT {
        return None;
    }
    let payload = r.bytes()?;
    let n = r.count(8)?;
    let mut functions = Vec::with_capacity(n);
    for _ in 0..n {
        let name = r.string()?;
        let sig = read_sig(&mut r, 0)?;
        let n = r.count(8)?;
        let mut params = Vec::with_capacity(n);
        for _ in 0..n {
            let (name, ty, ctype) = (r.string()?, read_type(&mut r, 0)?, r.string()?);
            let const_pointee = match r.u8()? {
                0 => None,
                1 => Some(false),
                2 => Some(true),
                _ => return None,
            };
            params.push(ParamInfo { name, ty, ctype, const_pointee });
        }
        functions.push(FunctionFacts { name, sig, params, ret_ctype: r.string()? });
    }
    let mut shape = ImageShape::default();
    let n = r.count(8)?;
    shape.functions.reserve_exact(n);
    for _ in 0..n {
        shape.functions.push((r.string()?, read_sig(&mut r, 0)?));
    }
    let n = r.count(9)?;
    shape.globals.reserve_exact(n);
    for _ in 0..n {
        shape.globals.push((r.string()?, r.bool()?));
    }
    shape.kernels = usize::try_from(r.u64()?).ok()?;
    shape.arena_data = r.opt()?;
    let n = r.count(9)?;
    let mut globals = Vec::with_capacity(n);
    for _ in 0..n {
        let declare = match r.u8()? {
            0 => Declare::None,
            1 => Declare::Link,
            2 => Declare::Entered,
            _ => return None,
        };
        globals.push(GlobalFacts { declare, bytes: r.u64()? });
    }
    let n = r.count(8)?;
    let mut kernels = Vec::with_capacity(n);
    for _ in 0..n {
        let (name, kinds) = (r.string()?, r.bytes()?.to_vec());
        let n = r.count(8)?;
        let mut param_names = Vec::with_capacity(n);
        for _ in 0..n {
            param_names.push(r.string()?);
        }
        kernels.push(KernelSpec { name, kinds, param_names, max_gangs: r.opt()?, splittable: r.bool()?, construct: r.u32()? as i32 });
    }
    if !r.is_empty() || globals.len() != shape.globals.len() {
        return None;
    }
    Some((payload, Facts { functions, shape, globals, kernels }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_programs_of_bundled_headers_have_entries() {
        let opts = Options::default();
        assert!(reads_no_file("#include <stdio.h>\n  #  include   <math.h>\nint x;\n", &opts));
        assert!(reads_no_file("int x; /* #include is mentioned here */\n", &opts));
        for text in ["#include \"mine.h\"\n", "#include MINE\n", "#/**/include \"a.h\"\n", "#if __has_include(<x.h>)\n#endif\n", "#include \\\n<stdio.h>\n"] {
            assert!(!reads_no_file(text, &opts), "{text:?}");
        }
        let with_dir = Options { include_dirs: vec!["inc".into()], ..Options::default() };
        assert!(!reads_no_file("#include <stdio.h>\n", &with_dir));
    }

    #[test]
    fn facts_round_trip_and_damage_is_a_miss() {
        let mut sm = SourceMap::new();
        let src = "struct P { int a; };\nfloat g[8];\n#pragma acc declare create(g)\nint (*fp)(int);\n\
                   void f(int n, const float *restrict x, float *y, struct P *p, float _Complex z) {\n\
                   #pragma acc parallel loop num_gangs(4) copyin(x[0:n]) copyout(y[0:n])\n\
                   for (int i = 0; i < n; i++) y[i] = x[i];\n}\n";
        let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).expect("parses");
        accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }).expect("lowers");
        let f = &m.functions.iter().find(|f| f.name == "f").expect("f");
        let facts = Facts {
            functions: vec![FunctionFacts { name: "f".into(), sig: f.sig.clone(), params: crate::ctype::params_of(f, &m.structs), ret_ctype: "void".into() }],
            shape: ImageShape::of(&m),
            globals: GlobalFacts::of(&m),
            kernels: m.kernels.iter().map(KernelSpec::of).collect(),
        };
        assert!(facts.globals.iter().any(|g| g.declare == Declare::Entered && g.bytes == 32), "{:?}", facts.globals);
        assert_eq!(facts.kernels.len(), 1);
        assert_eq!(facts.kernels[0].max_gangs, m.kernels[0].max_gangs);
        let bytes = encode(b"payload", &facts);
        let (payload, back) = decode(&bytes).expect("decodes");
        assert_eq!(payload, b"payload");
        assert_eq!(back, facts);
        for cut in [0, 3, 10, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
    }
}

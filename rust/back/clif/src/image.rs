//! The image of a compiled module: everything the `JITModule` was given
//! while compiling it, as bytes, and the loader that replays it into a fresh
//! `JITModule` — the same [`CompiledModule`] without running Cranelift (the
//! driver's disk cache of whole programs).
//!
//! Recorded: every declaration in order (functions and data objects by
//! name and linkage; ids are assigned in declaration order, so relocations
//! recorded against ids stay valid), each definition in order (a function's
//! machine code, alignment and relocations; a data object's
//! `DataDescription`), and how the module's parts map onto the IR (exported
//! functions and their trampolines, kernels, globals). Imports are kept by
//! name and resolved when the image is loaded, as when compiling (the
//! `ClifOptions::symbols` table, then `dlsym`): no address of this process
//! is in an image. That includes the runtime's kernel slots, which launch
//! code reaches through the imported data symbols [`kernel_slot_symbol`].
//!
//! Declared signatures are not recorded: the JIT linker never reads them
//! once the code is compiled (a replayed function gets an empty one).
//!
//! The encoding is private to this file and this engine version (the
//! driver keys images by the engine version and checks them with a
//! checksum); a byte string that does not decode is `None`, never a panic.

use accjit_ir::bytes::{ByteReader, ByteWriter};
use accjit_ir::{FuncSig, Linkage as IrLinkage, Module};
use cranelift_codegen::binemit::Reloc;
use cranelift_codegen::ir::{self, KnownSymbol, LibCall, Signature};
use cranelift_codegen::Context;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, DataDescription, DataId, FuncId, Init, Linkage, Module as _, ModuleReloc, ModuleRelocTarget};

use crate::module::{arena_data_bytes, arena_of, isa, load_libm, resolve, CodeMemory};
use crate::{ClifOptions, CompiledFunction, CompiledModule};

/// The imported data symbol whose address is the runtime kernel slot of
/// kernel `i` (bound from `ClifOptions::kernel_slots`).
pub fn kernel_slot_symbol(i: usize) -> String {
    format!("{KERNEL_SLOT_PREFIX}{i}")
}

const KERNEL_SLOT_PREFIX: &str = "__accjit_kernel_slot.";

/// The names the JIT linker binds ahead of `dlsym`: `ClifOptions::symbols`
/// (shared, built once per process) and this module's kernel slots.
#[derive(Clone)]
pub(crate) struct SymbolTable {
    symbols: crate::Symbols,
    kernel_slots: Vec<usize>,
}

impl SymbolTable {
    pub fn new(opts: &ClifOptions) -> SymbolTable {
        SymbolTable { symbols: opts.symbols.clone(), kernel_slots: opts.kernel_slots.clone() }
    }

    /// The address bound to `name`: a kernel slot's, else the table's.
    pub fn get(&self, name: &str) -> Option<usize> {
        if let Some(digits) = name.strip_prefix(KERNEL_SLOT_PREFIX) {
            // `kernel_slot_symbol`'s spelling of an index: no sign, no leading zero.
            let canonical = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (digits.len() == 1 || !digits.starts_with('0'));
            if let Some(i) = digits.parse::<usize>().ok().filter(|_| canonical) {
                return self.kernel_slots.get(i).copied();
            }
        }
        self.symbols.get(name)
    }
}

/// A compiled module as data (see the module doc).
#[derive(Clone, Default)]
pub struct Image {
    /// Function declarations in `FuncId` order: name, linkage.
    funcs: Vec<(String, Linkage)>,
    /// Data declarations in `DataId` order: name, linkage, writable, tls.
    data: Vec<(String, Linkage, bool, bool)>,
    /// Definitions in the order they were made.
    defs: Vec<Def>,
    /// Exported functions: IR function index, its `FuncId`, its trampoline's.
    exports: Vec<(u32, u32, u32)>,
    kernels: Vec<u32>,
    kernel_any_thread: Vec<bool>,
    /// Per IR global: the data object defining it (`None`: an import,
    /// resolved by name at load time).
    globals: Vec<Option<u32>>,
    clif: String,
}

#[derive(Clone)]
enum Def {
    Func { id: u32, align: u64, bytes: Vec<u8>, relocs: Vec<ModuleReloc> },
    Data { id: u32, desc: DataDescription },
}

/// Collects the definitions while a module compiles. A relocation this
/// encoding does not know turns recording off (the module then has no image).
#[derive(Default)]
pub(crate) struct Recorder {
    defs: Vec<Def>,
    unsupported: bool,
}

impl Recorder {
    /// `ctx` was just defined as function `id`.
    pub fn function(&mut self, id: FuncId, ctx: &Context) {
        let Some(code) = ctx.compiled_code() else {
            self.unsupported = true;
            return;
        };
        let relocs: Vec<ModuleReloc> = code.buffer.relocs().iter().map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id)).collect();
        self.function_bytes(id, code.buffer.alignment as u64, code.code_buffer(), &relocs);
    }

    pub fn function_bytes(&mut self, id: FuncId, align: u64, bytes: &[u8], relocs: &[ModuleReloc]) {
        if relocs.iter().any(|r| reloc_code(r.kind).is_none() || matches!(&r.name, ModuleRelocTarget::KnownSymbol(k) if known_code(k).is_none())) {
            self.unsupported = true;
        }
        self.defs.push(Def::Func { id: id.as_u32(), align, bytes: bytes.to_vec(), relocs: relocs.to_vec() });
    }

    pub fn data(&mut self, id: DataId, desc: &DataDescription) {
        self.defs.push(Def::Data { id: id.as_u32(), desc: desc.clone() });
    }

    /// The image of the finished module `jit`.
    pub fn finish(
        self,
        jit: &JITModule,
        exports: Vec<(u32, u32, u32)>,
        kernels: Vec<u32>,
        kernel_any_thread: Vec<bool>,
        globals: Vec<Option<u32>>,
        clif: String,
    ) -> Option<Image> {
        if self.unsupported {
            return None;
        }
        let decls = jit.declarations();
        let funcs = decls.get_functions().map(|(_, d)| (d.name.clone().unwrap_or_default(), d.linkage)).collect();
        let data = decls.get_data_objects().map(|(_, d)| (d.name.clone().unwrap_or_default(), d.linkage, d.writable, d.tls)).collect();
        Some(Image { funcs, data, defs: self.defs, exports, kernels, kernel_any_thread, globals, clif })
    }
}

/// What loading an image needs of the lowered module it was compiled from:
/// the name and signature of each function (by IR index; only exported
/// ones are read), the name of each global and whether it is an import,
/// the number of kernels and the bytes of data the module defines (the
/// code arena's size). [`ImageShape::of`] reads it off a module; the
/// driver keeps it beside an image to load the image without the IR.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImageShape {
    pub functions: Vec<(String, FuncSig)>,
    pub globals: Vec<(String, bool)>,
    pub kernels: usize,
    /// `None`: no arena (data too large or too aligned for one).
    pub arena_data: Option<u64>,
}

impl ImageShape {
    /// The shape of the lowered `m`.
    pub fn of(m: &Module) -> ImageShape {
        ImageShape {
            functions: m.functions.iter().map(|f| (f.name.clone(), f.sig.clone())).collect(),
            globals: m.globals.iter().map(|g| (g.name.clone(), g.linkage == IrLinkage::Import)).collect(),
            kernels: m.kernels.len(),
            arena_data: arena_data_bytes(m),
        }
    }
}

/// Loads `image`, compiled from the lowered `m`, binding its imports with
/// `opts` (symbols and kernel slots of this process). `Err` says why it
/// cannot be used (an import that no longer resolves, an image that does
/// not fit `m`); the caller then compiles instead.
pub fn load(m: &Module, image: &Image, opts: &ClifOptions) -> Result<CompiledModule, String> {
    load_shaped(&ImageShape::of(m), image, opts)
}

/// [`load`] for a module known by its [`ImageShape`] only.
pub fn load_shaped(m: &ImageShape, image: &Image, opts: &ClifOptions) -> Result<CompiledModule, String> {
    if image.kernels.len() != m.kernels || image.globals.len() != m.globals.len() || image.kernel_any_thread.len() != m.kernels {
        return Err("the image does not match the module".into());
    }
    if image.exports.iter().any(|e| e.0 as usize >= m.functions.len()) {
        return Err("the image names a function the module does not have".into());
    }
    let symbols = SymbolTable::new(opts);
    for (name, _) in image.funcs.iter().filter(|f| f.1 == Linkage::Import) {
        if resolve(&symbols, name).is_none() {
            return Err(format!("undefined reference to '{name}'"));
        }
    }
    for (name, ..) in image.data.iter().filter(|d| d.1 == Linkage::Import) {
        if resolve(&symbols, name).is_none() {
            return Err(format!("undefined reference to '{name}'"));
        }
    }
    let isa = isa(false)?;
    load_libm();
    let cc = isa.default_call_conv();
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    if let Some(arena) = m.arena_data.and_then(arena_of) {
        builder.memory_provider(Box::new(arena));
    }
    let table = symbols.clone();
    builder.symbol_lookup_fn(Box::new(move |name| table.get(name).map(|a| a as *const u8)));
    let mut jit = JITModule::new(builder);
    let replay = (|| -> Result<(), String> {
        let err = |e: cranelift_module::ModuleError| e.to_string();
        let sig = Signature::new(cc);
        for (i, (name, linkage)) in image.funcs.iter().enumerate() {
            let id = jit.declare_function(name, *linkage, &sig).map_err(err)?;
            if id.as_u32() as usize != i {
                return Err(format!("function '{name}' declared out of order"));
            }
        }
        for (i, (name, linkage, writable, tls)) in image.data.iter().enumerate() {
            let id = jit.declare_data(name, *linkage, *writable, *tls).map_err(err)?;
            if id.as_u32() as usize != i {
                return Err(format!("data '{name}' declared out of order"));
            }
        }
        let (nf, nd) = (image.funcs.len() as u32, image.data.len() as u32);
        let check_target = |t: &ModuleRelocTarget| match t {
            ModuleRelocTarget::User { namespace: 0, index } => *index < nf,
            ModuleRelocTarget::User { namespace: 1, index } => *index < nd,
            ModuleRelocTarget::User { .. } => false,
            ModuleRelocTarget::FunctionOffset(f, _) => f.as_u32() < nf,
            _ => true,
        };
        for def in &image.defs {
            match def {
                Def::Func { id, align, bytes, relocs } => {
                    if *id >= nf || !relocs.iter().all(|r| check_target(&r.name)) {
                        return Err("a relocation names an undeclared symbol".into());
                    }
                    jit.define_function_bytes(FuncId::from_u32(*id), *align, bytes, relocs).map_err(err)?;
                }
                Def::Data { id, desc } => {
                    if *id >= nd || !desc.function_decls.values().chain(desc.data_decls.values()).all(check_target) {
                        return Err("a data relocation names an undeclared symbol".into());
                    }
                    jit.define_data(DataId::from_u32(*id), desc).map_err(err)?;
                }
            }
        }
        jit.finalize_definitions().map_err(err)
    })();
    if let Err(e) = replay {
        // SAFETY: nothing loaded here was ever run.
        unsafe { jit.free_memory() };
        return Err(e);
    }
    let defined = |id: u32| image.defs.iter().any(|d| matches!(d, Def::Func { id: i, .. } if *i == id));
    let mut functions = Vec::new();
    for &(fi, id, tramp) in &image.exports {
        if !defined(id) || !defined(tramp) {
            // SAFETY: as above.
            unsafe { jit.free_memory() };
            return Err("an exported function has no code".into());
        }
        let (name, sig) = &m.functions[fi as usize];
        let addr = jit.get_finalized_function(FuncId::from_u32(id)) as usize;
        let taddr = jit.get_finalized_function(FuncId::from_u32(tramp));
        // SAFETY: the trampoline was compiled with the trampoline signature.
        let trampoline = unsafe { std::mem::transmute::<*const u8, crate::Trampoline>(taddr) };
        functions.push(CompiledFunction { name: name.clone(), sig: sig.clone(), trampoline, address: addr });
    }
    if !image.kernels.iter().all(|&k| defined(k)) {
        // SAFETY: as above.
        unsafe { jit.free_memory() };
        return Err("a kernel has no code".into());
    }
    let kernels = image.kernels.iter().map(|&k| jit.get_finalized_function(FuncId::from_u32(k)) as usize).collect();
    let mut globals = Vec::new();
    for ((name, import), d) in m.globals.iter().zip(&image.globals) {
        let a = match d {
            Some(d) if !import && *d < image.data.len() as u32 => jit.get_finalized_data(DataId::from_u32(*d)).0 as usize,
            _ => resolve(&symbols, name).unwrap_or(0),
        };
        globals.push(a);
    }
    Ok(CompiledModule {
        functions,
        kernels,
        kernel_any_thread: image.kernel_any_thread.clone(),
        clif: image.clif.clone(),
        globals,
        image: None,
        _code: CodeMemory::new(jit),
    })
}

// ---- encoding -------------------------------------------------------------

const MAGIC: &[u8; 8] = b"ACCJITIM";
const FORMAT: u32 = 1;

/// The relocation kinds the x86-64 and AArch64 back ends emit for JIT code.
const RELOCS: &[Reloc] = &[
    Reloc::Abs4,
    Reloc::Abs8,
    Reloc::X86PCRel4,
    Reloc::X86CallPCRel4,
    Reloc::X86CallPLTRel4,
    Reloc::X86GOTPCRel4,
    Reloc::Arm64Call,
    Reloc::Aarch64AdrGotPage21,
    Reloc::Aarch64AdrPrelPgHi21,
    Reloc::Aarch64AddAbsLo12Nc,
    Reloc::Aarch64Ld64GotLo12Nc,
];
const KNOWN: &[KnownSymbol] = &[KnownSymbol::ElfGlobalOffsetTable, KnownSymbol::CoffTlsIndex];
const LINKAGES: &[Linkage] = &[Linkage::Import, Linkage::Local, Linkage::Preemptible, Linkage::Hidden, Linkage::Export];

fn reloc_code(r: Reloc) -> Option<u8> {
    RELOCS.iter().position(|&k| k == r).map(|i| i as u8)
}

fn known_code(k: &KnownSymbol) -> Option<u8> {
    KNOWN.iter().position(|x| x == k).map(|i| i as u8)
}

fn linkage_code(l: Linkage) -> u8 {
    LINKAGES.iter().position(|&x| x == l).unwrap_or(0) as u8
}

fn write_target(w: &mut ByteWriter, t: &ModuleRelocTarget) {
    match t {
        ModuleRelocTarget::User { namespace, index } => {
            w.u8(0);
            w.u32(*namespace);
            w.u32(*index);
        }
        ModuleRelocTarget::LibCall(l) => {
            w.u8(1);
            w.str(&l.to_string());
        }
        ModuleRelocTarget::KnownSymbol(k) => {
            w.u8(2);
            w.u8(known_code(k).unwrap_or(u8::MAX));
        }
        ModuleRelocTarget::FunctionOffset(f, off) => {
            w.u8(3);
            w.u32(f.as_u32());
            w.u32(*off);
        }
    }
}

fn read_target(r: &mut ByteReader) -> Option<ModuleRelocTarget> {
    Some(match r.u8()? {
        0 => ModuleRelocTarget::User { namespace: r.u32()?, index: r.u32()? },
        1 => ModuleRelocTarget::LibCall(r.string()?.parse::<LibCall>().ok()?),
        2 => ModuleRelocTarget::KnownSymbol(*KNOWN.get(r.u8()? as usize)?),
        3 => ModuleRelocTarget::FunctionOffset(FuncId::from_u32(r.u32()?), r.u32()?),
        _ => return None,
    })
}

fn read_linkage(r: &mut ByteReader) -> Option<Linkage> {
    LINKAGES.get(r.u8()? as usize).copied()
}

impl Image {
    /// The image as bytes ([`Image::decode`] reads them back).
    pub fn encode(&self) -> Vec<u8> {
        let mut w = ByteWriter::default();
        w.0.extend_from_slice(MAGIC);
        w.u32(FORMAT);
        w.u64(self.funcs.len() as u64);
        for (name, l) in &self.funcs {
            w.str(name);
            w.u8(linkage_code(*l));
        }
        w.u64(self.data.len() as u64);
        for (name, l, writable, tls) in &self.data {
            w.str(name);
            w.u8(linkage_code(*l));
            w.u8(*writable as u8);
            w.u8(*tls as u8);
        }
        w.u64(self.defs.len() as u64);
        for d in &self.defs {
            match d {
                Def::Func { id, align, bytes, relocs } => {
                    w.u8(0);
                    w.u32(*id);
                    w.u64(*align);
                    w.bytes(bytes);
                    w.u64(relocs.len() as u64);
                    for r in relocs {
                        w.u32(r.offset);
                        w.u8(reloc_code(r.kind).unwrap_or(u8::MAX));
                        write_target(&mut w, &r.name);
                        w.u64(r.addend as u64);
                    }
                }
                Def::Data { id, desc } => {
                    w.u8(1);
                    w.u32(*id);
                    match &desc.init {
                        Init::Uninitialized => w.u8(0),
                        Init::Zeros { size } => {
                            w.u8(1);
                            w.u64(*size as u64);
                        }
                        Init::Bytes { contents } => {
                            w.u8(2);
                            w.bytes(contents);
                        }
                    }
                    w.u64(desc.function_decls.len() as u64);
                    for t in desc.function_decls.values() {
                        write_target(&mut w, t);
                    }
                    w.u64(desc.data_decls.len() as u64);
                    for t in desc.data_decls.values() {
                        write_target(&mut w, t);
                    }
                    w.u64(desc.function_relocs.len() as u64);
                    for (off, f) in &desc.function_relocs {
                        w.u32(*off);
                        w.u32(f.as_u32());
                    }
                    w.u64(desc.data_relocs.len() as u64);
                    for (off, g, addend) in &desc.data_relocs {
                        w.u32(*off);
                        w.u32(g.as_u32());
                        w.u64(*addend as u64);
                    }
                    match &desc.custom_section {
                        None => w.u8(0),
                        Some(s) => {
                            w.u8(1);
                            w.str(s);
                        }
                    }
                    match desc.align {
                        None => w.u8(0),
                        Some(a) => {
                            w.u8(1);
                            w.u64(a);
                        }
                    }
                    w.u8(desc.used as u8);
                }
            }
        }
        w.u64(self.exports.len() as u64);
        for &(f, id, t) in &self.exports {
            w.u32(f);
            w.u32(id);
            w.u32(t);
        }
        w.u64(self.kernels.len() as u64);
        for (&k, &any) in self.kernels.iter().zip(&self.kernel_any_thread) {
            w.u32(k);
            w.u8(any as u8);
        }
        w.u64(self.globals.len() as u64);
        for g in &self.globals {
            match g {
                None => w.u8(0),
                Some(d) => {
                    w.u8(1);
                    w.u32(*d);
                }
            }
        }
        w.str(&self.clif);
        w.0
    }

    /// Reads [`Image::encode`]'s bytes; `None` for anything else.
    pub fn decode(bytes: &[u8]) -> Option<Image> {
        let mut r = ByteReader(bytes);
        if r.take(8)? != MAGIC || r.u32()? != FORMAT {
            return None;
        }
        // Each list is sized from its count first (growing them one push
        // at a time was ~40% of decoding an image).
        let mut image = Image::default();
        let n = r.count(9)?;
        image.funcs.reserve_exact(n);
        for _ in 0..n {
            image.funcs.push((r.string()?, read_linkage(&mut r)?));
        }
        let n = r.count(11)?;
        image.data.reserve_exact(n);
        for _ in 0..n {
            image.data.push((r.string()?, read_linkage(&mut r)?, r.bool()?, r.bool()?));
        }
        let n = r.count(5)?;
        image.defs.reserve_exact(n);
        for _ in 0..n {
            let def = match r.u8()? {
                0 => {
                    let (id, align, bytes) = (r.u32()?, r.u64()?, r.bytes()?.to_vec());
                    let n = r.count(14)?;
                    let mut relocs = Vec::with_capacity(n);
                    for _ in 0..n {
                        let offset = r.u32()?;
                        let kind = *RELOCS.get(r.u8()? as usize)?;
                        let name = read_target(&mut r)?;
                        let addend = r.u64()? as i64;
                        relocs.push(ModuleReloc { offset, kind, name, addend });
                    }
                    Def::Func { id, align, bytes, relocs }
                }
                1 => {
                    let id = r.u32()?;
                    let mut desc = DataDescription::new();
                    desc.init = match r.u8()? {
                        0 => Init::Uninitialized,
                        1 => Init::Zeros { size: usize::try_from(r.u64()?).ok()? },
                        2 => Init::Bytes { contents: r.bytes()?.to_vec().into_boxed_slice() },
                        _ => return None,
                    };
                    for _ in 0..r.count(2)? {
                        desc.function_decls.push(read_target(&mut r)?);
                    }
                    for _ in 0..r.count(2)? {
                        desc.data_decls.push(read_target(&mut r)?);
                    }
                    for _ in 0..r.count(8)? {
                        desc.function_relocs.push((r.u32()?, ir::FuncRef::from_u32(r.u32()?)));
                    }
                    for _ in 0..r.count(16)? {
                        desc.data_relocs.push((r.u32()?, ir::GlobalValue::from_u32(r.u32()?), r.u64()? as i64));
                    }
                    if desc.function_relocs.iter().any(|(_, f)| f.as_u32() as usize >= desc.function_decls.len())
                        || desc.data_relocs.iter().any(|(_, g, _)| g.as_u32() as usize >= desc.data_decls.len())
                    {
                        return None;
                    }
                    desc.custom_section = if r.bool()? { Some(r.string()?) } else { None };
                    desc.align = if r.bool()? { Some(r.u64()?) } else { None };
                    desc.used = r.bool()?;
                    Def::Data { id, desc }
                }
                _ => return None,
            };
            image.defs.push(def);
        }
        let n = r.count(12)?;
        image.exports.reserve_exact(n);
        for _ in 0..n {
            image.exports.push((r.u32()?, r.u32()?, r.u32()?));
        }
        let n = r.count(5)?;
        image.kernels.reserve_exact(n);
        image.kernel_any_thread.reserve_exact(n);
        for _ in 0..n {
            image.kernels.push(r.u32()?);
            image.kernel_any_thread.push(r.bool()?);
        }
        let n = r.count(1)?;
        image.globals.reserve_exact(n);
        for _ in 0..n {
            image.globals.push(if r.bool()? { Some(r.u32()?) } else { None });
        }
        image.clif = r.string()?;
        r.is_empty().then_some(image)
    }
}

/// What the machine code depends on besides the module and the tuning: the
/// target triple, Cranelift's shared settings and the CPU features
/// `cranelift-native` detected (the driver folds it into its disk key, so
/// an image made on another CPU is never loaded here). The settings are
/// hashed as Cranelift hashes them for its own caches (their bytes), not
/// printed: the text of every setting took ~20 µs of a process's first
/// load from the disk cache.
pub fn host_fingerprint() -> String {
    static PRINT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PRINT
        .get_or_init(|| match isa(false) {
            Ok(isa) => {
                use std::hash::{Hash, Hasher};
                // SipHash with fixed keys: the same in every process of a build.
                let mut h = std::hash::DefaultHasher::new();
                isa.flags().hash(&mut h);
                isa.isa_flags_hash_key().hash(&mut h);
                format!("{} {:016x}", isa.triple(), h.finish())
            }
            Err(e) => e,
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_slots_bind_by_their_exact_names() {
        let mut opts = ClifOptions { kernel_slots: vec![10, 20], ..Default::default() };
        opts.symbols.insert("__accjit_launch", 7);
        let table = SymbolTable::new(&opts);
        assert_eq!((table.get(&kernel_slot_symbol(0)), table.get(&kernel_slot_symbol(1))), (Some(10), Some(20)));
        assert_eq!(table.get("__accjit_launch"), Some(7));
        for other in ["__accjit_kernel_slot.2", "__accjit_kernel_slot.01", "__accjit_kernel_slot.+1", "__accjit_kernel_slot.", "__accjit_kernel_slot.x"] {
            assert_eq!(table.get(other), None, "{other}");
        }
    }
}

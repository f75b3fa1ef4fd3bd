//! The pipeline as one call: C source → front end → lower → Cranelift → a
//! loaded [`Program`], cached in-process.
//!
//! ```text
//! compile_c(name, text, opts)
//!   ├─ cache::key(...)            128-bit hash of text, options, device, version
//!   ├─ cache::lookup              hit: validated against the headers it read
//!   ├─ direct::load               a program that reads no header from disk,
//!   │                             from its direct disk entry: no front end, no lower
//!   └─ miss → accjit_front_c::compile    (timed as `parse`)
//!            checked_ir(Parsed)           (debug builds: the IR validator)
//!            accjit_lower::lower          (`lower`)
//!            checked_ir(Lowered)          (debug builds)
//!            rt::Slot per kernel          (runtime kernel slots, before codegen)
//!            accjit_back_clif::compile    (`codegen`), then slot.set_host_fn
//!            nvidia: runtime prewarm, accjit_back_ptx::compile, then slot.set_ptx (`gpu.rs`)
//!   (disk.rs: an entry of the disk cache replaces Cranelift and the PTX back end;
//!    then direct::store keeps the program's direct entry)
//! ```
//!
//! Fortran (`compile_fortran`, several files) and Python kernels
//! (`compile_python`) have front ends of their own and share every stage
//! after them (`build_parsed`) and the cache.
//!
//! A program compiled for `nvidia` carries both forms of every kernel: the
//! Cranelift one (the host fallback of `if(false)`/`self`, and what runs
//! when the current device is host or multicore) and the PTX one. Compiling
//! for nvidia needs no GPU (`accjit ptx`); running on it without one is
//! the runtime's `acc_error_device_type_unavailable`.
//!
//! Every failure is a [`CompileError`] (the first error's headline and all
//! errors rendered with source lines); a panic inside a stage is caught and
//! reported as an internal compiler error, never propagated.

mod cache;
mod ctype;
mod direct;
mod disk;
mod fortran;
mod gpu;
mod hash;
mod program;
mod python;
mod report;
mod rt;

pub use accjit_back_clif::{Trampoline, Tuning};
pub use cache::{
    clear as clear_cache, disk_cache_clear, disk_cache_info, stats as cache_stats, CacheStats, DiskCacheInfo, CAPACITY as CACHE_CAPACITY, ENGINE_VERSION,
};
pub use ctype::{type_name, ParamInfo};
pub use fortran::{compile_fortran, compile_fortran_cached, fortran_sources, is_fortran_file, module_names, ptx_text_fortran, FortranInfo, FORTRAN_EXTENSIONS};
pub use hash::{hash128, Hasher128};
pub use program::{run_main, FunctionInfo, Program, RunError, Timings};
pub use python::{compile_python, PyKernel};
pub use report::{LoopReport, RegionReport, Report};

use accjit_ir::validate::Stage;
use accjit_ir::{Diagnostic, Diagnostics, Module, Severity, SourceMap, Span};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// The device types this build can compile for (nvidia also without a
/// GPU: the PTX is generated here, loaded by the runtime).
pub const DEVICE_TYPES: &[&str] = &["multicore", "host", "nvidia"];

/// Options of one compilation.
#[derive(Clone, Debug)]
pub struct Options {
    /// "multicore" (default), "host" or "nvidia"; `acc_device_` prefixes and case are ignored.
    pub device_type: String,
    /// `-D name[=value]`, in order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U name`
    pub undefines: Vec<String>,
    /// `-I dir`
    pub include_dirs: Vec<PathBuf>,
    /// Keep CLIF text for [`Program::clif`].
    pub keep_clif: bool,
    /// Back-end tuning and checks; the default is [`BackEndOptions::from_env`].
    pub back_end: BackEndOptions,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            device_type: "multicore".into(),
            defines: vec![],
            undefines: vec![],
            include_dirs: vec![],
            keep_clif: false,
            back_end: BackEndOptions::from_env(),
        }
    }
}

/// What the back end is told beyond the module: code-generation tuning
/// (speed only, never results) and debugging aids. Read from the
/// environment here, once per process, so no back end reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackEndOptions {
    pub tuning: accjit_back_clif::Tuning,
    /// The PTX back end's optimisations: `ACCJIT_PTX_NO_UNROLL`,
    /// `ACCJIT_PTX_NO_TILES`, `ACCJIT_PTX_NO_STRENGTH`, `ACCJIT_PTX_NO_GLOBAL`
    /// turn one off (for comparisons; results never change);
    /// `ACCJIT_PTX_TUNE="key=value,..."` sets any knob by name.
    pub ptx: accjit_back_ptx::Tuning,
    /// Run Cranelift's verifier (always on in debug builds): `ACCJIT_CLIF_VERIFY`.
    pub clif_verify: bool,
    /// `accjit clif` adds the machine code: `ACCJIT_DISASM`.
    pub disasm: bool,
}

impl BackEndOptions {
    /// The PTX back end's options for these settings.
    pub fn ptx_options(&self) -> accjit_back_ptx::PtxOptions {
        accjit_back_ptx::PtxOptions { tuning: self.ptx, ..Default::default() }
    }

    /// The documented environment variables (README) over this CPU's
    /// defaults: `ACCJIT_NO_SIMD`, `ACCJIT_NO_AVX512`,
    /// `ACCJIT_NONTEMPORAL_BYTES=n`, `ACCJIT_NO_NONTEMPORAL`, `ACCJIT_NO_STREAMS`,
    /// `ACCJIT_CLIF_VERIFY`, `ACCJIT_DISASM` (set = on, whatever the value).
    pub fn from_env() -> BackEndOptions {
        static FROM_ENV: std::sync::OnceLock<BackEndOptions> = std::sync::OnceLock::new();
        *FROM_ENV.get_or_init(|| {
            let set = |name: &str| std::env::var_os(name).is_some();
            let mut tuning = accjit_back_clif::Tuning::default();
            if set("ACCJIT_NO_SIMD") {
                tuning.simd = false;
                tuning.avx512 = false;
            }
            if set("ACCJIT_NO_AVX512") {
                tuning.avx512 = false;
            }
            if let Some(n) = std::env::var("ACCJIT_NONTEMPORAL_BYTES").ok().and_then(|v| v.trim().parse::<i64>().ok()) {
                tuning.nontemporal_bytes = accjit_back_clif::NonTemporal::Bytes(n);
            }
            if set("ACCJIT_NO_NONTEMPORAL") {
                tuning.nontemporal_bytes = accjit_back_clif::NonTemporal::Off;
            }
            if set("ACCJIT_NO_STREAMS") {
                tuning.streams = false;
            }
            let mut ptx = accjit_back_ptx::Tuning {
                unroll: !set("ACCJIT_PTX_NO_UNROLL"),
                tiles: !set("ACCJIT_PTX_NO_TILES"),
                strength: !set("ACCJIT_PTX_NO_STRENGTH"),
                global_loads: !set("ACCJIT_PTX_NO_GLOBAL"),
                // On by default (contraction, as nvcc); ACCJIT_PTX_FMA=0 turns it off.
                fma: std::env::var("ACCJIT_PTX_FMA").map_or(accjit_back_ptx::Tuning::default().fma, |v| !matches!(v.trim(), "0" | "off" | "no" | "false")),
                seq_unroll: std::env::var("ACCJIT_PTX_SEQ_UNROLL")
                    .ok()
                    .and_then(|v| v.trim().parse::<u32>().ok())
                    .unwrap_or(accjit_back_ptx::Tuning::default().seq_unroll)
                    .clamp(1, 16),
                ..Default::default()
            };
            // Every knob by name, for comparisons in one sitting (`Tuning::apply`).
            if let Ok(spec) = std::env::var("ACCJIT_PTX_TUNE") {
                if let Err(e) = ptx.apply(&spec) {
                    eprintln!("accjit: ACCJIT_PTX_TUNE: {e}");
                }
            }
            BackEndOptions { tuning, ptx, clif_verify: set("ACCJIT_CLIF_VERIFY"), disasm: set("ACCJIT_DISASM") }
        })
    }
}

/// A failed compilation.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileError {
    /// `file:line:col: error: message` of the first error.
    pub headline: String,
    /// Every error with its source line and caret.
    pub rendered: String,
    /// Location of the first error (`file` empty, `line`/`col` 0 when unknown).
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.headline)
    }
}

impl std::error::Error for CompileError {}

impl CompileError {
    fn from_diagnostics(diags: &Diagnostics, sm: &SourceMap) -> CompileError {
        let first = diags.0.iter().find(|d| d.severity == Severity::Error).or(diags.0.first());
        let Some(first) = first else {
            return CompileError::plain("error: compilation failed without a diagnostic");
        };
        let (file, line, col) = match sm.file(first.span.file) {
            Some(f) => {
                let (l, c) = f.line_col(first.span.lo);
                (f.name.clone(), l, c)
            }
            None => (String::new(), 0, 0),
        };
        let headline = if first.span.is_dummy() || sm.file(first.span.file).is_none() { format!("error: {}", first.message) } else { first.headline(sm) };
        let rendered =
            diags.0.iter().map(|d| if d.span.is_dummy() || sm.file(d.span.file).is_none() { render_unplaced(d) } else { d.render(sm) }).collect::<String>();
        CompileError { headline, rendered, file, line, col }
    }

    fn plain(msg: impl Into<String>) -> CompileError {
        let headline = msg.into();
        CompileError { rendered: format!("{headline}\n"), headline, file: String::new(), line: 0, col: 0 }
    }
}

fn render_unplaced(d: &Diagnostic) -> String {
    let sev = if d.severity == Severity::Error { "error" } else { "warning" };
    let mut s = format!("{sev}: {}\n", d.message);
    if let Some(h) = &d.hint {
        s.push_str(&format!("  = hint: {h}\n"));
    }
    s
}

/// Canonical device type name, or an error naming the supported ones.
pub fn normalize_device_type(dev: &str) -> Result<String, CompileError> {
    let d = dev.trim().to_ascii_lowercase();
    let d = d.trim_start_matches("acc_device_");
    let d = match d {
        "" | "default" | "multicore" | "cpu" => "multicore",
        "host" => "host",
        "nvidia" => "nvidia",
        other => {
            return Err(CompileError::plain(format!("error: device type '{other}' is not available in this build (available: {})", DEVICE_TYPES.join(", "))))
        }
    };
    Ok(d.to_string())
}

/// Makes what every compilation and every load from the disk cache of the
/// process needs and is the same for all of them: the host's Cranelift
/// ISA and its fingerprint (the `cpuid`s of CPU feature detection, each a
/// VM exit on a virtual machine), the engine's build id and the runtime's
/// symbol table. The Python extension calls it when it is imported (~0.1
/// ms there, on an import of ~0.2 s), so that the first `acc.c` does not
/// pay it; calling it again costs nothing. It starts no thread and holds
/// no lock afterwards (a later `fork` is safe), and reads no environment
/// variable (the back-end options are read at the first compilation, as
/// before).
pub fn warm_up() {
    let _ = accjit_back_clif::host_fingerprint();
    let _ = disk::build_id();
    let _ = rt::symbols();
}

/// The `Debug` text of back-end options, which the disk keys hash: made
/// once for the options every compilation of a process normally has.
pub(crate) fn back_end_text(b: &BackEndOptions) -> std::borrow::Cow<'static, str> {
    static USUAL: std::sync::OnceLock<(BackEndOptions, String)> = std::sync::OnceLock::new();
    let (usual, text) = USUAL.get_or_init(|| {
        let b = BackEndOptions::from_env();
        (b, format!("{b:?}"))
    });
    if b == usual {
        std::borrow::Cow::Borrowed(text.as_str())
    } else {
        std::borrow::Cow::Owned(format!("{b:?}"))
    }
}

/// Compile `text` (shown as `name` in diagnostics) or fetch it from the cache.
pub fn compile_c(name: &str, text: &str, opts: &Options) -> Result<Arc<Program>, CompileError> {
    compile_c_cached(name, text, opts).map(|(p, _)| p)
}

/// As [`compile_c`], also saying whether the program came from the cache.
pub fn compile_c_cached(name: &str, text: &str, opts: &Options) -> Result<(Arc<Program>, bool), CompileError> {
    let device = normalize_device_type(&opts.device_type)?;
    let key = cache::key(name, text, opts, &device);
    if let Some(p) = cache::lookup(key) {
        return Ok((p, true));
    }
    let _guard = cache::compile_lock();
    if let Some(p) = cache::peek(key) {
        return Ok((p, true));
    }
    cache::COMPILATIONS.fetch_add(1, Ordering::Relaxed);
    if let Some(program) = direct::load(name, text, opts, &device, key) {
        let program = Arc::new(program);
        // It read no file from disk (`direct.rs`): nothing to revalidate.
        cache::insert_without_deps(key, program.clone());
        return Ok((program, false));
    }
    let program = Arc::new(build(name, text, opts, &device, key)?);
    cache::insert(key, program.clone());
    Ok((program, false))
}

/// Run one stage, turning a panic into an internal-compiler-error diagnostic.
fn guarded<T>(stage: &str, f: impl FnOnce() -> Result<T, Diagnostics>) -> Result<T, Diagnostics> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(Diagnostic::error(Span::DUMMY, format!("internal compiler error in {stage}: {msg}"))
                .with_hint("this is a bug in accjit; please report it with the source that triggered it")
                .into())
        }
    }
}

fn build(name: &str, text: &str, opts: &Options, device: &str, key: u128) -> Result<Program, CompileError> {
    let t0 = Instant::now();
    let (sm, module) = parse_c(name, text, opts)?;
    let (program, entry) = build_parsed_entry(name, sm, module, opts, device, t0, key)?;
    if let Some(entry) = entry {
        direct::store(text, opts, device, key, &program, &entry);
    }
    Ok(program)
}

/// The C front end.
fn parse_c(name: &str, text: &str, opts: &Options) -> Result<(SourceMap, Module), CompileError> {
    let mut sm = SourceMap::new();
    let fe_opts = accjit_front_c::CompileOptions { defines: opts.defines.clone(), undefines: opts.undefines.clone(), include_dirs: opts.include_dirs.clone() };
    let parsed = guarded("the C front end", || accjit_front_c::compile(&mut sm, name, text, &fe_opts));
    let module = parsed.map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    checked_ir(&module, Stage::Parsed, "the C front end").map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    Ok((sm, module))
}

/// The C front end and `lower`, with the compile report (less the PTX's
/// thread blocks): what a program loaded without its IR makes again
/// (`direct.rs`).
fn lower_c(name: &str, text: &str, opts: &Options, device: &str) -> Result<(SourceMap, Module, Report), CompileError> {
    let (sm, mut module) = parse_c(name, text, opts)?;
    let written = lower_written(&sm, &mut module, device)?;
    let report = written.finish(&module, &sm);
    Ok((sm, module, report))
}

/// `lower` for `device`, with the first step of the report (what the front
/// end wrote) read before it.
fn lower_written(sm: &SourceMap, module: &mut Module, device: &str) -> Result<report::Written, CompileError> {
    let written = report::Written::of(module, sm, device);
    let lower_opts = accjit_lower::LowerOptions { device_type: device.to_string() };
    // With the source map, runtime messages name `file.c:LINE`.
    guarded("lower", || accjit_lower::lower_with_sources(module, &lower_opts, Some(sm))).map_err(|d| CompileError::from_diagnostics(&d, sm))?;
    checked_ir(module, Stage::Lowered, "lower").map_err(|d| CompileError::from_diagnostics(&d, sm))?;
    Ok(written)
}

/// The Cranelift options of a compilation whose kernels have `slots`.
fn clif_options(opts: &Options, slots: &[rt::Slot]) -> accjit_back_clif::ClifOptions {
    accjit_back_clif::ClifOptions {
        symbols: rt::symbols(),
        kernel_slots: slots.iter().map(|s| s.addr()).collect(),
        keep_clif: opts.keep_clif,
        disasm: opts.back_end.disasm,
        verify: opts.back_end.clif_verify,
    }
}

/// The stages after a front end, for every source language: `lower`, the
/// Cranelift back end, the kernel slots and (nvidia) the PTX. `t0` is when
/// the front end started (the `parse` time runs from it to now). `key` is
/// the in-process cache key: with the source map's files it keys the disk
/// cache, whose entry replaces the two back ends when it is there
/// (`disk.rs`).
fn build_parsed(name: &str, sm: SourceMap, module: Module, opts: &Options, device: &str, t0: Instant, key: u128) -> Result<Program, CompileError> {
    build_parsed_entry(name, sm, module, opts, device, t0, key).map(|(p, _)| p)
}

/// [`build_parsed`], also returning the program's entry of the disk cache
/// (`disk::encode`d; `None` when the code has no image).
fn build_parsed_entry(
    name: &str,
    sm: SourceMap,
    mut module: Module,
    opts: &Options,
    device: &str,
    t0: Instant,
    key: u128,
) -> Result<(Program, Option<Vec<u8>>), CompileError> {
    let t1 = Instant::now();
    let written = lower_written(&sm, &mut module, device)?;
    let t2 = Instant::now();

    let slots: Vec<rt::Slot> = module.kernels.iter().map(rt::Slot::for_kernel).collect();
    let clif_opts = clif_options(opts, &slots);
    let nvidia = device == "nvidia";
    let disk_key = disk::key(key, &sm, opts, device);
    let cached = disk::load(&disk_key).filter(|(e, _)| e.ptx.is_some() == nvidia).and_then(|(e, bytes)| {
        // The GPU module loads (on the CUDA layer's thread) while the image does.
        let ptx = e.ptx.map(gpu::early);
        let compiled = accjit_back_clif::image::load(&module, &e.image, &clif_opts).ok()?;
        Some((compiled, ptx, Some(bytes)))
    });
    let from_disk = cached.is_some();
    let (compiled, ptx, entry) = match cached {
        Some(c) => c,
        None => {
            let tuning = opts.back_end.tuning;
            let mut compiled = guarded("the Cranelift back end", || accjit_back_clif::compile_tuned(&module, &clif_opts, tuning))
                .map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
            let ptx = if nvidia {
                // The program will run on a GPU: the driver's start-up, device
                // 0's context and the PTX JIT load on background threads while
                // the PTX is generated. Not before the Cranelift code (the
                // JIT library's dlopen holds the loader lock that resolving
                // its symbols needs) and not on a disk-cache hit, whose cubin
                // is normally cached too: warming the JIT then only made the
                // load of the image and the first launch wait for the loader
                // and the driver (~1.5 ms on the H100).
                accjit_runtime::cuda::prewarm();
                Some(gpu::compile_ptx(&module, &opts.back_end.ptx_options()).map_err(|d| CompileError::from_diagnostics(&d, &sm))?)
            } else {
                None
            };
            let entry = compiled.take_image().map(|image| disk::encode(&image, ptx.as_ref()));
            if let Some(entry) = &entry {
                disk::store(&disk_key, entry);
            }
            (compiled, ptx.map(gpu::early), entry)
        }
    };
    if compiled.kernels.len() != slots.len() {
        return Err(CompileError::plain(format!(
            "error: internal compiler error: back end produced {} kernels for {} outlined regions",
            compiled.kernels.len(),
            slots.len()
        )));
    }
    for ((slot, &addr), &any) in slots.iter().zip(&compiled.kernels).zip(&compiled.kernel_any_thread) {
        slot.set_host_fn(addr, any);
    }
    let blocks = match ptx {
        Some(ptx) => {
            gpu::attach_ptx(&program::GlobalFacts::of(&module), &compiled.globals, &slots, ptx).map_err(|d| CompileError::from_diagnostics(&d, &sm))?
        }
        None => vec![],
    };
    let t3 = Instant::now();
    let timings = Timings { parse: t1 - t0, lower: t2 - t1, codegen: t3 - t2, total: t3 - t0, from_disk };
    let mut report = written.finish(&module, &sm);
    report.add_blocks(&module, &blocks);
    let mut program = Program::new(name.to_string(), device.to_string(), sm, module, slots, compiled, timings);
    program.set_report(report);
    Ok((program, entry))
}

/// In debug builds, the IR validator between stages: a module that breaks
/// an invariant of `stage` is an internal compiler error naming the stage
/// that produced it (each finding with its span), not a panic or a
/// miscompilation further on. Release builds skip the check.
fn checked_ir(module: &Module, stage: Stage, producer: &str) -> Result<(), Diagnostics> {
    if !cfg!(debug_assertions) {
        return Ok(());
    }
    guarded("the IR validator", || accjit_ir::validate::validate(module, stage)).map_err(|d| {
        let hint = "this is a bug in accjit; please report it with the source that triggered it";
        let errs =
            d.0.into_iter()
                .map(|e| Diagnostic { message: format!("internal compiler error: {producer} produced invalid IR: {}", e.message), ..e }.with_hint(hint));
        Diagnostics(errs.collect())
    })
}

/// The PTX of a C program's kernels for the nvidia device (`accjit ptx`):
/// front end, `lower` for device type "nvidia", then the PTX back end.
/// Nothing is loaded or run; no GPU is needed.
pub fn ptx_text(name: &str, text: &str, opts: &Options) -> Result<String, CompileError> {
    let (sm, mut module) = parse_c(name, text, opts)?;
    lower_for_ptx(&mut module, &sm)?;
    module_ptx_with(&module, &sm, &opts.back_end)
}

/// `lower` for the nvidia device (what `accjit ptx` shows).
fn lower_for_ptx(module: &mut Module, sm: &SourceMap) -> Result<(), CompileError> {
    let lower_opts = accjit_lower::LowerOptions { device_type: "nvidia".into() };
    guarded("lower", || accjit_lower::lower_with_sources(module, &lower_opts, Some(sm))).map_err(|d| CompileError::from_diagnostics(&d, sm))?;
    checked_ir(module, Stage::Lowered, "lower").map_err(|d| CompileError::from_diagnostics(&d, sm))
}

/// The PTX of a lowered module's kernels (`Program.ptx()`: the program's
/// own lowering, for the device type it was compiled for).
pub fn module_ptx(module: &Module, sm: &SourceMap) -> Result<String, CompileError> {
    module_ptx_with(module, sm, &BackEndOptions::from_env())
}

fn module_ptx_with(module: &Module, sm: &SourceMap, back_end: &BackEndOptions) -> Result<String, CompileError> {
    let opts = back_end.ptx_options();
    guarded("the PTX back end", || accjit_back_ptx::compile(module, &opts)).map(|p| p.text).map_err(|d| CompileError::from_diagnostics(&d, sm))
}

/// The text form of a lowered module (`accjit ir`).
pub fn ir_text(module: &Module) -> String {
    accjit_ir::print::module_to_string(module)
}

#[cfg(test)]
mod tests;

//! The JIT module of one compiled IR module: target set-up, symbol
//! resolution, declarations, global data with relocations, the driver that
//! compiles every function/kernel/trampoline, and finalisation.
//!
//! Symbols: names in `ClifOptions::symbols` win, then `dlsym(RTLD_DEFAULT)` in
//! the process (libm is `dlopen`ed once, `RTLD_GLOBAL`, so that math functions
//! resolve even when the host binary does not link it). Every import is
//! resolved *before* it is declared, so an unknown name becomes a diagnostic
//! ("undefined reference to 'foo'") instead of a panic at finalisation.
//! Externs and imported data are declared lazily, on first use: headers
//! declare far more than a program calls.

use std::collections::{HashMap, HashSet};
use std::ffi::CString;
use std::sync::OnceLock;

use accjit_ir::{align_of, size_of, Diagnostic, Diagnostics, ExternId, GlobalId, Linkage, Module, RelocTarget, Span};
use cranelift_codegen::ir::Signature;
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::{CodegenError, Context};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, DataDescription, DataId, FuncId, Module as _, ModuleError};

use crate::image::SymbolTable;
use crate::{abi, function, kernel, trampoline, ClifOptions, CompiledFunction, CompiledModule, Tuning};

/// Owns the JIT memory of a compiled module; frees it on drop.
pub struct CodeMemory(Option<JITModule>);

impl CodeMemory {
    pub(crate) fn new(jit: JITModule) -> CodeMemory {
        CodeMemory(Some(jit))
    }
}

// SAFETY: the `JITModule` is never used again after finalisation except to
// free its memory in `drop`, which needs exclusive ownership (`&mut self`).
// Its interior `RefCell`s and raw pointers are thus never touched from two
// threads at once, so sending or sharing the owner between threads is sound.
unsafe impl Send for CodeMemory {}
unsafe impl Sync for CodeMemory {}

impl Drop for CodeMemory {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: the owning `CompiledModule` is being dropped, so no
            // trampoline/kernel pointer obtained from it may be called any more.
            unsafe { m.free_memory() }
        }
    }
}

/// The host's ISA, with or without the Cranelift verifier (made once each).
pub(crate) fn isa(verify: bool) -> Result<OwnedTargetIsa, String> {
    static ISA: [OnceLock<Result<OwnedTargetIsa, String>>; 2] = [OnceLock::new(), OnceLock::new()];
    let verify = cfg!(debug_assertions) || verify;
    ISA[verify as usize]
        .get_or_init(|| {
            let mut fb = settings::builder();
            let flags = [
                ("opt_level", "speed"),
                ("enable_verifier", if verify { "true" } else { "false" }),
                ("use_colocated_libcalls", "false"),
                ("is_pic", "false"),
                ("enable_probestack", "true"),
                ("probestack_strategy", "inline"),
            ];
            for (k, v) in flags {
                fb.set(k, v).map_err(|e| format!("Cranelift setting {k}={v}: {e}"))?;
            }
            let ib = cranelift_native::builder().map_err(|e| format!("this host is not supported by Cranelift: {e}"))?;
            ib.finish(settings::Flags::new(fb)).map_err(|e| format!("Cranelift target set-up failed: {e}"))
        })
        .clone()
}

pub(crate) fn load_libm() {
    static ONCE: OnceLock<()> = OnceLock::new();
    ONCE.get_or_init(|| {
        for name in [c"libm.so.6", c"libm.so", c"libm.dylib"] {
            // SAFETY: dlopen with a valid C string; the handle is kept forever.
            let h = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
            if !h.is_null() {
                break;
            }
        }
    });
}

/// The address of `name`: `symbols` first, then the process (`dlsym`).
pub(crate) fn resolve(symbols: &SymbolTable, name: &str) -> Option<usize> {
    if let Some(a) = symbols.get(name) {
        return Some(a);
    }
    let c = CString::new(name).ok()?;
    // SAFETY: dlsym with a valid C string.
    let p = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c.as_ptr()) };
    (!p.is_null()).then_some(p as usize)
}

pub fn undefined(name: &str, span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("undefined reference to '{name}'"))
}

/// Module-wide state shared by every function being compiled.
pub struct ModuleCx<'m> {
    pub jit: JITModule,
    pub ir: &'m Module,
    pub opts: &'m ClifOptions,
    pub cc: CallConv,
    pub symbols: SymbolTable,
    /// Per IR function (None when its signature could not be lowered).
    pub funcs: Vec<Option<FuncId>>,
    pub kernels: Vec<FuncId>,
    /// Per IR global; imports are declared on first use.
    pub globals: Vec<Option<DataId>>,
    pub externs: Vec<Option<FuncId>>,
    /// Per IR function: takes the caller's gang index/count (see `function::uses_gang`).
    pub gang_fns: Vec<bool>,
    /// Imported functions by symbol name (externs, runtime helpers, shims).
    pub imports: HashMap<String, FuncId>,
    /// Functions a kernel that may run on any thread may call (`any_thread`).
    pub any_thread_funcs: HashSet<FuncId>,
    /// Per kernel: may run on any thread (set when it is compiled).
    pub kernel_any_thread: Vec<bool>,
    strings: HashMap<String, DataId>,
    pub clif: String,
    /// Emit SIMD loops where `simd::plan` allows (`Tuning::simd`).
    pub simd: bool,
    /// Use AVX-512 code for vector loops where possible (`Tuning::avx512`).
    pub avx512: bool,
    /// `Tuning::nontemporal_bytes`, resolved.
    pub nontemporal_bytes: Option<i64>,
    /// `Tuning::streams`.
    pub strength_reduce: bool,
    /// AVX-512 functions placed so far (their names are numbered).
    pub natives: u32,
    /// Lane counts of the loops vectorised in the function being compiled.
    pub vectorised: Vec<u32>,
    /// Reduction loops unrolled (scalar, four accumulators) in it.
    pub unrolled: u32,
    /// Comments printed above blocks of the function being compiled in the
    /// CLIF text (which loop a block heads: vector, scalar remainder, …).
    pub block_notes: HashMap<cranelift_codegen::ir::Block, String>,
    /// Every definition, for the module's [`crate::image::Image`].
    pub(crate) recorder: crate::image::Recorder,
    /// Kernel slot data symbols declared so far, per kernel.
    pub kernel_slot_data: HashMap<usize, DataId>,
}

/// Prints CLIF with `ModuleCx::block_notes` above their blocks.
struct NotedWriter<'a>(&'a HashMap<cranelift_codegen::ir::Block, String>);

impl cranelift_codegen::write::FuncWriter for NotedWriter<'_> {
    fn write_block_header(
        &mut self,
        w: &mut dyn std::fmt::Write,
        func: &cranelift_codegen::ir::Function,
        block: cranelift_codegen::ir::Block,
        indent: usize,
    ) -> std::fmt::Result {
        if let Some(note) = self.0.get(&block) {
            writeln!(w, "; {note}")?;
        }
        cranelift_codegen::write::FuncWriter::write_block_header(&mut cranelift_codegen::write::PlainWriter, w, func, block, indent)
    }

    fn write_instruction(
        &mut self,
        w: &mut dyn std::fmt::Write,
        func: &cranelift_codegen::ir::Function,
        aliases: &cranelift_codegen::entity::SecondaryMap<cranelift_codegen::ir::Value, Vec<cranelift_codegen::ir::Value>>,
        inst: cranelift_codegen::ir::Inst,
        indent: usize,
    ) -> std::fmt::Result {
        cranelift_codegen::write::FuncWriter::write_instruction(&mut cranelift_codegen::write::PlainWriter, w, func, aliases, inst, indent)
    }
}

impl<'m> ModuleCx<'m> {
    /// Import a function by name with the given native signature.
    pub fn import(&mut self, name: &str, sig: &Signature, span: Span) -> Result<FuncId, Diagnostic> {
        if let Some(&id) = self.imports.get(name) {
            return Ok(id);
        }
        if resolve(&self.symbols, name).is_none() {
            return Err(undefined(name, span));
        }
        let id = self
            .jit
            .declare_function(name, cranelift_module::Linkage::Import, sig)
            .map_err(|e| Diagnostic::error(span, format!("cannot declare '{name}': {e}")))?;
        self.imports.insert(name.to_string(), id);
        if crate::any_thread::symbol_allowed(name) {
            self.any_thread_funcs.insert(id);
        }
        Ok(id)
    }

    /// The declaration of extern function `id` (its own C signature).
    pub fn extern_func(&mut self, id: ExternId) -> Result<FuncId, Diagnostic> {
        if let Some(f) = self.externs[id.index()] {
            return Ok(f);
        }
        let e = &self.ir.externs[id.index()];
        let sig = abi::signature(&e.sig, self.cc, true, &self.ir.structs, false)
            .map_err(|what| Diagnostic::error(e.span, format!("{what} ('{}') is not supported by the Cranelift back end", e.name)))?;
        let f = self.import(&e.name, &sig, e.span)?;
        self.externs[id.index()] = Some(f);
        Ok(f)
    }

    /// The data object of global `id` (imports resolved on first use).
    pub fn global_data(&mut self, id: GlobalId, span: Span) -> Result<DataId, Diagnostic> {
        if let Some(d) = self.globals[id.index()] {
            return Ok(d);
        }
        let g = &self.ir.globals[id.index()];
        if resolve(&self.symbols, &g.name).is_none() {
            return Err(undefined(&g.name, if g.span.is_dummy() { span } else { g.span }));
        }
        let d = self
            .jit
            .declare_data(&g.name, cranelift_module::Linkage::Import, true, false)
            .map_err(|e| Diagnostic::error(g.span, format!("cannot declare '{}': {e}", g.name)))?;
        self.globals[id.index()] = Some(d);
        Ok(d)
    }

    /// A constant NUL-terminated string (for runtime `loc`/`name` arguments).
    pub fn cstring(&mut self, s: &str, span: Span) -> Result<DataId, Diagnostic> {
        if let Some(&d) = self.strings.get(s) {
            return Ok(d);
        }
        let name = format!("str.{}", self.strings.len());
        let err = |e: ModuleError| Diagnostic::error(span, format!("cannot define string constant: {e}"));
        let d = self.jit.declare_data(&name, cranelift_module::Linkage::Local, false, false).map_err(err)?;
        let mut desc = DataDescription::new();
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        desc.define(bytes.into_boxed_slice());
        self.jit.define_data(d, &desc).map_err(err)?;
        self.recorder.data(d, &desc);
        self.strings.insert(s.to_string(), d);
        Ok(d)
    }

    /// Hand a built function to Cranelift (keeping its text when asked).
    pub fn define(&mut self, id: FuncId, ctx: &mut Context, what: &str, span: Span) -> Result<(), Diagnostic> {
        if self.opts.keep_clif {
            let mut simd = match self.vectorised.as_slice() {
                [] => String::new(),
                lanes => format!(
                    " (SIMD: {} loop{} of {} lanes)",
                    lanes.len(),
                    if lanes.len() == 1 { "" } else { "s" },
                    lanes.iter().map(|l| l.to_string()).collect::<Vec<_>>().join("/")
                ),
            };
            if self.unrolled > 0 {
                simd.push_str(&format!(" (unrolled reduction loops: {})", self.unrolled));
            }
            let mut text = String::new();
            let _ = cranelift_codegen::write::decorate_function(&mut NotedWriter(&self.block_notes), &mut text, &ctx.func);
            self.clif.push_str(&format!("; {what}{simd}\n{text}\n"));
        }
        let disasm = self.opts.keep_clif && self.opts.disasm;
        ctx.set_disasm(disasm);
        let r = self.jit.define_function(id, ctx);
        if r.is_ok() {
            self.recorder.function(id, ctx);
        }
        if disasm {
            if let Some(text) = ctx.compiled_code().and_then(|c| c.vcode.as_ref()) {
                self.clif.push_str(&format!("; machine code of {what}\n{text}\n"));
            }
        }
        r.map_err(|e| {
            let msg = match &e {
                ModuleError::Compilation(CodegenError::Verifier(errs)) => {
                    format!("internal error: Cranelift verifier rejected {what}:\n{errs}")
                }
                ModuleError::Compilation(CodegenError::Unsupported(s)) => {
                    format!("{s} is not supported by the Cranelift back end (in {what})")
                }
                _ => format!("Cranelift failed to compile {what}: {e}"),
            };
            Diagnostic::error(span, msg)
        })
    }

    fn declare_functions(&mut self, diags: &mut Vec<Diagnostic>) {
        for (i, f) in self.ir.functions.iter().enumerate() {
            self.gang_fns.push(function::uses_gang(f));
            let sig = match abi::signature(&function::compiled_sig(f), self.cc, false, &self.ir.structs, self.gang_fns[i]) {
                Ok(s) => s,
                Err(what) => {
                    diags.push(Diagnostic::error(f.span, format!("{what} is not supported by the Cranelift back end")));
                    self.funcs.push(None);
                    continue;
                }
            };
            match self.jit.declare_function(&format!("f{i}.{}", f.name), cranelift_module::Linkage::Local, &sig) {
                Ok(id) => self.funcs.push(Some(id)),
                Err(e) => {
                    diags.push(Diagnostic::error(f.span, format!("cannot declare '{}': {e}", f.name)));
                    self.funcs.push(None);
                }
            }
        }
        let ksig = abi::kernel_signature(self.cc);
        for (i, k) in self.ir.kernels.iter().enumerate() {
            match self.jit.declare_function(&format!("k{i}.{}", k.name), cranelift_module::Linkage::Local, &ksig) {
                Ok(id) => self.kernels.push(id),
                Err(e) => diags.push(Diagnostic::error(k.span, format!("cannot declare kernel '{}': {e}", k.name))),
            }
        }
    }

    fn declare_globals(&mut self, diags: &mut Vec<Diagnostic>) {
        for (i, g) in self.ir.globals.iter().enumerate() {
            if g.linkage == Linkage::Import {
                self.globals.push(None);
                continue;
            }
            match self.jit.declare_data(&format!("g{i}.{}", g.name), cranelift_module::Linkage::Local, !g.is_const, false) {
                Ok(d) => self.globals.push(Some(d)),
                Err(e) => {
                    diags.push(Diagnostic::error(g.span, format!("cannot declare global '{}': {e}", g.name)));
                    self.globals.push(None);
                }
            }
        }
    }

    fn define_global(&mut self, i: usize) -> Result<(), Diagnostic> {
        let g = &self.ir.globals[i];
        let Some(d) = self.globals[i] else { return Ok(()) };
        let size = size_of(&g.ty, &self.ir.structs).max(1) as usize;
        let mut desc = DataDescription::new();
        desc.set_align(align_of(&g.ty, &self.ir.structs).max(1));
        match &g.init {
            None => desc.define_zeroinit(size),
            Some(init) => {
                let mut bytes = init.bytes.clone();
                bytes.resize(size.max(bytes.len()), 0);
                desc.define(bytes.into_boxed_slice());
                for r in &init.relocs {
                    let off = u32::try_from(r.offset).map_err(|_| Diagnostic::error(g.span, "relocation offset out of range"))?;
                    match r.target {
                        RelocTarget::Global(t) => {
                            let td = self.global_data(t, g.span)?;
                            let gv = self.jit.declare_data_in_data(td, &mut desc);
                            desc.write_data_addr(off, gv, r.addend);
                        }
                        RelocTarget::Func(_) | RelocTarget::Extern(_) if r.addend != 0 => {
                            return Err(Diagnostic::error(
                                g.span,
                                "an offset from a function address in an initialiser is not supported by the Cranelift back end",
                            ));
                        }
                        RelocTarget::Func(f) => {
                            let Some(fid) = self.funcs[f.index()] else { continue };
                            let fr = self.jit.declare_func_in_data(fid, &mut desc);
                            desc.write_function_addr(off, fr);
                        }
                        RelocTarget::Extern(e) => {
                            let fid = self.extern_func(e)?;
                            let fr = self.jit.declare_func_in_data(fid, &mut desc);
                            desc.write_function_addr(off, fr);
                        }
                    }
                }
            }
        }
        self.jit.define_data(d, &desc).map_err(|e| Diagnostic::error(g.span, format!("cannot define global '{}': {e}", g.name)))?;
        self.recorder.data(d, &desc);
        Ok(())
    }

    /// The imported data symbol whose address is kernel `k`'s runtime slot
    /// (bound at link time, so that no address is baked into the code).
    pub fn kernel_slot(&mut self, k: usize, span: Span) -> Result<DataId, Diagnostic> {
        if let Some(&d) = self.kernel_slot_data.get(&k) {
            return Ok(d);
        }
        let name = crate::image::kernel_slot_symbol(k);
        if self.symbols.get(&name).is_none() {
            return Err(Diagnostic::error(span, format!("no runtime kernel slot was given for kernel {k}")));
        }
        let d = self
            .jit
            .declare_data(&name, cranelift_module::Linkage::Import, true, false)
            .map_err(|e| Diagnostic::error(span, format!("cannot declare '{name}': {e}")))?;
        self.kernel_slot_data.insert(k, d);
        Ok(d)
    }
}

/// Compile, link and finalise a whole module.
pub fn compile_module(m: &Module, opts: &ClifOptions, tuning: Tuning) -> Result<CompiledModule, Diagnostics> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| compile_module_inner(m, opts, tuning))) {
        Ok(r) => r,
        Err(p) => {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_else(|| "unknown panic".into());
            Err(Diagnostic::error(Span::DUMMY, format!("internal error in the Cranelift back end: {msg}")).into())
        }
    }
}

/// Compile one function or kernel; when code with SIMD loops fails (a
/// vector operation this ISA lacks, say), compile it again with scalar loops.
fn with_scalar_fallback(
    cx: &mut ModuleCx,
    ctx: &mut Context,
    fbc: &mut FunctionBuilderContext,
    compile: impl Fn(&mut ModuleCx, &mut Context, &mut FunctionBuilderContext) -> Result<(), Diagnostic>,
) -> Result<(), Diagnostic> {
    cx.vectorised.clear();
    cx.unrolled = 0;
    cx.block_notes.clear();
    let clif_len = cx.clif.len();
    let r = compile(cx, ctx, fbc);
    let r = match r {
        Err(d) if !cx.vectorised.is_empty() || cx.unrolled > 0 => {
            cx.jit.clear_context(ctx);
            *fbc = FunctionBuilderContext::new();
            cx.vectorised.clear();
            cx.unrolled = 0;
            cx.block_notes.clear();
            cx.clif.truncate(clif_len);
            if cx.opts.keep_clif {
                let first = d.message.lines().next().unwrap_or("");
                cx.clif.push_str(&format!("; SIMD code did not compile ({first}); scalar loops below\n"));
            }
            cx.simd = false;
            let r = compile(cx, ctx, fbc);
            cx.simd = true;
            r
        }
        r => r,
    };
    if r.is_err() {
        *fbc = FunctionBuilderContext::new();
    }
    cx.jit.clear_context(ctx);
    cx.vectorised.clear();
    cx.unrolled = 0;
    cx.block_notes.clear();
    r
}

/// One reserved address range for all of a module's code and data.
/// Functions reach each other and the module's globals and constants by
/// 32-bit PC-relative relocations; with the default provider each segment
/// is mapped wherever the kernel puts it, and in a process whose address
/// space is fragmented (the CUDA driver reserves huge ranges) code and data
/// landed more than 2 GiB apart: relocation overflow, a panic inside
/// cranelift-jit. The reservation is address space only (PROT_NONE until
/// used) and is released with the module. `None` (the default provider)
/// when the module cannot fit: globals over ~1.5 GiB, or aligned beyond a page.
pub(crate) fn module_arena(m: &Module) -> Option<cranelift_jit::ArenaMemoryProvider> {
    arena_of(arena_data_bytes(m)?)
}

/// The bytes `m`'s globals take in the arena (with their alignment);
/// `None` when one is aligned beyond a page.
pub(crate) fn arena_data_bytes(m: &Module) -> Option<u64> {
    let mut data = 0u64;
    for g in m.globals.iter().filter(|g| g.linkage != Linkage::Import) {
        let align = align_of(&g.ty, &m.structs).max(1);
        if align > 4096 {
            return None;
        }
        data = data.saturating_add(size_of(&g.ty, &m.structs).max(1).saturating_add(align));
    }
    Some(data)
}

/// The arena for a module whose globals take `data` bytes.
pub(crate) fn arena_of(data: u64) -> Option<cranelift_jit::ArenaMemoryProvider> {
    const CODE_BUDGET: u64 = 256 << 20;
    const LIMIT: u64 = (2 << 30) - (64 << 20);
    let size = CODE_BUDGET.saturating_add(data);
    if size > LIMIT {
        return None;
    }
    cranelift_jit::ArenaMemoryProvider::new_with_size(size as usize).ok()
}

fn compile_module_inner(m: &Module, opts: &ClifOptions, tuning: Tuning) -> Result<CompiledModule, Diagnostics> {
    let isa = isa(opts.verify).map_err(|e| Diagnostics::from(Diagnostic::error(Span::DUMMY, e)))?;
    load_libm();
    let cc = isa.default_call_conv();
    let symbols = SymbolTable::new(opts);
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    if let Some(arena) = module_arena(m) {
        builder.memory_provider(Box::new(arena));
    }
    let table = symbols.clone();
    builder.symbol_lookup_fn(Box::new(move |name| table.get(name).map(|a| a as *const u8)));
    let jit = JITModule::new(builder);
    let mut cx = ModuleCx {
        jit,
        ir: m,
        opts,
        cc,
        symbols,
        funcs: Vec::new(),
        kernels: Vec::new(),
        globals: Vec::new(),
        externs: vec![None; m.externs.len()],
        gang_fns: Vec::new(),
        imports: HashMap::new(),
        any_thread_funcs: HashSet::new(),
        kernel_any_thread: vec![false; m.kernels.len()],
        strings: HashMap::new(),
        clif: String::new(),
        simd: tuning.simd,
        avx512: tuning.avx512,
        nontemporal_bytes: tuning.nontemporal_bytes.bytes(),
        strength_reduce: tuning.streams,
        natives: 0,
        vectorised: Vec::new(),
        unrolled: 0,
        block_notes: HashMap::new(),
        recorder: Default::default(),
        kernel_slot_data: HashMap::new(),
    };
    let mut diags = Vec::new();
    cx.declare_functions(&mut diags);
    cx.declare_globals(&mut diags);
    for i in 0..m.globals.len() {
        if let Err(d) = cx.define_global(i) {
            diags.push(d);
        }
    }
    let mut ctx = cx.jit.make_context();
    let mut fbc = FunctionBuilderContext::new();
    for i in 0..m.functions.len() {
        if cx.funcs[i].is_none() {
            continue;
        }
        if let Err(d) = with_scalar_fallback(&mut cx, &mut ctx, &mut fbc, |cx, ctx, fbc| function::compile_function(cx, i, ctx, fbc)) {
            diags.push(d);
        }
    }
    if cx.kernels.len() == m.kernels.len() {
        for i in 0..m.kernels.len() {
            if let Err(d) = with_scalar_fallback(&mut cx, &mut ctx, &mut fbc, |cx, ctx, fbc| kernel::compile_kernel(cx, i, ctx, fbc)) {
                diags.push(d);
            }
        }
    }
    let mut tramps = Vec::new();
    for (i, f) in m.functions.iter().enumerate() {
        if f.linkage != Linkage::Export || cx.funcs[i].is_none() {
            continue;
        }
        match trampoline::compile_trampoline(&mut cx, i, &mut ctx, &mut fbc) {
            Ok(t) => tramps.push((i, t)),
            Err(d) => {
                diags.push(d);
                fbc = FunctionBuilderContext::new();
            }
        }
        cx.jit.clear_context(&mut ctx);
    }
    if !diags.is_empty() {
        // SAFETY: nothing compiled here was ever run.
        unsafe { cx.jit.free_memory() };
        return Err(Diagnostics(diags));
    }
    if let Err(e) = cx.jit.finalize_definitions() {
        // SAFETY: as above.
        unsafe { cx.jit.free_memory() };
        return Err(Diagnostic::error(Span::DUMMY, format!("JIT finalisation failed: {e}")).into());
    }
    let mut functions = Vec::new();
    let mut exports = Vec::new();
    for (i, t) in tramps {
        let f = &m.functions[i];
        let addr = cx.jit.get_finalized_function(cx.funcs[i].expect("declared")) as usize;
        let taddr = cx.jit.get_finalized_function(t);
        // SAFETY: `t` was compiled with the trampoline signature.
        let trampoline = unsafe { std::mem::transmute::<*const u8, crate::Trampoline>(taddr) };
        functions.push(CompiledFunction { name: f.name.clone(), sig: f.sig.clone(), trampoline, address: addr });
        exports.push((i as u32, cx.funcs[i].expect("declared").as_u32(), t.as_u32()));
    }
    let kernels = cx.kernels.iter().map(|&k| cx.jit.get_finalized_function(k) as usize).collect();
    let mut globals = Vec::new();
    for (i, g) in m.globals.iter().enumerate() {
        let a = match cx.globals[i] {
            Some(d) if g.linkage != Linkage::Import => cx.jit.get_finalized_data(d).0 as usize,
            _ => resolve(&cx.symbols, &g.name).unwrap_or(0),
        };
        globals.push(a);
    }
    let clif = std::mem::take(&mut cx.clif);
    let kernel_any_thread = std::mem::take(&mut cx.kernel_any_thread);
    let image_globals = m.globals.iter().zip(&cx.globals).map(|(g, d)| d.filter(|_| g.linkage != Linkage::Import).map(|d| d.as_u32())).collect();
    let recorder = std::mem::take(&mut cx.recorder);
    let image = recorder.finish(&cx.jit, exports, cx.kernels.iter().map(|k| k.as_u32()).collect(), kernel_any_thread.clone(), image_globals, clif.clone());
    Ok(CompiledModule { functions, kernels, kernel_any_thread, clif, globals, image, _code: CodeMemory(Some(cx.jit)) })
}

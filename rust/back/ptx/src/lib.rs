//! The NVIDIA back end: PTX text from a lowered IR module's kernels (the
//! host code stays with the Cranelift back end). [`compile`] makes one PTX
//! module per IR module: a `.visible .entry` per `Module::kernels` entry, in
//! order (the kernel ABI of CONTRACT9, `kernel.rs`), a `.func` per function
//! device code calls (`routine.rs`), a `.visible .global` per global device
//! code references (named by [`global_symbol`]; [`PtxModule::globals`] lists
//! them for the runtime), the math library's `.func`s that are used
//! (`libm.rs`), and `vprintf`'s declaration when `printf` is used.
//!
//! The files, one job each:
//! - `ty`: PTX types and state spaces; `emit`: registers, labels, lines;
//! - `func`: per-function state, where locals live; `value`: values,
//!   loads/stores, conversions; `expr`: expressions and operators;
//!   `call`: calls (functions, math, `acc_on_device`); `printf`: `vprintf`;
//!   `iolog`: Fortran `print`/`write` as records for the runtime;
//! - `stmt`: statements and the predication of single-mode side effects;
//! - `kernel`: entry points, the execution model, `AccLoop` partitioning,
//!   broadcasts; `reduce`: reductions; `private`: private copies;
//!   `update`: `#pragma acc atomic`; `routine`: `.func`s;
//! - `libm`, `atomic`: C math functions and atomic emitters (ptxlib).
//!
//! Anything the back end cannot compile for the GPU yet is a diagnostic with
//! the span of the construct ("not supported on the nvidia device yet: …"),
//! never a panic and never wrong PTX.

pub mod atomic;
mod cache;
mod call;
mod emit;
mod expr;
mod func;
mod group;
mod index;
mod iolog;
mod kernel;
pub mod libm;
mod pairs;
mod printf;
pub mod private;
mod reduce;
mod routine;
mod seq_unroll;
mod space;
mod stmt;
mod strength;
pub mod ty;
mod unroll;
mod update;
mod value;

use std::collections::{BTreeMap, BTreeSet};

use accjit_abi::device_end;
use accjit_ir::{Diagnostics, Module};

/// Code-generation options.
#[derive(Clone, Debug)]
pub struct PtxOptions {
    /// The `.target` compute capability (80 = `sm_80`).
    pub sm: u32,
    /// Keep a comment naming each kernel's source construct.
    pub keep_comments: bool,
    /// Loop and memory optimisations (speed only, never results).
    pub tuning: Tuning,
}

impl Default for PtxOptions {
    fn default() -> Self {
        PtxOptions { sm: 80, keep_comments: true, tuning: Tuning::default() }
    }
}

/// The PTX back end's optimisations. The driver sets them (its
/// `BackEndOptions` reads the `ACCJIT_PTX_*` variables once); this crate
/// reads no environment. Those on by default change speed only, never
/// results; turning one off is for comparisons. `fma` is off by default
/// because it changes results (see the field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Unroll one-dimensional partitioned loops ×4 with their leading loads first (`unroll.rs`).
    pub unroll: bool,
    /// 2-D tiles for widened collapsed pairs with a loop in the body (`pairs.rs`).
    pub tiles: bool,
    /// Strength-reduced addresses in counted `for` loops (`strength.rs`).
    pub strength: bool,
    /// `ld.global` through read-only pointer parameters (`space.rs`).
    pub global_loads: bool,
    /// Float `+ - *` without `.rn`, so that ptxas contracts a multiply and
    /// an add into an FMA (as nvcc and NVHPC do by default): one rounding
    /// instead of two, so results may differ from the CPU devices' in the
    /// last bits. On by default since sitting K-a (H100: the naive matmul
    /// 2048² from Python 6.51 -> 7.05 TFLOP/s, the only setting over the
    /// 6.9 target); `fma=0` (`ACCJIT_PTX_FMA=0`) gives results bit for bit
    /// equal to the CPU devices'.
    pub fma: bool,
    /// Counted sequential `for` loops with small straight bodies run up to
    /// this many iterations per test of the condition (`seq_unroll.rs`);
    /// 1: off. Default 16 (naive matmul 2048² on the H100: 4.53 TFLOP/s
    /// off, 5.38 at 8, 5.99 at 16).
    pub seq_unroll: u32,
    /// Threads per block a kernel with vector (or widened gang) loops and
    /// no worker loops suggests (`PtxKernel::vector`; `vector_length` wins).
    pub block: u32,
    /// Threads per block a kernel suggests when it runs a collapsed pair
    /// with an inner loop as tiles (0: `block`).
    pub tile_block: u32,
    /// With `tile_block`: launch bounds for such kernels (`.maxntid
    /// tile_block` and `.minnctapersm` this many blocks; 0: none; default 8,
    /// 64 registers at 128 threads). ptxas
    /// otherwise fitted a matrix product in 32 registers by pairing each of
    /// its unrolled loads with its use (two loads in flight); with bounds it
    /// issues the copies' loads together. A launch with more threads
    /// (`vector_length`) is capped to `tile_block` by the runtime.
    pub tile_min_blocks: u32,
    /// Columns of a 2-D tile of the block (`pairs.rs`): a power of two,
    /// 8..=1024; the block's threads / this many rows.
    pub tile_cols: u32,
    /// 2-D tiles also for widened collapsed pairs whose body holds no loop
    /// (stencils: the block's rows share the lines of their neighbours in L1).
    pub tile_flat_pairs: bool,
    /// Stores through a kernel's pointer parameters as `st.global.cs`
    /// (streaming: evict first) instead of generic `st`.
    pub stream_stores: bool,
    /// Loads through pointer parameters the kernel never stores through as
    /// `ld.global.nc` (read-only path). Off by default: another parameter
    /// may alias the same array and be written (C allows it).
    pub nc_loads: bool,
    /// No block barrier before a kernel's first loop when nothing before it
    /// stores to memory, nor after its last one when nothing follows.
    pub lean_barriers: bool,
    /// In the unrolled part of a counted sequential loop (`seq_unroll`)
    /// whose body stores nothing to memory, the loads at `p + k` of all its
    /// copies as vector loads (`ld.v4.f32`, `ld.v2.f64`) when the address is
    /// 16-byte aligned at run time (the copies' scalar loads otherwise): a
    /// matrix product's row of `P`, one load for four `k`.
    pub seq_vector_loads: bool,
    /// In the same loops, every load through a strength-reduced address of
    /// all the copies issued before the first copy (`p + k*x` at `reg + u·step`).
    pub seq_prefetch: bool,
    /// Unroll collapsed loops too (their iterations' indices stepped with
    /// carries; off: measured slower on the H100 once, Jacobi 1912 -> 1543 GB/s).
    pub unroll_collapsed: bool,
    /// Iterations per trip of an unrolled loop's main loop (`unroll.rs`), 2..=8.
    pub unroll_factor: u32,
    /// Which of its iterations a thread takes together in an unrolled loop.
    pub unroll_map: UnrollMap,
    /// With `UnrollMap::Thread`: the leading loads of the iterations taken
    /// together as vector loads (`ld.v4.f32`, `ld.v2.f64`, ...) where the run
    /// time finds their addresses consecutive and aligned, scalar loads otherwise.
    pub vector_loads: bool,
}

/// The iterations a thread of an unrolled strided loop runs together (its
/// flat indices; `S` the loop's executors, `F` the unroll factor, `first`
/// the thread's first index, `g·T` the first index of its gang's threads).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnrollMap {
    /// `k, k+S, ..., k+(F-1)S` (grid-stride, as the plain loop).
    Strided,
    /// The gang's threads share a chunk of `F·T` consecutive iterations,
    /// each taking `F` of them `T` apart (`k + (F-1)·g·T + u·T`).
    Blocked,
    /// Each thread takes `F` consecutive iterations (`k + (F-1)·first + u`):
    /// what vector loads need.
    Thread,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            unroll: true,
            tiles: true,
            strength: true,
            global_loads: true,
            fma: true,
            seq_unroll: 16,
            block: 256,
            tile_block: 128,
            tile_min_blocks: 8,
            tile_cols: 32,
            tile_flat_pairs: false,
            stream_stores: false,
            nc_loads: false,
            lean_barriers: true,
            unroll_collapsed: false,
            seq_vector_loads: true,
            seq_prefetch: false,
            unroll_factor: 4,
            unroll_map: UnrollMap::Thread,
            vector_loads: true,
        }
    }
}

impl Tuning {
    /// The knobs `ACCJIT_PTX_TUNE` names (`key=value` pairs separated by
    /// commas or spaces; booleans take 0/1), for comparisons in one GPU
    /// sitting: `unroll`, `tiles`, `strength`, `global_loads`, `fma`,
    /// `seq_unroll`, `block`, `tile_block`, `tile_min_blocks`, `tile_cols`, `tile_flat_pairs`,
    /// `stream_stores`, `nc_loads`, `lean_barriers`, `seq_vector_loads`, `seq_prefetch`, `unroll_collapsed`, `unroll_factor`,
    /// `unroll_map` (`strided`/`blocked`/`thread`), `vector_loads`. An unknown key or a
    /// bad value is an error naming it (the settings before it are kept).
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        for item in spec.split([',', ' ']).map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item.split_once('=').ok_or_else(|| format!("'{item}' is not key=value"))?;
            let (key, value) = (key.trim(), value.trim());
            let num = || value.parse::<u32>().map_err(|_| format!("{key}={value}: not a number"));
            let flag = || match value {
                "1" | "true" | "on" => Ok(true),
                "0" | "false" | "off" => Ok(false),
                _ => Err(format!("{key}={value}: not 0 or 1")),
            };
            match key {
                "unroll" => self.unroll = flag()?,
                "tiles" => self.tiles = flag()?,
                "strength" => self.strength = flag()?,
                "global_loads" => self.global_loads = flag()?,
                "fma" => self.fma = flag()?,
                "seq_unroll" => self.seq_unroll = num()?.clamp(1, 16),
                "block" => self.block = num()?.clamp(32, 1024) / 32 * 32,
                "tile_cols" => {
                    let n = num()?;
                    if !n.is_power_of_two() || !(8..=1024).contains(&n) {
                        return Err(format!("tile_cols={value}: a power of two from 8 to 1024"));
                    }
                    self.tile_cols = n;
                }
                "tile_flat_pairs" => self.tile_flat_pairs = flag()?,
                "tile_min_blocks" => self.tile_min_blocks = num()?.min(32),
                "tile_block" => self.tile_block = if num()? == 0 { 0 } else { num()?.clamp(32, 1024) / 32 * 32 },
                "stream_stores" => self.stream_stores = flag()?,
                "nc_loads" => self.nc_loads = flag()?,
                "lean_barriers" => self.lean_barriers = flag()?,
                "unroll_collapsed" => self.unroll_collapsed = flag()?,
                "seq_vector_loads" => self.seq_vector_loads = flag()?,
                "seq_prefetch" => self.seq_prefetch = flag()?,
                "unroll_factor" => self.unroll_factor = num()?.clamp(2, 8),
                "unroll_map" => {
                    self.unroll_map = match value {
                        "strided" => UnrollMap::Strided,
                        "blocked" => UnrollMap::Blocked,
                        "thread" => UnrollMap::Thread,
                        _ => return Err(format!("unroll_map={value}: strided, blocked or thread")),
                    }
                }
                "vector_loads" => self.vector_loads = flag()?,
                _ => return Err(format!("unknown knob '{key}'")),
            }
        }
        Ok(())
    }
}

/// One compiled module.
#[derive(Clone, Debug)]
pub struct PtxModule {
    /// The whole module; assembles with ptxas.
    pub text: String,
    /// Per `Module::kernels` entry, in order.
    pub kernels: Vec<PtxKernel>,
    /// The globals device code references.
    pub globals: Vec<PtxGlobal>,
}

/// Launch facts of one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxKernel {
    /// The `.entry` name (the kernel's name, made a PTX identifier).
    pub entry: String,
    /// Per parameter: 0 = one `.u64` slot, n = an n-byte by-value aggregate.
    pub param_bytes: Vec<u32>,
    /// Suggested `blockDim.x` (vector lanes): 256 when a vector level is used
    /// or implied, 32 when workers are used too (a worker is then one warp,
    /// which the kernel checks), 1 when nothing is partitioned below gangs.
    pub vector: u32,
    /// Suggested `blockDim.y` (workers): 4 when worker loops are used, else 1.
    pub workers: u32,
    /// Upper bound on useful gangs (1 for serial).
    pub max_gangs: Option<u64>,
    pub gang_dims: u8,
    /// A grid size to use when `num_gangs` is absent: 1 for kernels with no
    /// gang-partitioned work (gang-redundant code would otherwise run once
    /// per gang); None lets the runtime size the grid for the device.
    pub default_gangs: Option<u64>,
    /// The kernel, or a function it calls, may end the program (`exit`,
    /// `abort`, a failed `assert`) or logs Fortran output: the runtime
    /// reads the module's `accjit_abi::device_end` record and its
    /// `accjit_abi::device_io_log` (when the module has one) after each of
    /// its launches, which are synchronous.
    pub ends_program: bool,
}

/// A global device code references.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxGlobal {
    pub ir_name: String,
    /// The `.global` symbol ([`global_symbol`] of `ir_name`).
    pub symbol: String,
    pub bytes: u64,
    /// Index in `Module::globals`.
    pub ir_global: u32,
}

/// The name of the module's shared scratch buffer (reductions, broadcasts).
pub(crate) const SMEM: &str = "__accjit_smem";

/// The message printed when the device heap is exhausted.
pub(crate) const HEAP_MSG: &str = "__accjit_heap_msg";

/// The module's spin lock (atomic combines PTX has no instruction for).
pub(crate) const LOCK: &str = "__accjit_lock";

/// A name made a PTX identifier: letters, digits and `_` are kept, any other
/// byte becomes `$` and two hex digits (so distinct names stay distinct).
pub fn escape_ident(name: &str) -> String {
    let mut s = String::new();
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' {
            s.push(b as char);
        } else {
            s.push_str(&format!("${b:02x}"));
        }
    }
    if s.is_empty() || s.as_bytes()[0].is_ascii_digit() || s.starts_with('$') {
        s.insert(0, '_');
    }
    s
}

/// The `.global` symbol of IR global `ir_name`.
pub fn global_symbol(ir_name: &str) -> String {
    format!("__accjit_g_{}", escape_ident(ir_name))
}

/// Whether a function of `calls`, or one they call in turn, ends the program
/// itself (`func_calls`: per function, its own code's answer and its callees).
fn reaches_program_end(calls: &BTreeSet<u32>, func_calls: &BTreeMap<u32, (bool, BTreeSet<u32>)>) -> bool {
    let mut seen = BTreeSet::new();
    let mut todo: Vec<u32> = calls.iter().copied().collect();
    while let Some(f) = todo.pop() {
        if !seen.insert(f) {
            continue;
        }
        if let Some((ends, callees)) = func_calls.get(&f) {
            if *ends {
                return true;
            }
            todo.extend(callees.iter().copied());
        }
    }
    false
}

/// Compile the kernels of a lowered module (and what they call) to PTX.
pub fn compile(module: &Module, opts: &PtxOptions) -> Result<PtxModule, Diagnostics> {
    let mut diags = vec![];
    let mut kernels = vec![];
    let mut entries = String::new();
    let mut uses_all = func::Uses::default();
    let merge = |all: &mut func::Uses, u: func::Uses| {
        all.libm.extend(u.libm);
        all.vprintf |= u.vprintf;
        all.globals.extend(u.globals);
        all.funcs.extend(u.funcs);
        all.smem = all.smem.max(u.smem);
        all.lock |= u.lock;
        all.malloc |= u.malloc;
        all.heap_message |= u.heap_message;
        all.ends_program |= u.ends_program;
        all.io_log |= u.io_log;
    };
    // Per kernel and per function: whether its own code ends the program, and what it calls.
    let mut kernel_calls: Vec<(bool, BTreeSet<u32>)> = vec![];
    let mut func_calls: BTreeMap<u32, (bool, BTreeSet<u32>)> = BTreeMap::new();
    for k in &module.kernels {
        match kernel::compile_kernel(module, k, opts.tuning) {
            Ok(out) => {
                if opts.keep_comments {
                    entries.push_str(&format!("// kernel {} ({})\n", k.name, k.construct.name()));
                }
                entries.push_str(&out.text);
                entries.push('\n');
                kernels.push(out.info);
                kernel_calls.push((out.uses.ends_program || out.uses.io_log, out.uses.funcs.clone()));
                merge(&mut uses_all, out.uses);
            }
            Err(d) => diags.push(d),
        }
    }
    // Every function device code calls, transitively.
    let mut done = BTreeSet::new();
    let mut protos = String::new();
    let mut funcs = String::new();
    loop {
        let next: Vec<u32> = uses_all.funcs.difference(&done).copied().collect();
        if next.is_empty() {
            break;
        }
        for i in next {
            done.insert(i);
            match routine::compile_func(module, i as usize, opts.tuning) {
                Ok(out) => {
                    protos.push_str(&out.header);
                    protos.push_str(";\n");
                    funcs.push_str(&out.text);
                    funcs.push('\n');
                    func_calls.insert(i, (out.uses.ends_program || out.uses.io_log, out.uses.funcs.clone()));
                    merge(&mut uses_all, out.uses);
                }
                Err(d) => diags.push(d),
            }
        }
    }
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    for (k, (ends, calls)) in kernels.iter_mut().zip(&kernel_calls) {
        k.ends_program = *ends || reaches_program_end(calls, &func_calls);
    }
    let mut text = format!(".version 7.8\n.target sm_{}\n.address_size 64\n\n", opts.sm.max(80));
    if uses_all.vprintf {
        text.push_str(printf::VPRINTF_DECL);
    }
    if uses_all.malloc {
        text.push_str(private::MALLOC_DECL);
    }
    if uses_all.heap_message {
        let msg = b"accjit: the device heap has no room for %lld bytes of private storage (raise the heap size)\n\0";
        let bs: Vec<String> = msg.iter().map(|b| b.to_string()).collect();
        text.push_str(&format!(".global .align 1 .b8 {HEAP_MSG}[{}] = {{{}}};\n", msg.len(), bs.join(", ")));
    }
    let mut globals = vec![];
    for &g in &uses_all.globals {
        let gl = &module.globals[g as usize];
        let symbol = global_symbol(&gl.name);
        let bytes = accjit_ir::size_of(&gl.ty, &module.structs);
        let align = accjit_ir::align_of(&gl.ty, &module.structs).clamp(1, 16);
        let init = match &gl.init {
            Some(i) if i.relocs.is_empty() && i.bytes.iter().any(|&b| b != 0) => {
                let bs: Vec<String> = i.bytes.iter().map(|b| b.to_string()).collect();
                format!(" = {{{}}}", bs.join(", "))
            }
            _ => String::new(),
        };
        text.push_str(&format!(".visible .global .align {align} .b8 {symbol}[{}]{init};\n", bytes.max(1)));
        globals.push(PtxGlobal { ir_name: gl.name.clone(), symbol, bytes, ir_global: g });
    }
    if uses_all.lock {
        text.push_str(&format!(".global .align 4 .u32 {LOCK};\n"));
    }
    if uses_all.ends_program || uses_all.io_log {
        text.push_str(&format!(".visible .global .align 8 .b8 {}[{}];\n", device_end::SYMBOL, device_end::BYTES));
    }
    if uses_all.io_log {
        text.push_str(&iolog::declarations());
    }
    if uses_all.smem > 0 {
        text.push_str(&format!(".shared .align 16 .b8 {SMEM}[{}];\n", uses_all.smem));
    }
    text.push('\n');
    for name in &uses_all.libm {
        if let Some(lf) = libm::libm_func(name) {
            text.push_str(&lf.body);
            text.push('\n');
        }
    }
    text.push_str(&protos);
    text.push('\n');
    text.push_str(&funcs);
    text.push_str(&entries);
    Ok(PtxModule { text, kernels, globals })
}

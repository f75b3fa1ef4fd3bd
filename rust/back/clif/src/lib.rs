//! The Cranelift back end: compiles a lowered IR module (host functions and
//! multicore kernels) to native code in memory, linked against the runtime's
//! symbols and the process's libc/libm.
//!
//! Phases (one file each):
//! - [`module`]: the `JITModule` (one per compiled IR module), symbol
//!   resolution (`ClifOptions::symbols`, then `dlsym`), globals as data objects
//!   with relocations, declaration of every function, finalisation.
//! - [`abi`]: how IR types travel through native calls (the C ABI of x86-64
//!   SysV / AArch64 AAPCS as far as scalars and complex numbers go; aggregates
//!   by reference).
//! - [`function`]: the per-function context `fx` (the `FunctionBuilder`,
//!   locals as SSA variables or stack slots, loop/label targets) and the
//!   prologue/epilogue of host functions.
//! - [`value`]: values, places, loads/stores, conversions and memory copies.
//! - [`expr`] and [`arith`]: one `lower_<kind>` per expression kind; [`complex`]
//!   for `_Complex` arithmetic.
//! - [`stmt`]: statements, control flow and `Launch`.
//! - [`kernel`]: native kernels `void k(const u64 *args, i64 gang, i64 num_gangs)`
//!   and `AccLoop` partitioning; [`reduce`] for reduction identities/combiners;
//!   [`private`] for run-time-sized private storage (`private(c[0:n])`).
//! - [`simd`]: whether the innermost dimension of an `AccLoop` can run as
//!   SIMD lanes (the plan); [`vector`]: the vector loop, its lane values and
//!   vector reduction accumulators, before the scalar remainder loop;
//!   [`unroll`]: scalar reduction loops that cannot be vectorised, unrolled
//!   by four with independent accumulators.
//! - [`stream`]: strength reduction of loops that run in order: affine
//!   address streams become pointer variables bumped per iteration.
//! - [`atomic`]: `#pragma acc atomic` forms; [`variadic`]: calls to variadic
//!   C functions through the runtime's `__accjit_va_*` shims.
//! - [`trampoline`]: the uniform `(args, ret)` entry points for exported functions.
//!
//! ABI choices beyond docs/runtime-abi.md (documented here, used by
//! trampolines, kernels and launches alike): an argument slot `args[i]` of an
//! aggregate type (struct, union, descriptor, complex) holds the *address* of
//! the value (the callee copies it); a trampoline of a function returning a
//! struct writes the whole struct to the buffer `ret` points to (which must be
//! `size_of` the struct); a complex return is `ret[0]` = real, `ret[1]` =
//! imaginary part (a `float` part in the low 32 bits of its slot).
//! Functions that partition gang loops (`routine gang`) take the caller's gang
//! index, gang count and the extents of its gang grid's dimensions 1 and 2 as
//! hidden trailing i64 parameters (gang 0 of 1 from the host and from
//! trampolines).
//!
//! Code is compiled with `opt_level=speed`; the Cranelift verifier runs in
//! debug builds (or with `ClifOptions::verify`) and its findings come
//! back as diagnostics.

mod abi;
mod any_thread;
mod arith;
mod atomic;
mod complex;
mod expr;
mod function;
pub mod image;
pub use image::{host_fingerprint, Image, ImageShape};
mod kernel;
mod module;
mod native;
mod private;
mod reduce;
mod simd;
mod stmt;
mod stream;
mod trampoline;
mod unroll;
mod value;
mod variadic;
mod vector;

use accjit_ir::{Diagnostics, FuncSig, KernelId, Module};

/// Names the JIT linker binds ahead of `dlsym`, with their addresses: a
/// shared table (cloning it clones a pointer), so that a process builds
/// its runtime's table once and every compilation and image load of the
/// process looks names up in it (building it per compilation, ~400
/// `String`s and a hash map, was ~30 µs of each load from the disk cache).
#[derive(Clone, Debug, Default)]
pub struct Symbols(std::sync::Arc<std::collections::HashMap<String, usize>>);

impl Symbols {
    /// The address bound to `name`, if the table has it.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.0.get(name).copied()
    }

    /// Binds `name` to `addr` in this table (a copy of it when it is shared).
    pub fn insert(&mut self, name: impl Into<String>, addr: usize) {
        std::sync::Arc::make_mut(&mut self.0).insert(name.into(), addr);
    }

    /// Every (name, address), in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, usize)> {
        self.0.iter().map(|(n, &a)| (n.as_str(), a))
    }
}

impl From<Vec<(String, usize)>> for Symbols {
    /// A later entry of a name wins over an earlier one.
    fn from(list: Vec<(String, usize)>) -> Symbols {
        Symbols(std::sync::Arc::new(list.into_iter().collect()))
    }
}

/// What the JIT linker needs from outside the module.
#[derive(Clone, Debug, Default)]
pub struct ClifOptions {
    /// Runtime symbols (`__accjit_*`, `acc_*`) and their addresses; other
    /// extern names are resolved with `dlsym` in the process (libc, libm).
    pub symbols: Symbols,
    /// Address of the runtime's `KernelSlot` for each `Module::kernels` entry,
    /// passed by `Launch` code to `__accjit_launch`.
    pub kernel_slots: Vec<usize>,
    /// Keep the CLIF text of every function (for `accjit clif` and snapshots).
    pub keep_clif: bool,
    /// With `keep_clif`, keep the machine code too (the driver sets it from
    /// the environment variable `ACCJIT_DISASM`).
    pub disasm: bool,
    /// Run Cranelift's verifier on every function (always on in debug
    /// builds; the driver sets it from `ACCJIT_CLIF_VERIFY`).
    pub verify: bool,
}

/// Entry point made for every exported function: `args[i]` holds parameter `i`
/// (same encoding as kernel arguments, docs/runtime-abi.md), the return value
/// is written to `ret[0]` (and `ret[1]` for complex).
pub type Trampoline = unsafe extern "C" fn(args: *const u64, ret: *mut u64);

/// Signature of a native kernel: `void k(const u64 *args, i64 gang, i64 num_gangs)`.
pub type KernelFn = unsafe extern "C" fn(args: *const u64, gang: i64, num_gangs: i64);

pub struct CompiledFunction {
    pub name: String,
    pub sig: FuncSig,
    pub trampoline: Trampoline,
    /// The function's own native address.
    pub address: usize,
}

/// A module compiled and finalised in memory. Dropping it frees the code.
pub struct CompiledModule {
    pub functions: Vec<CompiledFunction>,
    /// Native `void k(const u64 *args, i64 gang, i64 num_gangs)` per kernel.
    pub kernels: Vec<usize>,
    /// Per kernel: its gangs may run on any thread (see `any_thread`), the
    /// flag `KernelSlot::set_any_thread` takes.
    pub kernel_any_thread: Vec<bool>,
    /// CLIF text per function when `keep_clif` was set.
    pub clif: String,
    /// Address of each `Module::globals` entry (0 for imports never used).
    pub globals: Vec<usize>,
    /// The module as data, to load it again in another process
    /// ([`image::load`]); `None` once taken, or when the code has a
    /// relocation the image cannot hold.
    image: Option<image::Image>,
    /// Owns the code and data; frees them on drop.
    _code: module::CodeMemory,
}

impl CompiledModule {
    /// The module's image (once; see [`image`]).
    pub fn take_image(&mut self) -> Option<image::Image> {
        self.image.take()
    }
    pub fn function(&self, name: &str) -> Option<&CompiledFunction> {
        self.functions.iter().find(|f| f.name == name)
    }
    pub fn kernel(&self, k: KernelId) -> usize {
        self.kernels[k.index()]
    }
    /// The kernel as a callable function pointer.
    pub fn kernel_fn(&self, k: KernelId) -> Option<KernelFn> {
        let addr = *self.kernels.get(k.index())?;
        // SAFETY: `addr` is the finalised entry of a kernel compiled with the
        // `KernelFn` signature; it stays valid while `self` lives.
        Some(unsafe { std::mem::transmute::<usize, KernelFn>(addr) })
    }
}

/// Code-generation choices that change speed, never results (beyond the
/// reassociation OpenACC allows for reductions). The driver fills them from
/// its options (the environment variables named below are read there, once);
/// [`Tuning::default`] is this CPU's best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Vectorise the innermost dimension of partitioned loops where possible
    /// (see the `simd` module), and unroll the reduction loops that cannot be
    /// (`unroll`); on by default, off with the environment variable
    /// `ACCJIT_NO_SIMD`.
    pub simd: bool,
    /// Run vector loops whose body is straight-line float arithmetic as
    /// AVX-512 machine code (the `native` module); on when the CPU has
    /// AVX-512F and BMI2, off with `ACCJIT_NO_AVX512` (or `ACCJIT_NO_SIMD`).
    pub avx512: bool,
    /// An AVX-512 loop whose one store goes to an array it does not read
    /// stores it non-temporally (around the caches, without reading the
    /// lines first) when the loop nest, over all gangs, stores at least this
    /// many bytes: decided at run time. Default: 3/8 of the last-level
    /// cache — the loop's data is then at least twice that (its output plus
    /// inputs at least as large), more than the 3/4 of the cache a loop can
    /// count on (glibc's memcpy streams past the same bound), so the output
    /// would not be in cache when next read anyway, and write-allocating it
    /// would evict the inputs. `ACCJIT_NONTEMPORAL_BYTES` sets it;
    /// `ACCJIT_NO_NONTEMPORAL` turns the stores off.
    pub nontemporal_bytes: NonTemporal,
    /// Strength-reduce the address streams of loops whose iterations run
    /// in order (the `stream` module); on by default, off with the
    /// environment variable `ACCJIT_NO_STREAMS`.
    pub streams: bool,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning { simd: true, avx512: accjit_back_avx512::available(), nontemporal_bytes: NonTemporal::CacheSized, streams: true }
    }
}

/// When AVX-512 loops store non-temporally ([`Tuning::nontemporal_bytes`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NonTemporal {
    /// Never.
    Off,
    /// When the loop nest stores at least this many bytes.
    Bytes(i64),
    /// When it stores at least 3/8 of this CPU's last-level cache: the
    /// cache is measured (~10 `cpuid`s, each a VM exit on a virtual
    /// machine: ~40 µs) when code is first generated, not when options are
    /// made, so that a program loaded from the disk cache never pays it.
    CacheSized,
}

impl NonTemporal {
    /// The threshold in bytes, `None` when off.
    pub fn bytes(self) -> Option<i64> {
        static LLC: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
        match self {
            NonTemporal::Off => None,
            NonTemporal::Bytes(n) => Some(n),
            NonTemporal::CacheSized => Some(*LLC.get_or_init(|| last_level_cache_bytes() * 3 / 8)),
        }
    }
}

/// The size of the largest data cache: from the CPU (`cpuid`'s cache
/// descriptors, what Linux's sysfs reports too, in nanoseconds) where it
/// says, else cpu0's caches in sysfs (~0.2 ms: it is read in every
/// process, on the path of a first call from the disk cache), else 32 MiB.
fn last_level_cache_bytes() -> i64 {
    cpuid_largest_data_cache().unwrap_or_else(sysfs_largest_data_cache)
}

/// The largest data or unified cache `cpuid` describes (Intel leaf 4, AMD
/// leaf 0x8000001D with TOPOEXT): ways × partitions × line × sets.
#[cfg(target_arch = "x86_64")]
fn cpuid_largest_data_cache() -> Option<i64> {
    use std::arch::x86_64::{__cpuid, __cpuid_count};
    // Leaves beyond the maximum the CPU reports are never queried.
    {
        let v = __cpuid(0);
        let vendor: Vec<u8> = [v.ebx, v.edx, v.ecx].iter().flat_map(|r| r.to_le_bytes()).collect();
        let leaf = match vendor.as_slice() {
            b"GenuineIntel" if v.eax >= 4 => 4,
            b"AuthenticAMD" | b"HygonGenuine" => {
                let ext = __cpuid(0x8000_0000).eax;
                let topoext = ext >= 0x8000_0001 && __cpuid(0x8000_0001).ecx & (1 << 22) != 0;
                if !(topoext && ext >= 0x8000_001D) {
                    return None;
                }
                0x8000_001D
            }
            _ => return None,
        };
        let mut best: Option<i64> = None;
        for sub in 0..16 {
            let r = __cpuid_count(leaf, sub);
            match r.eax & 0x1f {
                0 => break,
                2 => continue, // instruction cache
                _ => {}
            }
            let ways = ((r.ebx >> 22) & 0x3ff) as i64 + 1;
            let partitions = ((r.ebx >> 12) & 0x3ff) as i64 + 1;
            let line = (r.ebx & 0xfff) as i64 + 1;
            let sets = r.ecx as i64 + 1;
            let size = ways * partitions * line * sets;
            best = Some(best.map_or(size, |b| b.max(size)));
        }
        best
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn cpuid_largest_data_cache() -> Option<i64> {
    None
}

/// The size of the largest data cache of cpu0 (sysfs), else 32 MiB.
fn sysfs_largest_data_cache() -> i64 {
    let parse = |t: &str| {
        let t = t.trim();
        let (num, mul) = match t.as_bytes().last() {
            Some(b'K') => (&t[..t.len() - 1], 1 << 10),
            Some(b'M') => (&t[..t.len() - 1], 1 << 20),
            _ => (t, 1),
        };
        num.parse::<i64>().ok().map(|n| n * mul)
    };
    (0..8)
        .filter_map(|i| {
            let dir = format!("/sys/devices/system/cpu/cpu0/cache/index{i}");
            let kind = std::fs::read_to_string(format!("{dir}/type")).ok()?;
            if kind.trim() == "Instruction" {
                return None;
            }
            parse(&std::fs::read_to_string(format!("{dir}/size")).ok()?)
        })
        .max()
        .unwrap_or(32 << 20)
}

/// Compile a lowered module. Every problem (unsupported construct, undefined
/// symbol, verifier failure) comes back as a spanned diagnostic. Uses this
/// CPU's default [`Tuning`].
pub fn compile(module: &Module, opts: &ClifOptions) -> Result<CompiledModule, Diagnostics> {
    module::compile_module(module, opts, Tuning::default())
}

/// [`compile`] with explicit [`Tuning`] (the driver passes its options' tuning;
/// tests compare SIMD and scalar code).
pub fn compile_tuned(module: &Module, opts: &ClifOptions, tuning: Tuning) -> Result<CompiledModule, Diagnostics> {
    module::compile_module(module, opts, tuning)
}

// The driver caches compiled modules behind a Mutex/Arc and calls their code
// from any thread.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<CompiledModule>();
};

#[cfg(test)]
mod tests {
    #[test]
    fn cpuid_and_sysfs_agree_on_the_largest_data_cache() {
        let sysfs = super::sysfs_largest_data_cache();
        if let (Some(cpuid), true) = (super::cpuid_largest_data_cache(), std::path::Path::new("/sys/devices/system/cpu/cpu0/cache/index0").exists()) {
            assert_eq!(cpuid, sysfs);
        }
    }
}

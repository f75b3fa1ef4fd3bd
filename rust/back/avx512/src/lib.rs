//! AVX-512 loop kernels: machine code for the innermost vector loop of a
//! multicore kernel, when its body is straight-line lane arithmetic.
//!
//! Cranelift 0.135's x64 back end has 128-bit vectors only; an AVX-512 CPU
//! does four times the work per instruction with 512-bit ones. `back/clif`
//! translates a vectorisable loop body (`simd::Plan`) into a [`Program`] —
//! loads and stores of unit-stride streams, broadcast loop-invariant values,
//! float arithmetic, reductions — and, when [`compile`] accepts it, calls the
//! machine code from its Cranelift kernel instead of emitting a 128-bit loop.
//! Anything outside this small language stays on the Cranelift path.
//!
//! The generated function (System V ABI, position-independent, no calls):
//!
//! ```text
//! void f(u8 *const *bases, const u64 *uniforms, i64 start, i64 end, u8 *out)
//! ```
//!
//! runs the program for every iteration `i` in `[start, end)`, lane `i`
//! reading and writing element `i` of each stream at `bases[k] + i * size`.
//! Iterations run `L = 64 / size` at a time (one zmm register per group),
//! several groups per loop trip, and a masked last group: no scalar remainder.
//! Accumulator `j`'s `L` partial lanes are written to `out + 64 * j` (the
//! identity when the range is empty); the caller folds them in lane order.

mod asm;
mod emit;

pub use emit::{compile, compile_with, Options};

/// The lane type of every value of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    F32,
    F64,
}

impl Elem {
    /// Bytes per element.
    pub fn size(self) -> u32 {
        match self {
            Elem::F32 => 4,
            Elem::F64 => 8,
        }
    }
    /// Lanes per 512-bit register.
    pub fn lanes(self) -> u32 {
        64 / self.size()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `-x` (flips the sign bit, as C does: `-0.0`, NaN sign).
    Neg,
    /// `fabs`: clears the sign bit.
    Abs,
    /// `sqrt`, correctly rounded.
    Sqrt,
}

/// Reduction operators of accumulators (identity 0 and 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedOp {
    Add,
    Mul,
}

/// A value: the index in `Program::ops` of the op that defines it.
pub type Value = u32;

/// One operation of the loop body, for one group of lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Defines the lanes of stream `stream` at the group's iterations.
    Load {
        stream: u32,
    },
    /// Defines `uniforms[index]` in every lane (an `f32`'s bits sit in the
    /// low 32 bits of the `u64`).
    Uniform {
        index: u32,
    },
    Bin {
        op: BinOp,
        a: Value,
        b: Value,
    },
    Un {
        op: UnOp,
        a: Value,
    },
    /// Writes `value` to the group's elements of stream `stream`.
    Store {
        stream: u32,
        value: Value,
    },
    /// `acc[j] = acc[j] op value` lane-wise (defines nothing).
    Accumulate {
        acc: u32,
        value: Value,
    },
}

/// A loop body over lanes of one element type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    pub elem: Elem,
    /// Number of base pointers (`bases[0..streams]`).
    pub streams: u32,
    /// Number of uniform values (`uniforms[0..uniforms]`).
    pub uniforms: u32,
    /// The accumulators' operators (`out` holds one 64-byte vector each).
    pub accs: Vec<RedOp>,
    /// The body; loads and stores keep this order within each group.
    pub ops: Vec<Op>,
}

/// Machine code for one [`Program`].
#[derive(Clone, Debug)]
pub struct Code {
    pub bytes: Vec<u8>,
    /// Groups per trip of the main loop.
    pub unroll: u32,
    /// Lanes per group.
    pub lanes: u32,
}

/// Why a program has no AVX-512 code (the caller keeps its own loop).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// Whether this CPU runs the generated code (AVX-512F and BMI2). (Whether
/// to use it is the caller's choice: the driver turns it off with the
/// environment variable `ACCJIT_NO_AVX512`.)
pub fn available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("bmi2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

impl std::fmt::Display for Program {
    /// One op per line: `v3 = add v1, v2`, `store s1, v3`, `acc0 += v4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ty = match self.elem {
            Elem::F32 => "f32",
            Elem::F64 => "f64",
        };
        writeln!(f, "{ty} × {} lanes, {} streams, {} uniforms", self.elem.lanes(), self.streams, self.uniforms)?;
        for (i, op) in self.ops.iter().enumerate() {
            match *op {
                Op::Load { stream } => writeln!(f, "v{i} = load s{stream}")?,
                Op::Uniform { index } => writeln!(f, "v{i} = uniform u{index}")?,
                Op::Bin { op, a, b } => writeln!(f, "v{i} = {} v{a}, v{b}", format!("{op:?}").to_lowercase())?,
                Op::Un { op, a } => writeln!(f, "v{i} = {} v{a}", format!("{op:?}").to_lowercase())?,
                Op::Store { stream, value } => writeln!(f, "store s{stream}, v{value}")?,
                Op::Accumulate { acc, value } => {
                    let sym = if self.accs[acc as usize] == RedOp::Add { '+' } else { '*' };
                    writeln!(f, "acc{acc} {sym}= v{value}")?
                }
            }
        }
        Ok(())
    }
}

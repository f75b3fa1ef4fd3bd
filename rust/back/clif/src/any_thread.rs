//! Which kernels may run their gangs on any thread.
//!
//! The runtime lets a thread that is only waiting (the Python thread during
//! a call: `accjit_runtime::pool::Guest`) run gangs, but only of kernels that
//! cannot end the program — a gang that calls `exit`, `abort`, fails an
//! `assert` or hits a runtime error parks its thread forever, which must
//! never be the Python thread — and that need little stack (the waiting
//! thread's stack is not ours to size). The judgement is made on the final
//! CLIF of the kernel, so that every call the lowering emitted is seen: a
//! kernel qualifies when its frame is small, it makes no indirect call, and
//! every function it calls is an AVX-512 body of this module, one of the
//! runtime helpers below, or a C math function.

use std::collections::HashSet;

use cranelift_codegen::ir::{ExternalName, Function, InstructionData};
use cranelift_module::FuncId;

/// The most stack a kernel that may run on any thread keeps in its frame.
const MAX_FRAME_BYTES: u64 = 64 << 10;

/// Runtime helpers a kernel may call that return normally whatever happens.
const RUNTIME: &[&str] = &["__accjit_lock", "__accjit_unlock", "__accjit_alloca", "__accjit_stack_mark", "__accjit_stack_release"];

/// C library functions that only compute (each also with an `f` and an `l`
/// suffix): math.h, complex.h, and the integer `abs` family.
const PURE_C: &[&str] = &[
    "acos",
    "asin",
    "atan",
    "atan2",
    "cos",
    "sin",
    "tan",
    "acosh",
    "asinh",
    "atanh",
    "cosh",
    "sinh",
    "tanh",
    "exp",
    "exp2",
    "expm1",
    "log",
    "log10",
    "log2",
    "log1p",
    "logb",
    "ilogb",
    "pow",
    "sqrt",
    "cbrt",
    "hypot",
    "fabs",
    "floor",
    "ceil",
    "round",
    "trunc",
    "lround",
    "llround",
    "rint",
    "lrint",
    "llrint",
    "nearbyint",
    "fmod",
    "remainder",
    "remquo",
    "fmax",
    "fmin",
    "fdim",
    "fma",
    "copysign",
    "nextafter",
    "nexttoward",
    "erf",
    "erfc",
    "tgamma",
    "lgamma",
    "ldexp",
    "frexp",
    "modf",
    "scalbn",
    "scalbln",
    "cabs",
    "carg",
    "cexp",
    "clog",
    "csqrt",
    "cpow",
    "csin",
    "ccos",
    "ctan",
    "csinh",
    "ccosh",
    "ctanh",
    "casin",
    "cacos",
    "catan",
    "conj",
    "cproj",
    "creal",
    "cimag",
    "abs",
    "labs",
    "llabs",
    "memcpy",
    "memmove",
    "memset",
];

/// Whether an imported symbol may be called from a kernel that runs on any thread.
pub fn symbol_allowed(name: &str) -> bool {
    if RUNTIME.contains(&name) || PURE_C.contains(&name) {
        return true;
    }
    let base = name.strip_suffix('f').or_else(|| name.strip_suffix('l'));
    base.is_some_and(|b| PURE_C.contains(&b))
}

/// Whether the compiled kernel `func` may run its gangs on any thread;
/// `allowed` holds the module's functions it may call.
pub fn kernel_allowed(func: &Function, allowed: &HashSet<FuncId>) -> bool {
    let frame: u64 = func.sized_stack_slots.values().map(|s| s.size as u64).sum();
    if frame > MAX_FRAME_BYTES {
        return false;
    }
    let indirect = func.layout.blocks().flat_map(|b| func.layout.block_insts(b)).any(|i| matches!(func.dfg.insts[i], InstructionData::CallIndirect { .. }));
    if indirect {
        return false;
    }
    func.dfg.ext_funcs.values().all(|ext| match &ext.name {
        // Cranelift's own library calls (memcpy, memset, rounding): they return.
        ExternalName::LibCall(_) => true,
        ExternalName::User(r) => {
            let n = &func.params.user_named_funcs()[*r];
            n.namespace == 0 && allowed.contains(&FuncId::from_u32(n.index))
        }
        _ => false,
    })
}

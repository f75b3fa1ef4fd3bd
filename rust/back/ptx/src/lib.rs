//! NVIDIA back end: PTX text from the IR's kernels (code generator, C math functions as `.func`s, atomics).

pub mod atomic;
pub mod libm;
pub mod ty;

//! How IR types travel through native calls and argument slots.
//!
//! Every function (defined here or extern) uses the platform C calling
//! convention so that function pointers mix freely and libc/libm/runtime
//! functions are called directly: integers and pointers in integer registers
//! (sub-32-bit ones sign/zero-extended as C compilers expect), `float`/`double`
//! in float registers, `double _Complex` as two doubles, `float _Complex` as
//! one 8-byte float register holding both parts (real in the low half), as the
//! SysV ABI classifies them. Structs, unions and descriptors go *by reference*
//! (the callee copies), a struct result through a hidden first pointer
//! argument; C externs taking or returning structs by value are rejected.

use accjit_ir::{FuncSig, Scalar, Type};
use cranelift_codegen::ir::{types, AbiParam, ArgumentExtension, Signature, Type as ClType};
use cranelift_codegen::isa::CallConv;

/// The Cranelift type holding a scalar.
pub fn cl_scalar(s: Scalar) -> ClType {
    match s {
        Scalar::Bool | Scalar::I8 | Scalar::U8 => types::I8,
        Scalar::I16 | Scalar::U16 => types::I16,
        Scalar::I32 | Scalar::U32 => types::I32,
        Scalar::I64 | Scalar::U64 => types::I64,
        Scalar::F32 => types::F32,
        Scalar::F64 => types::F64,
    }
}

/// The Cranelift type of a value of IR type `ty` held in one register
/// (scalars, pointers, function pointers, decayed arrays).
pub fn cl_type(ty: &Type) -> Option<ClType> {
    match ty {
        Type::Scalar(s) => Some(cl_scalar(*s)),
        Type::Ptr(_) | Type::Func(_) => Some(types::I64),
        _ => None,
    }
}

/// The scalar view of a register type: pointers behave as `u64`.
pub fn scalar_of(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Scalar(s) => Some(*s),
        Type::Ptr(_) | Type::Func(_) | Type::Array(..) => Some(Scalar::U64),
        _ => None,
    }
}

/// How a value of some IR type is passed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Class {
    Void,
    /// One integer register (with the C extension of small types).
    Int(ClType, ArgumentExtension),
    Float(ClType),
    /// `_Complex` of `F32` or `F64`.
    Complex(Scalar),
    /// Structs, unions, descriptors: the address of the value.
    ByRef,
}

pub fn class_of(ty: &Type) -> Class {
    match ty {
        Type::Void => Class::Void,
        Type::Scalar(s) => match s {
            Scalar::F32 | Scalar::F64 => Class::Float(cl_scalar(*s)),
            Scalar::Bool | Scalar::U8 | Scalar::U16 => Class::Int(cl_scalar(*s), ArgumentExtension::Uext),
            Scalar::I8 | Scalar::I16 => Class::Int(cl_scalar(*s), ArgumentExtension::Sext),
            _ => Class::Int(cl_scalar(*s), ArgumentExtension::None),
        },
        Type::Ptr(_) | Type::Func(_) | Type::Array(..) => Class::Int(types::I64, ArgumentExtension::None),
        Type::Complex(s) => Class::Complex(*s),
        Type::Struct(_) | Type::Desc { .. } => Class::ByRef,
    }
}

fn param(t: ClType, ext: ArgumentExtension) -> AbiParam {
    let mut p = AbiParam::new(t);
    p.extension = ext;
    p
}

/// Append the native parameters carrying one value of class `c`.
pub fn push_value(list: &mut Vec<AbiParam>, c: Class) {
    match c {
        Class::Void => {}
        Class::Int(t, ext) => list.push(param(t, ext)),
        Class::Float(t) => list.push(AbiParam::new(t)),
        Class::Complex(Scalar::F32) => list.push(AbiParam::new(types::F64)),
        Class::Complex(s) => {
            list.push(AbiParam::new(cl_scalar(s)));
            list.push(AbiParam::new(cl_scalar(s)));
        }
        Class::ByRef => list.push(AbiParam::new(types::I64)),
    }
}

/// The native signature of an IR function type. `extern_c`: a C library
/// function, for which by-value aggregates are an error (`Err(what)`).
pub fn signature(sig: &FuncSig, cc: CallConv, extern_c: bool) -> Result<Signature, String> {
    let mut s = Signature::new(cc);
    let ret = class_of(&sig.ret);
    if ret == Class::ByRef {
        if extern_c {
            return Err("returning a struct by value from an external C function".into());
        }
        s.params.push(AbiParam::new(types::I64));
    } else {
        push_value(&mut s.returns, ret);
    }
    for p in &sig.params {
        let c = class_of(p);
        if c == Class::ByRef && extern_c {
            return Err("passing a struct by value to an external C function".into());
        }
        if c == Class::Void {
            return Err("a parameter of type void".into());
        }
        push_value(&mut s.params, c);
    }
    Ok(s)
}

/// Signature of a native kernel: `(const u64 *args, i64 gang, i64 num_gangs)`.
pub fn kernel_signature(cc: CallConv) -> Signature {
    let mut s = Signature::new(cc);
    for _ in 0..3 {
        s.params.push(AbiParam::new(types::I64));
    }
    s
}

/// Signature of a trampoline: `(const u64 *args, u64 *ret)`.
pub fn trampoline_signature(cc: CallConv) -> Signature {
    let mut s = Signature::new(cc);
    s.params.push(AbiParam::new(types::I64));
    s.params.push(AbiParam::new(types::I64));
    s
}

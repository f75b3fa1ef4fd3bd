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
//! argument. Calls to C externs pass structs and unions by value as the SysV
//! ABI says: up to 16 bytes in one or two registers (an eightbyte of only
//! floats in a float register, otherwise an integer one), larger ones in
//! memory (`sarg`, and a hidden `sret` pointer for results).

use accjit_ir::{size_of, FuncSig, Scalar, StructDef, Type};
use cranelift_codegen::ir::{types, AbiParam, ArgumentExtension, ArgumentPurpose, Signature, Type as ClType};
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
    /// A C struct of at most 16 bytes in registers (extern calls): the
    /// register type of each eightbyte.
    Regs([Option<ClType>; 2]),
    /// A C struct of more than 16 bytes by value in memory (extern calls).
    Memory(u32),
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

/// The scalars of a value of type `ty` with their byte offsets.
fn flatten(ty: &Type, structs: &[StructDef], base: u64, out: &mut Vec<(u64, bool)>) {
    match ty {
        Type::Scalar(s) => out.push((base, s.is_float())),
        Type::Complex(s) => {
            out.push((base, true));
            out.push((base + s.size(), true));
        }
        Type::Ptr(_) | Type::Func(_) => out.push((base, false)),
        Type::Array(t, n) => {
            let es = size_of(t, structs);
            for k in 0..n.unwrap_or(0).min(64) {
                flatten(t, structs, base + k * es, out);
            }
        }
        Type::Struct(id) => {
            if let Some(d) = structs.get(id.0 as usize) {
                for f in &d.fields {
                    flatten(&f.ty, structs, base + f.offset, out);
                }
            }
        }
        Type::Desc { .. } | Type::Void => out.push((base, false)),
    }
}

/// How a value travels in a call to a C function (`extern_c`) or to code
/// compiled here.
pub fn class_for(ty: &Type, structs: &[StructDef], extern_c: bool) -> Class {
    let c = class_of(ty);
    if !(extern_c && matches!(ty, Type::Struct(_))) {
        return c;
    }
    let size = size_of(ty, structs);
    if size > 16 {
        return Class::Memory(size as u32);
    }
    let mut sc = Vec::new();
    flatten(ty, structs, 0, &mut sc);
    let mut regs = [None, None];
    for (k, r) in regs.iter_mut().enumerate() {
        let lo = 8 * k as u64;
        if lo >= size {
            break;
        }
        let float = sc.iter().filter(|(o, _)| *o >= lo && *o < lo + 8).all(|(_, f)| *f);
        *r = Some(if float { types::F64 } else { types::I64 });
    }
    Class::Regs(regs)
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
        Class::Regs(r) => list.extend(r.iter().flatten().map(|&t| AbiParam::new(t))),
        Class::Memory(size) => list.push(AbiParam::special(types::I64, ArgumentPurpose::StructArgument(size))),
    }
}

/// How many hidden trailing parameters a gang routine takes (see [`signature`]).
pub const GANG_PARAMS: usize = 4;

/// The native signature of an IR function type; `extern_c`: a C library
/// function (structs by value per the C ABI). `gang`: [`GANG_PARAMS`]
/// trailing i64 parameters carry the caller's gang index, gang count and the
/// extents of its gang grid's dimensions 1 and 2 (gang routines).
pub fn signature(sig: &FuncSig, cc: CallConv, extern_c: bool, structs: &[StructDef], gang: bool) -> Result<Signature, String> {
    let mut s = Signature::new(cc);
    match class_for(&sig.ret, structs, extern_c) {
        Class::ByRef => s.params.push(AbiParam::new(types::I64)),
        Class::Memory(_) => s.params.push(AbiParam::special(types::I64, ArgumentPurpose::StructReturn)),
        ret => push_value(&mut s.returns, ret),
    }
    for p in &sig.params {
        let c = class_for(p, structs, extern_c);
        if c == Class::Void {
            return Err("a parameter of type void".into());
        }
        if extern_c && matches!(p, Type::Desc { .. }) {
            return Err("passing an array descriptor to an external C function".into());
        }
        push_value(&mut s.params, c);
    }
    if gang {
        s.params.extend([AbiParam::new(types::I64); GANG_PARAMS]);
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

/// The Cranelift parameter and result types of a runtime entry point of the
/// runtime ABI table (`accjit_abi::ENTRY_POINTS`): every ABI type is an
/// `i64` or a pointer, one 64-bit integer register each.
pub fn runtime_types(e: &accjit_abi::EntryPoint) -> (Vec<ClType>, Option<ClType>) {
    let ret = (e.ret != accjit_abi::AbiType::Void).then_some(types::I64);
    (vec![types::I64; e.params.len()], ret)
}

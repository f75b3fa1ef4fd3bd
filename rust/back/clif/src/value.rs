//! Values and places in generated code: how an IR value of each type is held
//! (one register, a (re, im) register pair, or the address of an aggregate),
//! loads and stores of every type, conversions between every pair of types
//! (C semantics), truth values, and small inline memory copies/fills.

use accjit_ir::{Diagnostic, Scalar, Span, Type};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Type as ClType, Value};
use cranelift_frontend::Variable;
use cranelift_module::Module as _;

use crate::abi::{cl_scalar, cl_type, scalar_of};
use crate::function::FnCx;

/// A computed IR value.
#[derive(Clone, Copy, Debug)]
pub enum Val {
    Void,
    /// Scalars, pointers, function pointers (Bool as I8 0/1).
    Scalar(Value),
    /// A complex number's real and imaginary parts.
    Complex(Value, Value),
    /// An aggregate (struct, union, array, descriptor) by address.
    Mem(Value),
}

impl Val {
    pub fn scalar(self, span: Span) -> Result<Value, Diagnostic> {
        match self {
            Val::Scalar(v) => Ok(v),
            other => Err(Diagnostic::error(span, format!("internal error: expected a scalar value, found {other:?}"))),
        }
    }
    pub fn addr(self, span: Span) -> Result<Value, Diagnostic> {
        match self {
            Val::Mem(v) => Ok(v),
            other => Err(Diagnostic::error(span, format!("internal error: expected an aggregate value, found {other:?}"))),
        }
    }
}

/// Where a place lives.
#[derive(Clone, Copy, Debug)]
pub enum Place {
    /// A scalar local in an SSA variable.
    Var(Variable),
    /// A complex local in two SSA variables.
    Var2(Variable, Variable),
    /// Memory at an address.
    Mem(Value),
}

/// Flags for accesses through user pointers.
pub fn user_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Flags for accesses to our own stack slots and argument arrays.
pub fn own_flags() -> MemFlagsData {
    MemFlagsData::trusted()
}

fn unsupported_conv(from: &Type, to: &Type, span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("conversion from {from:?} to {to:?} is not supported by the Cranelift back end"))
}

impl FnCx<'_, '_, '_> {
    /// An integer constant of type `t` (masked to its width).
    pub fn iconst(&mut self, t: ClType, v: i64) -> Value {
        let bits = t.bits();
        let v = if bits >= 64 { v } else { (v as u64 & ((1u64 << bits) - 1)) as i64 };
        self.b.ins().iconst(t, v)
    }

    pub fn fconst(&mut self, t: ClType, v: f64) -> Value {
        if t == types::F32 {
            self.b.ins().f32const(v as f32)
        } else {
            self.b.ins().f64const(v)
        }
    }

    /// Zero of a register type.
    pub fn zero(&mut self, t: ClType) -> Value {
        if t.is_float() {
            self.fconst(t, 0.0)
        } else {
            self.iconst(t, 0)
        }
    }

    /// A zero value of IR type `ty` (aggregates: a zero-filled temporary).
    pub fn zero_val(&mut self, ty: &Type) -> Val {
        match ty {
            Type::Void => Val::Void,
            Type::Complex(s) => {
                let z = self.zero(cl_scalar(*s));
                Val::Complex(z, z)
            }
            _ => match cl_type(ty) {
                Some(t) => Val::Scalar(self.zero(t)),
                None => {
                    let size = self.size_of(ty);
                    let a = self.temp(size, 8);
                    self.zero_bytes(a, size, 8);
                    Val::Mem(a)
                }
            },
        }
    }

    /// The address of a fresh stack temporary.
    pub fn temp(&mut self, size: u64, align: u64) -> Value {
        let shift = align.clamp(1, 16).trailing_zeros() as u8;
        let ss = self.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size.max(1) as u32, shift));
        self.b.ins().stack_addr(types::I64, ss, 0)
    }

    pub fn load(&mut self, t: ClType, addr: Value, off: i32) -> Value {
        self.b.ins().load(t, user_flags(), addr, off)
    }

    pub fn store(&mut self, v: Value, addr: Value, off: i32) {
        self.b.ins().store(user_flags(), v, addr, off);
    }

    /// Read a value of type `ty` stored at `addr`.
    pub fn load_val(&mut self, ty: &Type, addr: Value) -> Val {
        match ty {
            Type::Void => Val::Void,
            Type::Complex(s) => {
                let t = cl_scalar(*s);
                let re = self.load(t, addr, 0);
                let im = self.load(t, addr, s.size() as i32);
                Val::Complex(re, im)
            }
            _ => match cl_type(ty) {
                Some(t) => Val::Scalar(self.load(t, addr, 0)),
                None => Val::Mem(addr),
            },
        }
    }

    /// Store `val` (of type `ty`) at `addr`.
    pub fn store_val(&mut self, ty: &Type, val: Val, addr: Value, span: Span) -> Result<(), Diagnostic> {
        match (ty, val) {
            (Type::Void, _) => Ok(()),
            (Type::Complex(s), Val::Complex(re, im)) => {
                self.store(re, addr, 0);
                self.store(im, addr, s.size() as i32);
                Ok(())
            }
            (_, Val::Scalar(v)) if cl_type(ty).is_some() => {
                self.store(v, addr, 0);
                Ok(())
            }
            (_, Val::Mem(src)) => {
                let size = self.size_of(ty);
                let align = self.align_of(ty);
                self.copy_bytes(addr, src, size, align);
                Ok(())
            }
            _ => Err(Diagnostic::error(span, format!("internal error: storing {val:?} as {ty:?}"))),
        }
    }

    pub fn read_place(&mut self, p: Place, ty: &Type) -> Val {
        match p {
            Place::Var(v) => Val::Scalar(self.b.use_var(v)),
            Place::Var2(a, b) => Val::Complex(self.b.use_var(a), self.b.use_var(b)),
            Place::Mem(a) => self.load_val(ty, a),
        }
    }

    pub fn write_place(&mut self, p: Place, ty: &Type, val: Val, span: Span) -> Result<(), Diagnostic> {
        match (p, val) {
            (Place::Var(v), Val::Scalar(x)) => {
                self.b.def_var(v, x);
                Ok(())
            }
            (Place::Var2(a, b), Val::Complex(re, im)) => {
                self.b.def_var(a, re);
                self.b.def_var(b, im);
                Ok(())
            }
            (Place::Mem(a), v) => self.store_val(ty, v, a, span),
            (p, v) => Err(Diagnostic::error(span, format!("internal error: writing {v:?} to {p:?}"))),
        }
    }

    /// Copy `size` bytes (inline for small sizes; overlapping allowed).
    pub fn copy_bytes(&mut self, dst: Value, src: Value, size: u64, align: u64) {
        if size == 0 {
            return;
        }
        if size <= 64 {
            let mut chunks = Vec::new();
            let mut off = 0u64;
            while off < size {
                let rest = size - off;
                let w = [8u64, 4, 2, 1].into_iter().find(|&w| w <= rest && (w <= align.max(1) || w == 1)).unwrap_or(1);
                let t = ClType::int((w * 8) as u16).unwrap_or(types::I8);
                chunks.push((t, off as i32));
                off += w;
            }
            let vals: Vec<_> = chunks.iter().map(|&(t, o)| self.b.ins().load(t, user_flags(), src, o)).collect();
            for (v, &(_, o)) in vals.into_iter().zip(&chunks) {
                self.b.ins().store(user_flags(), v, dst, o);
            }
        } else {
            let cfg = self.m.jit.target_config();
            let n = self.iconst(types::I64, size as i64);
            self.b.call_memmove(cfg, dst, src, n);
        }
    }

    /// Set `size` bytes at `dst` to zero.
    pub fn zero_bytes(&mut self, dst: Value, size: u64, align: u64) {
        if size == 0 {
            return;
        }
        if size <= 64 {
            let mut off = 0u64;
            while off < size {
                let rest = size - off;
                let w = [8u64, 4, 2, 1].into_iter().find(|&w| w <= rest && (w <= align.max(1) || w == 1)).unwrap_or(1);
                let t = ClType::int((w * 8) as u16).unwrap_or(types::I8);
                let z = self.iconst(t, 0);
                self.b.ins().store(user_flags(), z, dst, off as i32);
                off += w;
            }
        } else {
            let cfg = self.m.jit.target_config();
            let n = self.iconst(types::I64, size as i64);
            let z = self.iconst(types::I8, 0);
            self.b.call_memset(cfg, dst, z, n);
        }
    }

    /// Convert a register value between scalar types with C semantics
    /// (float→int truncates and saturates instead of trapping).
    pub fn cast_scalar(&mut self, v: Value, from: Scalar, to: Scalar) -> Value {
        if from == to {
            return v;
        }
        let tt = cl_scalar(to);
        match (from.is_float(), to.is_float()) {
            (false, false) => {
                if to == Scalar::Bool {
                    return self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0);
                }
                let (fw, tw) = (cl_scalar(from).bits(), tt.bits());
                if tw > fw {
                    if from.is_signed() {
                        self.b.ins().sextend(tt, v)
                    } else {
                        self.b.ins().uextend(tt, v)
                    }
                } else if tw < fw {
                    self.b.ins().ireduce(tt, v)
                } else {
                    v
                }
            }
            (false, true) => {
                let mut v = v;
                if cl_scalar(from).bits() < 32 {
                    v = if from.is_signed() { self.b.ins().sextend(types::I32, v) } else { self.b.ins().uextend(types::I32, v) };
                }
                if from.is_signed() {
                    self.b.ins().fcvt_from_sint(tt, v)
                } else {
                    self.b.ins().fcvt_from_uint(tt, v)
                }
            }
            (true, false) => match to {
                Scalar::Bool => {
                    let z = self.fconst(cl_scalar(from), 0.0);
                    self.b.ins().fcmp(FloatCC::NotEqual, v, z)
                }
                Scalar::U64 => self.b.ins().fcvt_to_uint_sat(types::I64, v),
                Scalar::I64 => self.b.ins().fcvt_to_sint_sat(types::I64, v),
                Scalar::I32 => self.b.ins().fcvt_to_sint_sat(types::I32, v),
                Scalar::U32 => {
                    let w = self.b.ins().fcvt_to_sint_sat(types::I64, v);
                    self.b.ins().ireduce(types::I32, w)
                }
                _ => {
                    let w = self.b.ins().fcvt_to_sint_sat(types::I32, v);
                    self.b.ins().ireduce(tt, w)
                }
            },
            (true, true) => {
                if to == Scalar::F64 {
                    self.b.ins().fpromote(types::F64, v)
                } else {
                    self.b.ins().fdemote(types::F32, v)
                }
            }
        }
    }

    /// Convert `val` from IR type `from` to `to`.
    pub fn cast(&mut self, val: Val, from: &Type, to: &Type, span: Span) -> Result<Val, Diagnostic> {
        if to == &Type::Void {
            return Ok(Val::Void);
        }
        if from == to {
            return Ok(val);
        }
        match (from, to) {
            (Type::Complex(a), Type::Complex(b)) => {
                let (re, im) = self.complex_parts(val, from, span)?;
                let re = self.cast_scalar(re, *a, *b);
                let im = self.cast_scalar(im, *a, *b);
                Ok(Val::Complex(re, im))
            }
            (Type::Complex(_), Type::Scalar(Scalar::Bool)) => {
                let t = self.truth(val, from, span)?;
                Ok(Val::Scalar(t))
            }
            (Type::Complex(a), _) if scalar_of(to).is_some() => {
                let (re, _) = self.complex_parts(val, from, span)?;
                let s = scalar_of(to).unwrap_or(Scalar::I64);
                Ok(Val::Scalar(self.cast_scalar(re, *a, s)))
            }
            (_, Type::Complex(b)) if scalar_of(from).is_some() => {
                let v = val.scalar(span)?;
                let s = scalar_of(from).unwrap_or(Scalar::I64);
                let re = self.cast_scalar(v, s, *b);
                let im = self.zero(cl_scalar(*b));
                Ok(Val::Complex(re, im))
            }
            (Type::Struct(a), Type::Struct(b)) if a == b => Ok(val),
            (Type::Desc { .. }, Type::Desc { .. }) => Ok(val),
            (Type::Array(..), _) | (_, Type::Array(..)) if matches!(val, Val::Mem(_)) => Ok(val),
            _ => match (scalar_of(from), scalar_of(to)) {
                (Some(a), Some(b)) => {
                    let v = match val {
                        Val::Scalar(v) => v,
                        Val::Mem(a) => a,
                        _ => return Err(unsupported_conv(from, to, span)),
                    };
                    Ok(Val::Scalar(self.cast_scalar(v, a, b)))
                }
                _ => Err(unsupported_conv(from, to, span)),
            },
        }
    }

    /// The (re, im) parts of a complex or real value.
    pub fn complex_parts(&mut self, val: Val, ty: &Type, span: Span) -> Result<(Value, Value), Diagnostic> {
        match val {
            Val::Complex(re, im) => Ok((re, im)),
            Val::Scalar(v) => {
                let t = self.b.func.dfg.value_type(v);
                let z = self.zero(t);
                let _ = ty;
                Ok((v, z))
            }
            _ => Err(Diagnostic::error(span, format!("internal error: expected a complex value of type {ty:?}"))),
        }
    }

    /// A branch condition for `val`: any integer, nonzero meaning true.
    pub fn truth(&mut self, val: Val, ty: &Type, span: Span) -> Result<Value, Diagnostic> {
        match val {
            Val::Scalar(v) => {
                let t = self.b.func.dfg.value_type(v);
                if t.is_float() {
                    let z = self.zero(t);
                    Ok(self.b.ins().fcmp(FloatCC::NotEqual, v, z))
                } else {
                    Ok(v)
                }
            }
            Val::Complex(re, im) => {
                let t = self.b.func.dfg.value_type(re);
                let z = self.zero(t);
                let a = self.b.ins().fcmp(FloatCC::NotEqual, re, z);
                let b = self.b.ins().fcmp(FloatCC::NotEqual, im, z);
                Ok(self.b.ins().bor(a, b))
            }
            _ => Err(Diagnostic::error(span, format!("a value of type {ty:?} used as a condition"))),
        }
    }

    /// `val != 0` as I8 0/1.
    pub fn truth01(&mut self, val: Val, ty: &Type, span: Span) -> Result<Value, Diagnostic> {
        match val {
            Val::Scalar(v) if !self.b.func.dfg.value_type(v).is_float() => Ok(self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0)),
            _ => self.truth(val, ty, span),
        }
    }

    /// `val` (of integer/pointer type `ty`) as i64.
    pub fn cast_to_i64(&mut self, val: Val, ty: &Type, span: Span) -> Result<Value, Diagnostic> {
        let v = self.cast(val, ty, &Type::I64, span)?;
        v.scalar(span)
    }

    /// The address of `val`'s bytes: aggregates are already in memory,
    /// register values are spilled to a fresh temporary.
    pub fn spill(&mut self, val: Val, ty: &Type, span: Span) -> Result<Value, Diagnostic> {
        match val {
            Val::Mem(a) => Ok(a),
            Val::Void => Err(Diagnostic::error(span, "internal error: spilling a void value")),
            v => {
                let size = self.size_of(ty).max(8);
                let a = self.temp(size, 8);
                self.store_val(ty, v, a, span)?;
                Ok(a)
            }
        }
    }
}

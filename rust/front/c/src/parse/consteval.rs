//! Constant evaluation of IR expression trees: array lengths, case labels,
//! enumerators, `collapse(n)`, and global initialisers (which may be
//! addresses of globals and functions plus an offset: relocations).

use accjit_ir::{size_of, BinOp, ExprId, ExprKind, ExternId, Function, RelocTarget, Scalar, StructDef, Type, UnOp};

#[derive(Clone, Copy, Debug)]
pub enum CVal {
    Int(i64),
    Float(f64),
    /// Address of a global/function plus a byte offset. Functions are named
    /// by the parser's provisional `Extern(fn index)` until `finish`.
    Addr(RelocTarget, i64),
}

impl CVal {
    pub fn as_int(self) -> Option<i64> {
        match self {
            CVal::Int(v) => Some(v),
            _ => None,
        }
    }
}

/// Wrap `v` to the width and signedness of `s`.
pub fn wrap(v: i64, s: Scalar) -> i64 {
    s.wrap_int(v)
}

pub fn eval(f: &Function, structs: &[StructDef], id: ExprId) -> Option<CVal> {
    let e = f.expr(id);
    match &e.kind {
        ExprKind::Int(v) => Some(match &e.ty {
            Type::Scalar(s) if s.is_float() => CVal::Float(*v as f64),
            _ => CVal::Int(*v),
        }),
        ExprKind::Float(v) => Some(CVal::Float(*v)),
        ExprKind::FuncAddr(c) => Some(CVal::Addr(
            match c {
                accjit_ir::Callee::Func(fid) => RelocTarget::Func(*fid),
                accjit_ir::Callee::Extern(x) => RelocTarget::Extern(ExternId(x.0)),
            },
            0,
        )),
        ExprKind::AddrOf(p) => addr_of(f, structs, *p),
        ExprKind::Cast(a) => {
            let v = eval(f, structs, *a)?;
            let from = &f.expr(*a).ty;
            cast(v, from, &e.ty)
        }
        ExprKind::Comma(_, b) => eval(f, structs, *b),
        ExprKind::Cond(c, a, b) => {
            let c = eval(f, structs, *c)?;
            let t = match c {
                CVal::Int(v) => v != 0,
                CVal::Float(v) => v != 0.0,
                CVal::Addr(..) => true,
            };
            eval(f, structs, if t { *a } else { *b })
        }
        ExprKind::Unary(op, a) => {
            let v = eval(f, structs, *a)?;
            match (op, v) {
                (UnOp::Neg, CVal::Int(x)) => Some(CVal::Int(wrap(x.wrapping_neg(), e.ty.scalar()?))),
                (UnOp::Neg, CVal::Float(x)) => Some(CVal::Float(-x)),
                (UnOp::BitNot, CVal::Int(x)) => Some(CVal::Int(wrap(!x, e.ty.scalar()?))),
                (UnOp::LogNot, CVal::Int(x)) => Some(CVal::Int((x == 0) as i64)),
                (UnOp::LogNot, CVal::Float(x)) => Some(CVal::Int((x == 0.0) as i64)),
                _ => None,
            }
        }
        ExprKind::Binary(op, a, b) => {
            let ta = &f.expr(*a).ty;
            let tb = &f.expr(*b).ty;
            let va = eval(f, structs, *a)?;
            let vb = eval(f, structs, *b)?;
            binary(*op, va, vb, ta, tb, &e.ty, structs)
        }
        _ => None,
    }
}

fn addr_of(f: &Function, structs: &[StructDef], place: ExprId) -> Option<CVal> {
    let e = f.expr(place);
    match &e.kind {
        ExprKind::Global(g) => Some(CVal::Addr(RelocTarget::Global(*g), 0)),
        ExprKind::Deref(p) => eval(f, structs, *p),
        ExprKind::Member(p, i) => {
            let base = addr_of(f, structs, *p)?;
            let off = match &f.expr(*p).ty {
                Type::Struct(id) => structs[id.0 as usize].fields.get(*i as usize)?.offset as i64,
                _ => return None,
            };
            match base {
                CVal::Addr(t, o) => Some(CVal::Addr(t, o + off)),
                CVal::Int(v) => Some(CVal::Int(v + off)),
                _ => None,
            }
        }
        _ => None,
    }
}

pub fn cast(v: CVal, from: &Type, to: &Type) -> Option<CVal> {
    match to {
        Type::Scalar(s) if s.is_float() => {
            let x = match v {
                CVal::Int(i) => {
                    if from.scalar() == Some(Scalar::U64) {
                        i as u64 as f64
                    } else {
                        i as f64
                    }
                }
                CVal::Float(x) => x,
                CVal::Addr(..) => return None,
            };
            Some(CVal::Float(if *s == Scalar::F32 { x as f32 as f64 } else { x }))
        }
        Type::Scalar(Scalar::Bool) => match v {
            CVal::Int(i) => Some(CVal::Int((i != 0) as i64)),
            CVal::Float(x) => Some(CVal::Int((x != 0.0) as i64)),
            CVal::Addr(..) => Some(CVal::Int(1)),
        },
        Type::Scalar(s) => match v {
            CVal::Int(i) => Some(CVal::Int(wrap(i, *s))),
            CVal::Float(x) => {
                let i = if s.is_signed() { x as i64 } else { x as u64 as i64 };
                Some(CVal::Int(wrap(i, *s)))
            }
            CVal::Addr(..) if s.size() == 8 => Some(v),
            CVal::Addr(..) => None,
        },
        Type::Ptr(_) => match v {
            CVal::Float(_) => None,
            v => Some(v),
        },
        _ => Some(v),
    }
}

fn binary(op: BinOp, a: CVal, b: CVal, ta: &Type, tb: &Type, tr: &Type, structs: &[StructDef]) -> Option<CVal> {
    // Pointer arithmetic on addresses (and on integer "addresses" such as offsetof-style casts).
    if let Type::Ptr(pt) = ta {
        let sz = size_of(pt, structs).max(1) as i64;
        match (op, a, b) {
            (BinOp::Add, CVal::Addr(t, o), CVal::Int(i)) => return Some(CVal::Addr(t, o + i * sz)),
            (BinOp::Sub, CVal::Addr(t, o), CVal::Int(i)) if !tb.is_ptr() => return Some(CVal::Addr(t, o - i * sz)),
            (BinOp::Add, CVal::Int(p), CVal::Int(i)) => return Some(CVal::Int(p + i * sz)),
            (BinOp::Sub, CVal::Int(p), CVal::Int(i)) if !tb.is_ptr() => return Some(CVal::Int(p - i * sz)),
            (BinOp::Sub, CVal::Int(p), CVal::Int(q)) => return Some(CVal::Int((p - q) / sz)),
            (BinOp::Sub, CVal::Addr(t1, o1), CVal::Addr(t2, o2)) if format!("{:?}", t1) == format!("{:?}", t2) => return Some(CVal::Int((o1 - o2) / sz)),
            _ => {}
        }
    }
    if let (Type::Ptr(pt), BinOp::Add, CVal::Int(i), CVal::Addr(t, o)) = (tb, op, a, b) {
        let sz = size_of(pt, structs).max(1) as i64;
        return Some(CVal::Addr(t, o + i * sz));
    }
    match (a, b) {
        (CVal::Int(x), CVal::Int(y)) => {
            let unsigned = matches!(ta.scalar(), Some(s) if !s.is_signed() && s != Scalar::Bool) || ta.is_ptr();
            let rs = tr.scalar().unwrap_or(Scalar::I64);
            let r = match op {
                BinOp::Add => x.wrapping_add(y),
                BinOp::Sub => x.wrapping_sub(y),
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div => {
                    if y == 0 {
                        return None;
                    }
                    if unsigned {
                        ((x as u64) / (y as u64)) as i64
                    } else {
                        x.wrapping_div(y)
                    }
                }
                BinOp::Rem => {
                    if y == 0 {
                        return None;
                    }
                    if unsigned {
                        ((x as u64) % (y as u64)) as i64
                    } else {
                        x.wrapping_rem(y)
                    }
                }
                BinOp::Shl => x.wrapping_shl(y as u32),
                BinOp::Shr => {
                    if unsigned {
                        let w = ta.scalar().map(|s| s.size() * 8).unwrap_or(64);
                        let ux = if w == 64 { x as u64 } else { (x as u64) & ((1u64 << w) - 1) };
                        (ux >> (y as u32 & 63)) as i64
                    } else {
                        x.wrapping_shr(y as u32)
                    }
                }
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
                BinOp::Eq => (x == y) as i64,
                BinOp::Ne => (x != y) as i64,
                BinOp::Lt => (if unsigned { (x as u64) < (y as u64) } else { x < y }) as i64,
                BinOp::Le => (if unsigned { (x as u64) <= (y as u64) } else { x <= y }) as i64,
                BinOp::Gt => (if unsigned { (x as u64) > (y as u64) } else { x > y }) as i64,
                BinOp::Ge => (if unsigned { (x as u64) >= (y as u64) } else { x >= y }) as i64,
                BinOp::LogAnd => (x != 0 && y != 0) as i64,
                BinOp::LogOr => (x != 0 || y != 0) as i64,
            };
            Some(CVal::Int(wrap(r, rs)))
        }
        (CVal::Float(_), _) | (_, CVal::Float(_)) => {
            let fx = match a {
                CVal::Int(i) => i as f64,
                CVal::Float(x) => x,
                _ => return None,
            };
            let fy = match b {
                CVal::Int(i) => i as f64,
                CVal::Float(x) => x,
                _ => return None,
            };
            let r = match op {
                BinOp::Add => fx + fy,
                BinOp::Sub => fx - fy,
                BinOp::Mul => fx * fy,
                BinOp::Div => fx / fy,
                BinOp::Eq => return Some(CVal::Int((fx == fy) as i64)),
                BinOp::Ne => return Some(CVal::Int((fx != fy) as i64)),
                BinOp::Lt => return Some(CVal::Int((fx < fy) as i64)),
                BinOp::Le => return Some(CVal::Int((fx <= fy) as i64)),
                BinOp::Gt => return Some(CVal::Int((fx > fy) as i64)),
                BinOp::Ge => return Some(CVal::Int((fx >= fy) as i64)),
                BinOp::LogAnd => return Some(CVal::Int((fx != 0.0 && fy != 0.0) as i64)),
                BinOp::LogOr => return Some(CVal::Int((fx != 0.0 || fy != 0.0) as i64)),
                _ => return None,
            };
            Some(CVal::Float(if tr.scalar() == Some(Scalar::F32) { r as f32 as f64 } else { r }))
        }
        _ => None,
    }
}

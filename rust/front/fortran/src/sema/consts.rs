//! Compile-time values: `parameter` constants, kind selectors, array
//! bounds, `data` values and initialisers, folded with Fortran's rules
//! (integer division truncates, `**` on integers, the mixed-type result
//! of `types::FType::numeric_result`).

use super::types::FType;

#[derive(Clone, Debug, PartialEq)]
pub enum ConstVal {
    Int(i64),
    Real(f64),
    Complex(f64, f64),
    Logical(bool),
    Str(Vec<u8>),
}

impl ConstVal {
    pub fn as_int(&self) -> Option<i64> {
        match self {
            ConstVal::Int(v) => Some(*v),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            ConstVal::Int(v) => Some(*v as f64),
            ConstVal::Real(v) => Some(*v),
            ConstVal::Complex(r, _) => Some(*r),
            _ => None,
        }
    }

    /// The value converted to type `t` (numeric conversions; `None` when
    /// the types do not convert).
    pub fn convert(&self, t: &FType) -> Option<ConstVal> {
        Some(match (self, t) {
            (ConstVal::Int(v), FType::Int(k)) => ConstVal::Int(wrap(*v, *k)),
            (ConstVal::Real(v), FType::Int(k)) => ConstVal::Int(wrap(v.trunc() as i64, *k)),
            (ConstVal::Complex(r, _), FType::Int(k)) => ConstVal::Int(wrap(r.trunc() as i64, *k)),
            (ConstVal::Int(v), FType::Real(k)) => ConstVal::Real(round(*v as f64, *k)),
            (ConstVal::Real(v), FType::Real(k)) => ConstVal::Real(round(*v, *k)),
            (ConstVal::Complex(r, _), FType::Real(k)) => ConstVal::Real(round(*r, *k)),
            (ConstVal::Int(v), FType::Complex(k)) => ConstVal::Complex(round(*v as f64, *k), 0.0),
            (ConstVal::Real(v), FType::Complex(k)) => ConstVal::Complex(round(*v, *k), 0.0),
            (ConstVal::Complex(r, i), FType::Complex(k)) => ConstVal::Complex(round(*r, *k), round(*i, *k)),
            (ConstVal::Logical(b), FType::Logical(_)) => ConstVal::Logical(*b),
            (ConstVal::Str(s), FType::Char(n)) => {
                let mut s = s.clone();
                if let Some(n) = n {
                    s.resize(*n as usize, b' ');
                }
                ConstVal::Str(s)
            }
            _ => return None,
        })
    }

    /// The little-endian bytes of this value stored as type `t`.
    pub fn bytes(&self, t: &FType) -> Vec<u8> {
        let v = self.convert(t).unwrap_or_else(|| self.clone());
        match (&v, t) {
            (ConstVal::Int(x), FType::Int(k)) => x.to_le_bytes()[..*k as usize].to_vec(),
            (ConstVal::Logical(b), FType::Logical(k)) => (*b as i64).to_le_bytes()[..*k as usize].to_vec(),
            (ConstVal::Real(x), FType::Real(4)) => (*x as f32).to_le_bytes().to_vec(),
            (ConstVal::Real(x), FType::Real(_)) => x.to_le_bytes().to_vec(),
            (ConstVal::Complex(r, i), FType::Complex(4)) => [(*r as f32).to_le_bytes(), (*i as f32).to_le_bytes()].concat(),
            (ConstVal::Complex(r, i), FType::Complex(_)) => [r.to_le_bytes(), i.to_le_bytes()].concat(),
            (ConstVal::Str(s), FType::Char(n)) => {
                let mut s = s.clone();
                s.resize(n.unwrap_or(s.len() as u64) as usize, b' ');
                s
            }
            _ => vec![0; t.ir_size()],
        }
    }
}

impl FType {
    pub fn ir_size(&self) -> usize {
        match self {
            FType::Int(k) | FType::Logical(k) => *k as usize,
            FType::Real(k) => *k as usize,
            FType::Complex(k) => 2 * *k as usize,
            FType::Char(n) => n.unwrap_or(1) as usize,
            FType::Derived(_, n) => *n as usize,
        }
    }
}

pub fn wrap(v: i64, k: u8) -> i64 {
    match k {
        1 => v as i8 as i64,
        2 => v as i16 as i64,
        4 => v as i32 as i64,
        _ => v,
    }
}

fn round(v: f64, k: u8) -> f64 {
    if k == 4 {
        v as f32 as f64
    } else {
        v
    }
}

/// `a ** b` on integers (Fortran: negative exponents give 0 unless |a| = 1).
pub fn ipow(a: i64, b: i64) -> i64 {
    if b < 0 {
        return match a {
            1 => 1,
            -1 => {
                if b % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            _ => 0,
        };
    }
    let mut r: i64 = 1;
    for _ in 0..b.min(64) {
        r = r.wrapping_mul(a);
    }
    r
}

use super::cx::{Cx, Sym};
use crate::ast::{self, BinaryOp, ExprKind, KindParam, UnaryOp};

impl Cx<'_> {
    /// The kind a literal's `_kind` suffix names.
    pub fn kind_param(&mut self, k: &Option<KindParam>, default: u8) -> Option<u8> {
        match k {
            None => Some(default),
            Some(KindParam::Int(v)) => Some(*v as u8),
            Some(KindParam::Name(n)) => match self.lookup(&n.text) {
                Some(Sym::Const(ConstVal::Int(v), _)) => Some(*v as u8),
                _ => None,
            },
        }
    }

    /// The value of a constant expression with its type, if it is one.
    pub fn fold(&mut self, e: &ast::Expr) -> Option<(ConstVal, FType)> {
        Some(match &e.kind {
            ExprKind::Int { value, kind } => {
                let k = self.kind_param(kind, 4)?;
                (ConstVal::Int(*value as i64), FType::Int(k))
            }
            ExprKind::Real { value, double, kind, .. } => {
                let k = self.kind_param(kind, if *double { 8 } else { 4 })?;
                (ConstVal::Real(round(*value, k)), FType::Real(k))
            }
            ExprKind::Logical { value, kind } => (ConstVal::Logical(*value), FType::Logical(self.kind_param(kind, 4)?)),
            ExprKind::Char { value, .. } => (ConstVal::Str(value.as_bytes().to_vec()), FType::Char(Some(value.len() as u64))),
            ExprKind::Boz { value } => (ConstVal::Int(*value as i64), FType::Int(if *value > i32::MAX as u128 { 8 } else { 4 })),
            ExprKind::Complex { re, im } => {
                let (r, rt) = self.fold(re)?;
                let (i, it) = self.fold(im)?;
                let k = match (&rt, &it) {
                    (FType::Real(a), FType::Real(b)) => *a.max(b),
                    (FType::Real(a), _) | (_, FType::Real(a)) => *a,
                    _ => 4,
                };
                (ConstVal::Complex(r.as_f64()?, i.as_f64()?), FType::Complex(k))
            }
            ExprKind::Name(n) => match self.lookup(&n.text) {
                Some(Sym::Const(v, t)) => (v.clone(), t.clone()),
                _ => return None,
            },
            ExprKind::Paren(x) => self.fold(x)?,
            ExprKind::Unary { op, operand } => {
                let (v, t) = self.fold(operand)?;
                match (op, v) {
                    (UnaryOp::Plus, v) => (v, t),
                    (UnaryOp::Neg, ConstVal::Int(x)) => (ConstVal::Int(x.wrapping_neg()), t),
                    (UnaryOp::Neg, ConstVal::Real(x)) => (ConstVal::Real(-x), t),
                    (UnaryOp::Neg, ConstVal::Complex(r, i)) => (ConstVal::Complex(-r, -i), t),
                    (UnaryOp::Not, ConstVal::Logical(b)) => (ConstVal::Logical(!b), t),
                    _ => return None,
                }
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, at) = self.fold(lhs)?;
                let (b, bt) = self.fold(rhs)?;
                fold_binary(*op, a, &at, b, &bt)?
            }
            ExprKind::Apply { base, args } => {
                let ExprKind::Name(n) = &base.kind else { return None };
                if self.lookup(&n.text).is_some_and(|s| !matches!(s, Sym::Builtin(_))) {
                    if let Some(Sym::ConstArr { vals, ty, .. }) = self.lookup(&n.text).cloned() {
                        if args.len() == 1 {
                            if let ast::ArgValue::Expr(i) = &args[0].value {
                                let (iv, _) = self.fold(i)?;
                                let i = iv.as_int()? - 1;
                                return Some((vals.get(i as usize)?.clone(), ty));
                            }
                        }
                    }
                    return None;
                }
                let mut vals = vec![];
                for a in args {
                    let ast::ArgValue::Expr(x) = &a.value else { return None };
                    if n.text == "kind"
                        || n.text == "huge"
                        || n.text == "tiny"
                        || n.text == "epsilon"
                        || n.text == "size"
                        || n.text == "digits"
                        || n.text == "precision"
                        || n.text == "range"
                    {
                        // Inquiry functions: the argument's type (and its value only for size).
                        let t = self.type_of_expr(x)?;
                        vals.push((a.keyword.as_ref().map(|k| k.text.clone()), None, t, x));
                        continue;
                    }
                    let (v, t) = self.fold(x)?;
                    vals.push((a.keyword.as_ref().map(|k| k.text.clone()), Some(v), t, x));
                }
                self.fold_intrinsic(&n.text, &vals)?
            }
            _ => return None,
        })
    }

    /// Folded intrinsic calls (kind selectors and the elemental ones on constants).
    fn fold_intrinsic(&mut self, name: &str, args: &[(Option<String>, Option<ConstVal>, FType, &ast::Expr)]) -> Option<(ConstVal, FType)> {
        let val = |i: usize| args.get(i).and_then(|a| a.1.clone());
        let kw = |k: &str| args.iter().find(|a| a.0.as_deref() == Some(k)).and_then(|a| a.1.clone());
        let int_kind = |cx: &mut Self| -> Option<u8> {
            match kw("kind") {
                Some(ConstVal::Int(k)) => Some(k as u8),
                _ => {
                    let _ = cx;
                    None
                }
            }
        };
        Some(match name {
            "kind" => (ConstVal::Int(args.first()?.2.kind() as i64), FType::INT),
            "selected_real_kind" => {
                let p = kw("p").or_else(|| if args.first()?.0.is_none() { val(0) } else { None }).and_then(|v| v.as_int()).unwrap_or(0);
                let r = kw("r").or_else(|| args.get(1).filter(|a| a.0.is_none()).and_then(|a| a.1.clone())).and_then(|v| v.as_int()).unwrap_or(0);
                (ConstVal::Int(super::types::selected_real_kind(p, r)), FType::INT)
            }
            "selected_int_kind" => (ConstVal::Int(super::types::selected_int_kind(val(0)?.as_int()?)), FType::INT),
            "huge" => match &args.first()?.2 {
                FType::Int(k) => (ConstVal::Int(((1i128 << (8 * *k as u32 - 1)) - 1) as i64), FType::Int(*k)),
                FType::Real(4) => (ConstVal::Real(f32::MAX as f64), FType::Real(4)),
                FType::Real(k) => (ConstVal::Real(f64::MAX), FType::Real(*k)),
                _ => return None,
            },
            "tiny" => match &args.first()?.2 {
                FType::Real(4) => (ConstVal::Real(f32::MIN_POSITIVE as f64), FType::Real(4)),
                FType::Real(k) => (ConstVal::Real(f64::MIN_POSITIVE), FType::Real(*k)),
                _ => return None,
            },
            "epsilon" => match &args.first()?.2 {
                FType::Real(4) => (ConstVal::Real(f32::EPSILON as f64), FType::Real(4)),
                FType::Real(k) => (ConstVal::Real(f64::EPSILON), FType::Real(*k)),
                _ => return None,
            },
            "digits" => match &args.first()?.2 {
                FType::Int(k) => (ConstVal::Int(8 * *k as i64 - 1), FType::INT),
                FType::Real(4) => (ConstVal::Int(24), FType::INT),
                FType::Real(_) => (ConstVal::Int(53), FType::INT),
                _ => return None,
            },
            "precision" => match &args.first()?.2 {
                FType::Real(4) | FType::Complex(4) => (ConstVal::Int(6), FType::INT),
                FType::Real(_) | FType::Complex(_) => (ConstVal::Int(15), FType::INT),
                _ => return None,
            },
            "range" => match &args.first()?.2 {
                FType::Int(k) => (ConstVal::Int([2, 4, 9, 18][(*k as usize).trailing_zeros() as usize]), FType::INT),
                FType::Real(4) | FType::Complex(4) => (ConstVal::Int(37), FType::INT),
                FType::Real(_) | FType::Complex(_) => (ConstVal::Int(307), FType::INT),
                _ => return None,
            },
            "int" => {
                let k = int_kind(self).unwrap_or(4);
                (val(0)?.convert(&FType::Int(k))?, FType::Int(k))
            }
            "nint" => {
                let k = int_kind(self).unwrap_or(4);
                (ConstVal::Int(wrap(val(0)?.as_f64()?.round() as i64, k)), FType::Int(k))
            }
            "real" | "float" | "sngl" => {
                let k = int_kind(self).unwrap_or(if name == "real" {
                    if let FType::Complex(k) = args.first()?.2 {
                        k
                    } else {
                        4
                    }
                } else {
                    4
                });
                (val(0)?.convert(&FType::Real(k))?, FType::Real(k))
            }
            "dble" => (val(0)?.convert(&FType::DOUBLE)?, FType::DOUBLE),
            "abs" => match val(0)? {
                ConstVal::Int(v) => (ConstVal::Int(v.wrapping_abs()), args[0].2.clone()),
                ConstVal::Real(v) => (ConstVal::Real(v.abs()), args[0].2.clone()),
                _ => return None,
            },
            "sqrt" => {
                let t = args.first()?.2.clone();
                if !t.is_real() {
                    return None;
                }
                (ConstVal::Real(round(val(0)?.as_f64()?.sqrt(), t.kind())), t)
            }
            "atan" | "acos" | "asin" | "sin" | "cos" | "tan" | "exp" | "log" | "log10" | "sinh" | "cosh" | "tanh" => {
                let t = args.first()?.2.clone();
                if !t.is_real() {
                    return None;
                }
                let x = val(0)?.as_f64()?;
                let y = if t.kind() == 4 {
                    let x = x as f32;
                    (match name {
                        "atan" => x.atan(),
                        "acos" => x.acos(),
                        "asin" => x.asin(),
                        "sin" => x.sin(),
                        "cos" => x.cos(),
                        "tan" => x.tan(),
                        "exp" => x.exp(),
                        "log" => x.ln(),
                        "log10" => x.log10(),
                        "sinh" => x.sinh(),
                        "cosh" => x.cosh(),
                        _ => x.tanh(),
                    }) as f64
                } else {
                    match name {
                        "atan" => x.atan(),
                        "acos" => x.acos(),
                        "asin" => x.asin(),
                        "sin" => x.sin(),
                        "cos" => x.cos(),
                        "tan" => x.tan(),
                        "exp" => x.exp(),
                        "log" => x.ln(),
                        "log10" => x.log10(),
                        "sinh" => x.sinh(),
                        "cosh" => x.cosh(),
                        _ => x.tanh(),
                    }
                };
                (ConstVal::Real(y), t)
            }
            "mod" => match (val(0)?, val(1)?) {
                (ConstVal::Int(a), ConstVal::Int(b)) if b != 0 => (ConstVal::Int(a.wrapping_rem(b)), args[0].2.clone()),
                _ => return None,
            },
            "max" | "min" => {
                let mut best = val(0)?;
                let mut t = args[0].2.clone();
                for (i, a) in args.iter().enumerate().skip(1) {
                    t = FType::numeric_result(&t, &a.2)?;
                    let v = val(i)?;
                    let better = if name == "max" { v.as_f64()? > best.as_f64()? } else { v.as_f64()? < best.as_f64()? };
                    if better {
                        best = v;
                    }
                }
                (best.convert(&t)?, t)
            }
            "len" => match &args.first()?.2 {
                FType::Char(Some(n)) => (ConstVal::Int(*n as i64), FType::INT),
                _ => return None,
            },
            "ichar" | "iachar" => match val(0)? {
                ConstVal::Str(s) => (ConstVal::Int(*s.first()? as i64), FType::INT),
                _ => return None,
            },
            "char" | "achar" => (ConstVal::Str(vec![val(0)?.as_int()? as u8]), FType::Char(Some(1))),
            "ishft" => match (val(0)?, val(1)?) {
                (ConstVal::Int(a), ConstVal::Int(s)) => {
                    let bits = 8 * args[0].2.kind() as i64;
                    let u = (a as u64) & if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
                    let r = if s.abs() >= bits {
                        0
                    } else if s >= 0 {
                        u << s
                    } else {
                        u >> -s
                    };
                    (ConstVal::Int(wrap(r as i64, args[0].2.kind())), args[0].2.clone())
                }
                _ => return None,
            },
            "iand" | "ior" | "ieor" => match (val(0)?, val(1)?) {
                (ConstVal::Int(a), ConstVal::Int(b)) => (
                    ConstVal::Int(match name {
                        "iand" => a & b,
                        "ior" => a | b,
                        _ => a ^ b,
                    }),
                    args[0].2.clone(),
                ),
                _ => return None,
            },
            _ => return None,
        })
    }
}

/// A binary operation on constants.
pub fn fold_binary(op: BinaryOp, a: ConstVal, at: &FType, b: ConstVal, bt: &FType) -> Option<(ConstVal, FType)> {
    use BinaryOp::*;
    match op {
        And | Or | Eqv | Neqv => {
            let (ConstVal::Logical(x), ConstVal::Logical(y)) = (a, b) else { return None };
            let r = match op {
                And => x && y,
                Or => x || y,
                Eqv => x == y,
                _ => x != y,
            };
            return Some((ConstVal::Logical(r), FType::LOGICAL));
        }
        Concat => {
            let (ConstVal::Str(mut x), ConstVal::Str(y)) = (a, b) else { return None };
            x.extend(y);
            let n = x.len() as u64;
            return Some((ConstVal::Str(x), FType::Char(Some(n))));
        }
        _ => {}
    }
    if let (ConstVal::Str(x), ConstVal::Str(y)) = (&a, &b) {
        let r = match op {
            Eq => x == y,
            Ne => x != y,
            _ => return None,
        };
        return Some((ConstVal::Logical(r), FType::LOGICAL));
    }
    // Integer ** integer keeps the integer type; real ** integer the real's.
    if op == Pow {
        if let (ConstVal::Int(x), ConstVal::Int(y)) = (&a, &b) {
            let t = FType::numeric_result(at, bt)?;
            return Some((ConstVal::Int(wrap(ipow(*x, *y), t.kind())), t));
        }
    }
    let t = FType::numeric_result(at, bt)?;
    let a = a.convert(&t)?;
    let b = b.convert(&t)?;
    let cmp = |o: std::cmp::Ordering| -> bool {
        match op {
            Eq => o.is_eq(),
            Ne => !o.is_eq(),
            Lt => o.is_lt(),
            Le => o.is_le(),
            Gt => o.is_gt(),
            _ => o.is_ge(),
        }
    };
    Some(match (a, b) {
        (ConstVal::Int(x), ConstVal::Int(y)) => match op {
            Add => (ConstVal::Int(wrap(x.wrapping_add(y), t.kind())), t),
            Sub => (ConstVal::Int(wrap(x.wrapping_sub(y), t.kind())), t),
            Mul => (ConstVal::Int(wrap(x.wrapping_mul(y), t.kind())), t),
            Div if y != 0 => (ConstVal::Int(x.wrapping_div(y)), t),
            Eq | Ne | Lt | Le | Gt | Ge => (ConstVal::Logical(cmp(x.cmp(&y))), FType::LOGICAL),
            _ => return None,
        },
        (ConstVal::Real(x), ConstVal::Real(y)) => {
            let k = t.kind();
            match op {
                Add => (ConstVal::Real(round(x + y, k)), t),
                Sub => (ConstVal::Real(round(x - y, k)), t),
                Mul => (ConstVal::Real(round(x * y, k)), t),
                Div => (ConstVal::Real(round(x / y, k)), t),
                Pow => (ConstVal::Real(round(x.powf(y), k)), t),
                Eq | Ne | Lt | Le | Gt | Ge => (ConstVal::Logical(cmp(x.partial_cmp(&y)?)), FType::LOGICAL),
                _ => return None,
            }
        }
        (ConstVal::Complex(xr, xi), ConstVal::Complex(yr, yi)) => match op {
            Add => (ConstVal::Complex(xr + yr, xi + yi), t),
            Sub => (ConstVal::Complex(xr - yr, xi - yi), t),
            Mul => (ConstVal::Complex(xr * yr - xi * yi, xr * yi + xi * yr), t),
            Eq => (ConstVal::Logical(xr == yr && xi == yi), FType::LOGICAL),
            Ne => (ConstVal::Logical(xr != yr || xi != yi), FType::LOGICAL),
            _ => return None,
        },
        _ => return None,
    })
}

//! The host interpreter of the libm register machine: runs a [`Prog`] with
//! Rust's IEEE operations (correctly rounded like the PTX instructions the
//! program prints as), so tests measure on the host what the GPU computes.

use super::dsl::{BinOp, Cmp, Inst, Opnd, Prog, Rnd, Ty, UnOp};

fn min_max(ty: Ty, a: u64, b: u64, max: bool) -> u64 {
    // PTX min/max: a NaN operand yields the other one; -0 < +0.
    let (x, y, nan) = if ty == Ty::F64 {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        (x, y, f64::NAN.to_bits())
    } else {
        let (x, y) = (f32::from_bits(a as u32) as f64, f32::from_bits(b as u32) as f64);
        (x, y, f32::NAN.to_bits() as u64)
    };
    if x.is_nan() && y.is_nan() {
        return nan;
    }
    if x.is_nan() {
        return b;
    }
    if y.is_nan() {
        return a;
    }
    if x == y {
        // Equal: zeros of different signs are ordered -0 < +0.
        let neg_a = x.is_sign_negative();
        return if neg_a == max { b } else { a };
    }
    if (x < y) != max {
        a
    } else {
        b
    }
}

impl Prog {
    /// Runs the function on argument bits (f32 in the low 32 bits). Generic
    /// stores are returned as (address, bits) pairs.
    pub fn eval(&self, args: &[u64]) -> (u64, Vec<(u64, u64)>) {
        let mut reg = vec![0u64; self.regs.len()];
        reg[..args.len()].copy_from_slice(args);
        let mut stores = Vec::new();
        let labels: Vec<(u32, usize)> = self.insts.iter().enumerate().filter_map(|(i, x)| if let Inst::Label(l) = x { Some((*l, i)) } else { None }).collect();
        let mut pc = 0;
        let mut steps = 0u64;
        loop {
            steps += 1;
            assert!(steps < 10_000_000, "libm dsl: runaway loop");
            let get = |reg: &Vec<u64>, o: Opnd| match o {
                Opnd::Reg(r) => reg[r as usize],
                Opnd::Imm(b) => b,
            };
            let guard = |reg: &Vec<u64>, p: Option<(u32, bool)>| p.is_none_or(|(p, neg)| (reg[p as usize] != 0) != neg);
            match &self.insts[pc] {
                Inst::Bin(o, ty, d, a, b) => {
                    let (a, b) = (get(&reg, *a), get(&reg, *b));
                    reg[*d as usize] = eval_bin(*o, *ty, a, b) & ty.mask();
                }
                Inst::Fma(ty, d, a, b, c) => {
                    let (a, b, c) = (get(&reg, *a), get(&reg, *b), get(&reg, *c));
                    reg[*d as usize] = if *ty == Ty::F64 {
                        f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c)).to_bits()
                    } else {
                        f32::from_bits(a as u32).mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32)).to_bits() as u64
                    };
                }
                Inst::Un(o, ty, d, a) => {
                    let a = get(&reg, *a);
                    reg[*d as usize] = eval_un(*o, *ty, a);
                }
                Inst::Cvt(dt, st, rnd, d, a) => {
                    let a = get(&reg, *a);
                    reg[*d as usize] = eval_cvt(*dt, *st, *rnd, a) & dt.mask();
                }
                Inst::Bits(_, _, d, a) | Inst::Mov(_, d, a) => reg[*d as usize] = get(&reg, *a),
                Inst::Setp(c, ty, d, a, b) => {
                    let (a, b) = (get(&reg, *a), get(&reg, *b));
                    reg[*d as usize] = eval_cmp(*c, *ty, a, b) as u64;
                }
                Inst::Selp(_, d, a, b, p) => reg[*d as usize] = if reg[*p as usize] != 0 { get(&reg, *a) } else { get(&reg, *b) },
                Inst::Label(_) => {}
                Inst::Bra(p, l) => {
                    if guard(&reg, *p) {
                        pc = labels.iter().find(|(x, _)| x == l).expect("label").1;
                        continue;
                    }
                }
                Inst::Ret(p, v) => {
                    if guard(&reg, *p) {
                        return (get(&reg, *v), stores);
                    }
                }
                Inst::St(_, a, v) => stores.push((get(&reg, *a), get(&reg, *v))),
                Inst::Table(d, _, t, idx) => {
                    let i = get(&reg, *idx) as u32 as i32;
                    reg[*d as usize] = self.tables[*t as usize][usize::try_from(i).expect("libm table index")];
                }
            }
            pc += 1;
        }
    }
}

fn f64_op(a: u64, b: u64, f: impl Fn(f64, f64) -> f64) -> u64 {
    f(f64::from_bits(a), f64::from_bits(b)).to_bits()
}
fn f32_op(a: u64, b: u64, f: impl Fn(f32, f32) -> f32) -> u64 {
    f(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits() as u64
}

fn sext(ty: Ty, a: u64) -> i64 {
    if ty.wide() {
        a as i64
    } else {
        a as u32 as i32 as i64
    }
}

fn eval_bin(o: BinOp, ty: Ty, a: u64, b: u64) -> u64 {
    let w = if ty.wide() { 64 } else { 32 };
    match ty {
        Ty::F64 => match o {
            BinOp::Add => f64_op(a, b, |x, y| x + y),
            BinOp::Sub => f64_op(a, b, |x, y| x - y),
            BinOp::Mul => f64_op(a, b, |x, y| x * y),
            BinOp::Div => f64_op(a, b, |x, y| x / y),
            BinOp::Min => min_max(ty, a, b, false),
            BinOp::Max => min_max(ty, a, b, true),
            _ => panic!("libm dsl: {o:?} on f64"),
        },
        Ty::F32 => match o {
            BinOp::Add => f32_op(a, b, |x, y| x + y),
            BinOp::Sub => f32_op(a, b, |x, y| x - y),
            BinOp::Mul => f32_op(a, b, |x, y| x * y),
            BinOp::Div => f32_op(a, b, |x, y| x / y),
            BinOp::Min => min_max(ty, a, b, false),
            BinOp::Max => min_max(ty, a, b, true),
            _ => panic!("libm dsl: {o:?} on f32"),
        },
        _ => match o {
            BinOp::Add => a.wrapping_add(b),
            BinOp::Sub => a.wrapping_sub(b),
            BinOp::Mul => a.wrapping_mul(b),
            BinOp::Div if ty.is_signed() => sext(ty, a).checked_div(sext(ty, b)).unwrap_or(-1) as u64,
            BinOp::Div => a.checked_div(b).unwrap_or(u64::MAX),
            BinOp::Rem if ty.is_signed() => sext(ty, a).checked_rem(sext(ty, b)).unwrap_or(0) as u64,
            BinOp::Rem => a.checked_rem(b).unwrap_or(a),
            BinOp::And => a & b,
            BinOp::Or => a | b,
            BinOp::Xor => a ^ b,
            BinOp::Shl => {
                if b >= w {
                    0
                } else {
                    a << b
                }
            }
            BinOp::Shr if ty.is_signed() => (sext(ty, a) >> b.min(w - 1)) as u64,
            BinOp::Shr => {
                if b >= w {
                    0
                } else {
                    a >> b
                }
            }
            BinOp::MulHi => match ty {
                Ty::U64 => ((a as u128 * b as u128) >> 64) as u64,
                Ty::S64 => ((a as i64 as i128 * b as i64 as i128) >> 64) as u64,
                Ty::U32 => (a * b) >> 32,
                _ => ((sext(ty, a) * sext(ty, b)) >> 32) as u64,
            },
            BinOp::Min if ty.is_signed() => sext(ty, a).min(sext(ty, b)) as u64,
            BinOp::Max if ty.is_signed() => sext(ty, a).max(sext(ty, b)) as u64,
            BinOp::Min => a.min(b),
            BinOp::Max => a.max(b),
        },
    }
}

fn eval_un(o: UnOp, ty: Ty, a: u64) -> u64 {
    if ty.is_float() {
        let f = |g: fn(f64) -> f64, h: fn(f32) -> f32| {
            if ty == Ty::F64 {
                g(f64::from_bits(a)).to_bits()
            } else {
                h(f32::from_bits(a as u32)).to_bits() as u64
            }
        };
        return match o {
            UnOp::Neg => f(|x| -x, |x| -x),
            UnOp::Abs => f(f64::abs, f32::abs),
            UnOp::Sqrt => f(f64::sqrt, f32::sqrt),
            UnOp::Rni => f(f64::round_ties_even, f32::round_ties_even),
            UnOp::Rzi => f(f64::trunc, f32::trunc),
            UnOp::Rmi => f(f64::floor, f32::floor),
            UnOp::Rpi => f(f64::ceil, f32::ceil),
            UnOp::Not | UnOp::Clz => panic!("libm dsl: {o:?} on a float"),
        };
    }
    match o {
        UnOp::Neg => a.wrapping_neg() & ty.mask(),
        UnOp::Not => !a & ty.mask(),
        UnOp::Clz if ty.wide() => a.leading_zeros() as u64,
        UnOp::Clz => (a as u32).leading_zeros() as u64,
        UnOp::Abs => (sext(ty, a).wrapping_abs() as u64) & ty.mask(),
        _ => panic!("libm dsl: {o:?} on an integer"),
    }
}

fn eval_cvt(dt: Ty, st: Ty, rnd: Rnd, a: u64) -> u64 {
    // The source as f64 (exact for f32 and 32-bit ints) or as i128 for integers.
    if st.is_float() {
        let x = if st == Ty::F64 { f64::from_bits(a) } else { f32::from_bits(a as u32) as f64 };
        if dt.is_float() {
            return if dt == Ty::F64 { x.to_bits() } else { (x as f32).to_bits() as u64 };
        }
        let x = match rnd {
            Rnd::Rni => x.round_ties_even(),
            Rnd::Rmi => x.floor(),
            _ => x.trunc(),
        };
        return match dt {
            Ty::S32 => x as i32 as u32 as u64,
            Ty::U32 => x as u32 as u64,
            Ty::S64 => x as i64 as u64,
            _ => x as u64,
        };
    }
    let i: i128 = if st.is_signed() { sext(st, a) as i128 } else { (a & st.mask()) as i128 };
    match dt {
        Ty::F64 => (i as f64).to_bits(),
        Ty::F32 => (i as f32).to_bits() as u64,
        _ => (i as i64 as u64) & dt.mask(),
    }
}

fn eval_cmp(c: Cmp, ty: Ty, a: u64, b: u64) -> bool {
    if ty.is_float() {
        let (x, y) = if ty == Ty::F64 { (f64::from_bits(a), f64::from_bits(b)) } else { (f32::from_bits(a as u32) as f64, f32::from_bits(b as u32) as f64) };
        let un = x.is_nan() || y.is_nan();
        return match c {
            Cmp::Eq => x == y,
            Cmp::Ne => !un && x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
            Cmp::Equ => un || x == y,
            Cmp::Neu => x != y,
            Cmp::Ltu => un || x < y,
            Cmp::Leu => un || x <= y,
            Cmp::Gtu => un || x > y,
            Cmp::Geu => un || x >= y,
            Cmp::Nan => un,
        };
    }
    if ty == Ty::Pred {
        return match c {
            Cmp::Eq => a == b,
            _ => a != b,
        };
    }
    let (x, y): (i128, i128) = if ty.is_signed() { (sext(ty, a) as i128, sext(ty, b) as i128) } else { (a as i128, b as i128) };
    match c {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        Cmp::Lt => x < y,
        Cmp::Le => x <= y,
        Cmp::Gt => x > y,
        Cmp::Ge => x >= y,
        _ => panic!("libm dsl: {c:?} on integers"),
    }
}

//! Every (operation, type, signedness, space) of the atomic emitters and the
//! CAS of every type assembled by ptxas (skipped when none is found), plus
//! the choice between native `atom` and CAS loops checked on the text.

use super::*;
use crate::libm::ptxas_check;

/// An emitter that names registers %v<n> and declares each one.
#[derive(Default)]
struct Mock {
    decls: Vec<String>,
    lines: Vec<String>,
    labels: u32,
}

impl Emit for Mock {
    fn reg(&mut self, ty: PtxTy) -> String {
        let name = format!("%v{}", self.decls.len());
        self.decls.push(format!("\t.reg .{} {name};", ty.reg_class().name()));
        name
    }
    fn label(&mut self) -> String {
        self.labels += 1;
        format!("$A{}", self.labels)
    }
    fn line(&mut self, text: &str) {
        self.lines.push(format!("\t{text}"));
    }
}

const TYPES: [PtxTy; 10] = [PtxTy::U8, PtxTy::S8, PtxTy::U16, PtxTy::S16, PtxTy::U32, PtxTy::S32, PtxTy::U64, PtxTy::S64, PtxTy::F32, PtxTy::F64];
const INT_OPS: [AtomicOp; 13] = [
    AtomicOp::Add,
    AtomicOp::Sub,
    AtomicOp::Mul,
    AtomicOp::Div,
    AtomicOp::Min,
    AtomicOp::Max,
    AtomicOp::And,
    AtomicOp::Or,
    AtomicOp::Xor,
    AtomicOp::Shl,
    AtomicOp::Shr,
    AtomicOp::Exch,
    AtomicOp::Read,
];
const FLOAT_OPS: [AtomicOp; 8] = [AtomicOp::Add, AtomicOp::Sub, AtomicOp::Mul, AtomicOp::Div, AtomicOp::Min, AtomicOp::Max, AtomicOp::Exch, AtomicOp::Read];

fn ops(ty: PtxTy) -> &'static [AtomicOp] {
    if matches!(ty, PtxTy::F32 | PtxTy::F64) {
        &FLOAT_OPS
    } else {
        &INT_OPS
    }
}

/// One kernel: the address (param 0) in `space`, the operand from param 1, the old value stored to param 0's first word.
fn kernel(name: &str, ty: PtxTy, space: Space, body: impl FnOnce(&mut Mock, &str, &str, &str) -> String) -> String {
    let mut m = Mock::default();
    let (p, a, v, v2) = (m.reg(PtxTy::U64), m.reg(PtxTy::U64), m.reg(ty), m.reg(ty));
    m.line(&format!("ld.param.u64 {p}, [p0];"));
    match space {
        Space::Global => m.line(&format!("cvta.to.global.u64 {a}, {p};")),
        Space::Shared => m.line(&format!("mov.u64 {a}, sbuf;")),
        Space::Generic => m.line(&format!("mov.u64 {a}, {p};")),
    }
    let rc = ty.reg_class();
    let raw = m.reg(PtxTy::U64);
    m.line(&format!("ld.param.u64 {raw}, [p1];"));
    match rc {
        PtxTy::B16 => m.line(&format!("cvt.u16.u64 {v}, {raw};")),
        PtxTy::B32 => m.line(&format!("cvt.u32.u64 {v}, {raw};")),
        PtxTy::F32 => {
            let t = m.reg(PtxTy::U32);
            m.line(&format!("cvt.u32.u64 {t}, {raw};"));
            m.line(&format!("mov.b32 {v}, {t};"));
        }
        PtxTy::F64 => m.line(&format!("mov.b64 {v}, {raw};")),
        _ => m.line(&format!("mov.b64 {v}, {raw};")),
    }
    m.line(&format!("mov.{} {v2}, {v};", rc.name()));
    let old = body(&mut m, &a, &v, &v2);
    let st = match rc {
        PtxTy::B16 => "b16",
        r => r.name(),
    };
    m.line(&format!("st.global.{st} [{p}], {old};"));
    format!(
        ".visible .entry {name}(.param .u64 p0, .param .u64 p1)\n{{\n\t.shared .align 8 .b8 sbuf[16];\n{}\n{}\n\tret;\n}}\n",
        m.decls.join("\n"),
        m.lines.join("\n")
    )
}

fn module(kernels: &[String]) -> String {
    format!(".version 7.8\n.target sm_80\n.address_size 64\n\n{}", kernels.join("\n"))
}

fn all_kernels() -> Vec<(String, String)> {
    let mut ks = Vec::new();
    for space in [Space::Global, Space::Shared, Space::Generic] {
        for ty in TYPES {
            for &op in ops(ty) {
                for signed in [false, true] {
                    let name = format!("k_{op:?}_{}_{}_{space:?}", ty.name(), if signed { "s" } else { "u" });
                    let k = kernel(&name, ty, space, |m, a, v, _| atomic_rmw(m, op, ty, signed, space, a, v));
                    ks.push((name, k));
                }
            }
            let name = format!("k_cas_{}_{space:?}", ty.name());
            let k = kernel(&name, ty, space, |m, a, v, v2| atomic_cas(m, ty, space, a, v, v2));
            ks.push((name, k));
        }
    }
    ks
}

#[test]
fn every_atomic_assembles_with_ptxas() {
    let ks = all_kernels();
    let texts: Vec<String> = ks.iter().map(|(_, k)| k.clone()).collect();
    match ptxas_check(&module(&texts)) {
        Ok(false) => eprintln!("ptxas not found: atomics not assembled"),
        Ok(true) => {}
        Err(e) => {
            for (name, k) in &ks {
                if let Err(e) = ptxas_check(&module(std::slice::from_ref(k))) {
                    panic!("ptxas rejects {name}:\n{e}\n{k}");
                }
            }
            panic!("ptxas rejects the module:\n{e}");
        }
    }
}

fn text(op: AtomicOp, ty: PtxTy, signed: bool) -> String {
    let mut m = Mock::default();
    atomic_rmw(&mut m, op, ty, signed, Space::Global, "%a", "%v");
    m.lines.join("\n")
}

#[test]
fn native_where_ptx_has_the_operation() {
    assert!(text(AtomicOp::Add, PtxTy::F64, false).contains("atom.global.add.f64"));
    assert!(text(AtomicOp::Add, PtxTy::S64, true).contains("atom.global.add.u64"));
    assert!(text(AtomicOp::Sub, PtxTy::F32, false).contains("atom.global.add.f32"));
    assert!(text(AtomicOp::Min, PtxTy::S64, true).contains("atom.global.min.s64"));
    assert!(text(AtomicOp::Max, PtxTy::U32, false).contains("atom.global.max.u32"));
    assert!(text(AtomicOp::Max, PtxTy::U32, true).contains("atom.global.max.s32"));
    assert!(text(AtomicOp::Exch, PtxTy::F64, false).contains("atom.global.exch.b64"));
    assert!(text(AtomicOp::Read, PtxTy::S16, true).contains("ld.relaxed.gpu.global.s16"));
    for (op, ty) in
        [(AtomicOp::Mul, PtxTy::S32), (AtomicOp::Max, PtxTy::F64), (AtomicOp::Shr, PtxTy::S64), (AtomicOp::Add, PtxTy::U8), (AtomicOp::Exch, PtxTy::S16)]
    {
        let t = text(op, ty, false);
        assert!(t.contains(".cas.b") && !t.contains(&format!("atom.global.{}", format!("{op:?}").to_lowercase())), "{op:?} {ty:?}:\n{t}");
    }
    // Sub-word operations swap the aligned containing word.
    assert!(text(AtomicOp::Add, PtxTy::U8, false).contains("atom.global.cas.b32"));
    assert!(text(AtomicOp::Add, PtxTy::U8, false).contains("and.b64"));
}

// ---------------------------------------------------------------------------
// Sequential semantics: a small interpreter of the instructions the emitters
// write, run single-threaded on a byte memory, checks what each sequence
// computes (sub-word masking and extension, min/max NaN and zero rules, the
// CAS loops' exits); the GPU script checks them under contention.
// ---------------------------------------------------------------------------

use std::collections::HashMap;

struct Machine {
    regs: HashMap<String, u64>,
    mem: Vec<u8>,
}

fn width(t: &str) -> u32 {
    t[1..].parse().unwrap()
}

fn mask(bits: u32) -> u64 {
    if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sext(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

fn fval(v: u64, bits: u32) -> f64 {
    if bits == 32 {
        f32::from_bits(v as u32) as f64
    } else {
        f64::from_bits(v)
    }
}

fn fbits(x: f64, bits: u32) -> u64 {
    if bits == 32 {
        (x as f32).to_bits() as u64
    } else {
        x.to_bits()
    }
}

impl Machine {
    fn get(&self, o: &str) -> u64 {
        let o = o.trim();
        if let Some(r) = self.regs.get(o) {
            return *r;
        }
        if let Some(h) = o.strip_prefix("0x").or_else(|| o.strip_prefix("0X")) {
            return u64::from_str_radix(h, 16).unwrap();
        }
        o.parse::<i64>().unwrap_or_else(|_| panic!("operand {o}")) as u64
    }
    fn load(&self, a: u64, bytes: u32) -> u64 {
        (0..bytes).fold(0u64, |acc, i| acc | (self.mem[a as usize + i as usize] as u64) << (8 * i))
    }
    fn store(&mut self, a: u64, bytes: u32, v: u64) {
        for i in 0..bytes {
            self.mem[a as usize + i as usize] = (v >> (8 * i)) as u8;
        }
    }

    /// `op` applied as the instruction `name` (the part before the type) with type `t`.
    fn arith(name: &str, t: &str, a: u64, b: u64) -> u64 {
        let (k, w) = (&t[..1], width(t));
        let r = match (name, k) {
            ("add", "f") => fbits(fval(a, w) + fval(b, w), w),
            ("sub", "f") => fbits(fval(a, w) - fval(b, w), w),
            ("mul", "f") => fbits(fval(a, w) * fval(b, w), w),
            ("div", "f") => fbits(fval(a, w) / fval(b, w), w),
            ("add", _) => a.wrapping_add(b),
            ("sub", _) => a.wrapping_sub(b),
            ("mul", _) => a.wrapping_mul(b),
            ("div", "s") => sext(a, w).checked_div(sext(b, w)).unwrap_or(-1) as u64,
            ("div", _) => (a & mask(w)).checked_div(b & mask(w)).unwrap_or(u64::MAX),
            ("and", _) => a & b,
            ("or", _) => a | b,
            ("xor", _) => a ^ b,
            ("exch", _) => b,
            ("min", "s") => sext(a, w).min(sext(b, w)) as u64,
            ("max", "s") => sext(a, w).max(sext(b, w)) as u64,
            ("min", _) => (a & mask(w)).min(b & mask(w)),
            ("max", _) => (a & mask(w)).max(b & mask(w)),
            _ => panic!("arith {name}.{t}"),
        };
        r & mask(w)
    }

    fn run(&mut self, lines: &[String]) {
        let code: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
        let labels: HashMap<&str, usize> = code.iter().enumerate().filter_map(|(i, l)| l.strip_suffix(':').map(|n| (n, i))).collect();
        let mut pc = 0;
        let mut steps = 0;
        while pc < code.len() {
            steps += 1;
            assert!(steps < 100_000, "runaway");
            let mut l = code[pc];
            pc += 1;
            if l.ends_with(':') {
                continue;
            }
            if let Some(rest) = l.strip_prefix('@') {
                let (g, body) = rest.split_once(' ').unwrap();
                let (neg, p) = match g.strip_prefix('!') {
                    Some(p) => (true, p),
                    None => (false, g),
                };
                if (self.regs[p] != 0) == neg {
                    continue;
                }
                l = body;
            }
            let l = l.trim_end_matches(';');
            let (op, args) = l.split_once(' ').unwrap();
            let args: Vec<&str> = args.split(',').map(|a| a.trim()).collect();
            let parts: Vec<&str> = op.split('.').collect();
            let t = *parts.last().unwrap();
            let addr = |m: &Machine, a: &str| m.get(a.trim_matches(|c| c == '[' || c == ']'));
            match parts[0] {
                "bra" => pc = labels[args[0]],
                "ld" => {
                    let a = addr(self, args[1]);
                    let w = width(t);
                    let v = self.load(a, w / 8);
                    let v = if t.starts_with('s') { sext(v, w) as u64 & mask(w.max(16)) } else { v };
                    self.regs.insert(args[0].into(), v);
                }
                "atom" => {
                    let a = addr(self, args[1]);
                    let name = parts[parts.len() - 2];
                    let w = width(t);
                    let old = self.load(a, w / 8);
                    let new = if name == "cas" {
                        if old == self.get(args[2]) & mask(w) {
                            self.get(args[3])
                        } else {
                            old
                        }
                    } else {
                        Self::arith(name, t, old, self.get(args[2]))
                    };
                    self.store(a, w / 8, new);
                    self.regs.insert(args[0].into(), old);
                }
                "mov" => {
                    let v = self.get(args[1]);
                    self.regs.insert(args[0].into(), v);
                }
                "neg" => {
                    let w = width(t);
                    let a = self.get(args[1]);
                    let v = if t.starts_with('f') { fbits(-fval(a, w), w) } else { a.wrapping_neg() & mask(w) };
                    self.regs.insert(args[0].into(), v);
                }
                "not" => {
                    let v = !self.get(args[1]) & mask(width(t));
                    self.regs.insert(args[0].into(), v);
                }
                "shl" | "shr" => {
                    let (a, s, w) = (self.get(args[1]), self.get(args[2]) as u32, width(t));
                    let v = match (parts[0], &t[..1]) {
                        ("shl", _) => a.checked_shl(s).filter(|_| s < w).unwrap_or(0),
                        (_, "s") => (sext(a, w) >> s.min(w - 1)) as u64,
                        _ => (a & mask(w)).checked_shr(s).filter(|_| s < w).unwrap_or(0),
                    };
                    self.regs.insert(args[0].into(), v & mask(w));
                }
                "bfe" => {
                    let (a, pos, len) = (self.get(args[1]), self.get(args[2]) as u32, self.get(args[3]) as u32);
                    let f = (a >> pos) & mask(len);
                    let v = if t.starts_with('s') { sext(f, len) as u64 & mask(32) } else { f };
                    self.regs.insert(args[0].into(), v);
                }
                "cvt" => {
                    let (dt, st) = (parts[parts.len() - 2], t);
                    let (dw, sw) = (width(dt), width(st));
                    let a = self.get(args[1]) & mask(sw);
                    let v = if st.starts_with('s') { sext(a, sw) as u64 } else { a };
                    self.regs.insert(args[0].into(), v & mask(dw.max(16)));
                }
                "setp" => {
                    let (c, w) = (parts[1], width(t));
                    let (a, b) = (self.get(args[1]), self.get(args[2]));
                    let r = match &t[..1] {
                        "f" => {
                            let (x, y) = (fval(a, w), fval(b, w));
                            match c {
                                "gt" => x > y,
                                "lt" => x < y,
                                "ne" => x != y && !x.is_nan() && !y.is_nan(),
                                _ => panic!("setp.{c}"),
                            }
                        }
                        "s" => {
                            let (x, y) = (sext(a, w), sext(b, w));
                            match c {
                                "gt" => x > y,
                                "lt" => x < y,
                                "ne" => x != y,
                                _ => panic!("setp.{c}"),
                            }
                        }
                        _ => {
                            let (x, y) = (a & mask(w), b & mask(w));
                            match c {
                                "gt" => x > y,
                                "lt" => x < y,
                                "ne" => x != y,
                                _ => panic!("setp.{c}"),
                            }
                        }
                    };
                    self.regs.insert(args[0].into(), r as u64);
                }
                name @ ("add" | "sub" | "mul" | "div" | "and" | "or" | "xor") => {
                    let v = Self::arith(name, t, self.get(args[1]), self.get(args[2]));
                    self.regs.insert(args[0].into(), v);
                }
                other => panic!("interpreter: {other} in {l}"),
            }
        }
    }
}

/// The value of `x op v` under the IR's atomic semantics, as raw bits of `ty`.
fn expected(op: AtomicOp, ty: PtxTy, x: u64, v: u64) -> u64 {
    let w = ty.bytes() * 8;
    let signed = matches!(ty, PtxTy::S8 | PtxTy::S16 | PtxTy::S32 | PtxTy::S64);
    if matches!(ty, PtxTy::F32 | PtxTy::F64) {
        let (a, b) = (fval(x, w), fval(v, w));
        let r = match op {
            AtomicOp::Add => a + b,
            AtomicOp::Sub => a - b,
            AtomicOp::Mul => a * b,
            AtomicOp::Div => a / b,
            AtomicOp::Max => return if b > a { v } else { x },
            AtomicOp::Min => return if b < a { v } else { x },
            AtomicOp::Exch => return v,
            AtomicOp::Read => return x,
            _ => unreachable!(),
        };
        return fbits(r, w);
    }
    let (sx, sv) = (sext(x, w), sext(v, w));
    let (ux, uv) = (x & mask(w), v & mask(w));
    let r = match op {
        AtomicOp::Add => ux.wrapping_add(uv),
        AtomicOp::Sub => ux.wrapping_sub(uv),
        AtomicOp::Mul => ux.wrapping_mul(uv),
        AtomicOp::Div if signed => sx.wrapping_div(sv) as u64,
        AtomicOp::Div => ux / uv,
        AtomicOp::And => ux & uv,
        AtomicOp::Or => ux | uv,
        AtomicOp::Xor => ux ^ uv,
        AtomicOp::Shl => ux << uv,
        AtomicOp::Shr if signed => (sx >> uv) as u64,
        AtomicOp::Shr => ux >> uv,
        AtomicOp::Min if signed => sx.min(sv) as u64,
        AtomicOp::Max if signed => sx.max(sv) as u64,
        AtomicOp::Min => ux.min(uv),
        AtomicOp::Max => ux.max(uv),
        AtomicOp::Exch => uv,
        AtomicOp::Read => ux,
    };
    r & mask(w)
}

fn values(ty: PtxTy) -> Vec<u64> {
    match ty {
        PtxTy::F32 => [0.0f32, -0.0, 1.5, -2.25, 3e38, f32::NAN, f32::INFINITY, 7.0].iter().map(|x| x.to_bits() as u64).collect(),
        PtxTy::F64 => [0.0f64, -0.0, 1.5, -2.25, 1e300, f64::NAN, f64::NEG_INFINITY, 7.0].iter().map(|x| x.to_bits()).collect(),
        _ => {
            let w = ty.bytes() * 8;
            [0u64, 1, 2, 3, 5, 0x7f, 0x80, 0xff, u64::MAX, 1u64 << (w - 1), (1u64 << (w - 1)) - 1, 0x1234_5678_9abc_def0].iter().map(|v| v & mask(w)).collect()
        }
    }
}

#[test]
fn every_atomic_computes_the_ir_semantics() {
    let mut checked = 0;
    for ty in TYPES {
        let bytes = ty.bytes();
        let w = bytes * 8;
        for &op in ops(ty) {
            for x in values(ty) {
                for v in values(ty) {
                    // Division by zero and shifts by the width or more are undefined in C.
                    let int = !matches!(ty, PtxTy::F32 | PtxTy::F64);
                    if int && op == AtomicOp::Div && (v == 0 || (sext(v, w) == -1 && sext(x, w) == i64::MIN >> (64 - w))) {
                        continue;
                    }
                    if matches!(op, AtomicOp::Shl | AtomicOp::Shr) && v >= w as u64 {
                        continue;
                    }
                    for offset in 0..(8 / bytes) {
                        let mut e = Mock::default();
                        let old = atomic_rmw(&mut e, op, ty, false, Space::Global, "%addr", "%val");
                        let base = 16u64;
                        let at = base + (offset * bytes) as u64;
                        let mut m = Machine { regs: HashMap::new(), mem: vec![0xA5; 64] };
                        m.store(at, bytes, x);
                        m.regs.insert("%addr".into(), at);
                        m.regs.insert("%val".into(), v);
                        m.run(&e.lines);
                        let want = expected(op, ty, x, v);
                        let got = m.load(at, bytes);
                        let same = got == want || (matches!(ty, PtxTy::F32 | PtxTy::F64) && fval(got, w).is_nan() && fval(want, w).is_nan());
                        assert!(same, "{op:?} {ty:?}: x={x:#x} v={v:#x} at +{offset}: memory {got:#x}, expected {want:#x}");
                        let got_old = m.regs[&old] & mask(w);
                        assert_eq!(got_old, x, "{op:?} {ty:?}: x={x:#x} v={v:#x}: old value");
                        // The neighbours of an 8/16-bit value are untouched.
                        for i in 0..64u64 {
                            if !(at..at + bytes as u64).contains(&i) {
                                assert_eq!(m.mem[i as usize], 0xA5, "{op:?} {ty:?} wrote byte {i}");
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
        // Compare-and-swap: swaps exactly when the value matches.
        for x in values(ty) {
            for exp in [x, x ^ 1] {
                let mut e = Mock::default();
                let old = atomic_cas(&mut e, ty, Space::Global, "%addr", "%exp", "%new");
                let at = 16 + bytes as u64;
                let mut m = Machine { regs: HashMap::new(), mem: vec![0x5A; 64] };
                m.store(at, bytes, x);
                m.regs.insert("%addr".into(), at);
                m.regs.insert("%exp".into(), exp & mask(w));
                m.regs.insert("%new".into(), 0x42);
                m.run(&e.lines);
                let want = if exp & mask(w) == x { 0x42 } else { x };
                assert_eq!(m.load(at, bytes), want, "cas {ty:?} x={x:#x} expected={exp:#x}");
                assert_eq!(m.regs[&old] & mask(w), x, "cas {ty:?} old value");
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

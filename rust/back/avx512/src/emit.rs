//! From a [`Program`] to machine code: validation, register assignment and
//! the loop skeleton.
//!
//! ```text
//! prologue   push callee-saved; broadcast uniforms and sign masks; set
//!            accumulators to the identity; load stream bases (rdi last)
//! head       (non-temporal only) one masked group up to the first 64-byte
//!            aligned element of the stored stream; the loops below then
//!            store it with vmovntps/pd (and sfence before ret)
//! main       while i <= end - L*U: U groups, unmasked; i += L*U
//! tail       while i <= end - L: one group, unmasked; i += L
//! last       if i < end: one group under k1 = low (end - i) bits
//! epilogue   fold the U copies of each accumulator; store them to `out`;
//!            pop; vzeroupper; ret
//! ```
//!
//! Registers: `rdx` is `i`, `rcx` the end, `r8` the output, `r11` the main
//! loop's limit, `rax`/`r10` scratch; stream bases take rbx, rbp, r12–r15,
//! r9, rsi, rdi. Vector registers: uniforms, masks and accumulators are
//! fixed for the whole function; each group's temporaries come from the
//! rest and are freed after their last use, so groups reuse the same
//! registers (the CPU renames them) and register pressure does not grow
//! with the unroll factor.

use crate::asm::*;
use crate::{BinOp, Code, Elem, Op, Program, RedOp, UnOp, Unsupported};

/// Stream base registers, in order (rsi and rdi are free once the uniforms
/// and bases are loaded; rdi is loaded last).
const STREAM_REGS: [u8; 9] = [RBX, RBP, R12, R13, R14, R15, R9, RSI, RDI];
const SAVED: [u8; 6] = [RBX, RBP, R12, R13, R14, R15];
/// Groups per trip of the main loop.
const UNROLL: u32 = 4;

fn unsupported<T>(why: impl Into<String>) -> Result<T, Unsupported> {
    Err(Unsupported(why.into()))
}

/// Checks indices and that every operand is a value defined earlier.
fn validate(p: &Program) -> Result<(), Unsupported> {
    let defines = |op: &Op| !matches!(op, Op::Store { .. } | Op::Accumulate { .. });
    for (i, op) in p.ops.iter().enumerate() {
        let operand_ok = |v: u32| (v as usize) < i && defines(&p.ops[v as usize]);
        let ok = match *op {
            Op::Load { stream } => stream < p.streams,
            Op::Uniform { index } => index < p.uniforms,
            Op::Bin { a, b, .. } => operand_ok(a) && operand_ok(b),
            Op::Un { a, .. } => operand_ok(a),
            Op::Store { stream, value } => stream < p.streams && operand_ok(value),
            Op::Accumulate { acc, value } => (acc as usize) < p.accs.len() && operand_ok(value),
        };
        if !ok {
            return unsupported(format!("op {i} ({op:?}) refers to something undefined"));
        }
    }
    if p.streams as usize > STREAM_REGS.len() {
        return unsupported(format!("{} streams (at most {})", p.streams, STREAM_REGS.len()));
    }
    Ok(())
}

/// The operands an op reads.
fn operands(op: &Op) -> Vec<u32> {
    match *op {
        Op::Bin { a, b, .. } => vec![a, b],
        Op::Un { a, .. } | Op::Store { value: a, .. } | Op::Accumulate { value: a, .. } => vec![a],
        Op::Load { .. } | Op::Uniform { .. } => vec![],
    }
}

struct Emitter<'p> {
    p: &'p Program,
    a: Asm,
    /// Register of each uniform's broadcast.
    uniform_regs: Vec<u8>,
    /// Registers of accumulator j, one per group of a trip.
    acc_regs: Vec<Vec<u8>>,
    sign_mask: Option<u8>,
    abs_mask: Option<u8>,
    /// Registers free for temporaries.
    temps: Vec<u8>,
    /// Index of the last op that reads each value (None: never read).
    last_use: Vec<Option<usize>>,
    /// The write-only stream stored non-temporally ([`Options::nontemporal`]).
    nt: Option<u32>,
}

impl Emitter<'_> {
    fn elem_evex(&self, op: u8) -> Evex {
        match self.p.elem {
            Elem::F32 => Evex { map: Map::M0F, pp: Pp::None, w: false, op },
            Elem::F64 => Evex { map: Map::M0F, pp: Pp::P66, w: true, op },
        }
    }

    /// Integer (d/q) form of an 0F 66 instruction, element width matching.
    fn int_evex(&self, op: u8) -> Evex {
        Evex { map: Map::M0F, pp: Pp::P66, w: self.p.elem == Elem::F64, op }
    }

    /// `[stream base + i*size + group*64]`
    fn lane_mem(&self, stream: u32, group: u32) -> Rm {
        let size = self.p.elem.size() as u8;
        Rm::Mem(Mem::indexed(STREAM_REGS[stream as usize], RDX, size, 64 * group as i32))
    }

    /// Broadcast of a 64-bit constant pattern (f32 patterns repeat per dword).
    fn broadcast_const(&mut self, reg: u8, bits: u64) {
        self.a.mov_imm64(RAX, bits);
        let w = self.p.elem == Elem::F64;
        self.a.evex(Evex { map: Map::M0F38, pp: Pp::P66, w, op: 0x7C }, reg, 0, Rm::Reg(RAX), Masking::default(), 1);
    }

    fn identity_bits(&self, op: RedOp) -> u64 {
        match (op, self.p.elem) {
            (RedOp::Add, _) => 0,
            (RedOp::Mul, Elem::F32) => 1f32.to_bits() as u64,
            (RedOp::Mul, Elem::F64) => 1f64.to_bits(),
        }
    }

    /// One group's ops; `mask` puts k1 on every memory access and accumulation.
    /// Group `g` of a trip; `mask`: under k1 (the tail); `nt`: the write-only
    /// stream's store is non-temporal (its address is 64-byte aligned).
    fn group(&mut self, g: u32, mask: bool, nt: bool) -> Result<(), Unsupported> {
        let p = self.p;
        let mk = |zero: bool| if mask { Masking { k: 1, zero } } else { Masking::default() };
        let mut reg: Vec<Option<u8>> = vec![None; p.ops.len()];
        let mut free = self.temps.clone();
        for (i, op) in p.ops.iter().enumerate() {
            let val = |v: u32, reg: &[Option<u8>]| reg[v as usize].ok_or_else(|| Unsupported(format!("value v{v} has no register")));
            // Operands dying here give their registers back before the
            // result is allocated (an instruction reads before it writes).
            let srcs: Vec<u8> = operands(op).iter().map(|&v| val(v, &reg)).collect::<Result<_, _>>()?;
            for &v in &operands(op) {
                if self.last_use[v as usize] == Some(i) && !matches!(p.ops[v as usize], Op::Uniform { .. }) {
                    if let Some(r) = reg[v as usize].take() {
                        if !free.contains(&r) {
                            free.push(r);
                        }
                    }
                }
            }
            let mut dst = || -> Result<u8, Unsupported> { free.pop().ok_or_else(|| Unsupported("too many live values for 32 registers".into())) };
            match *op {
                Op::Load { stream } => {
                    if self.last_use[i].is_none() {
                        continue;
                    }
                    let d = dst()?;
                    let m = self.lane_mem(stream, g);
                    self.a.evex(self.elem_evex(0x10), d, 0, m, mk(true), 64);
                    reg[i] = Some(d);
                }
                Op::Uniform { index } => reg[i] = Some(self.uniform_regs[index as usize]),
                Op::Bin { op, .. } => {
                    let code = match op {
                        BinOp::Add => 0x58,
                        BinOp::Sub => 0x5C,
                        BinOp::Mul => 0x59,
                        BinOp::Div => 0x5E,
                    };
                    let d = dst()?;
                    self.a.evex(self.elem_evex(code), d, srcs[0], Rm::Reg(srcs[1]), Masking::default(), 64);
                    reg[i] = Some(d);
                }
                Op::Un { op, .. } => {
                    let d = dst()?;
                    match op {
                        UnOp::Neg => {
                            let m = self.sign_mask.ok_or_else(|| Unsupported("no sign mask".into()))?;
                            self.a.evex(self.int_evex(0xEF), d, srcs[0], Rm::Reg(m), Masking::default(), 64);
                        }
                        UnOp::Abs => {
                            let m = self.abs_mask.ok_or_else(|| Unsupported("no abs mask".into()))?;
                            self.a.evex(self.int_evex(0xDB), d, srcs[0], Rm::Reg(m), Masking::default(), 64);
                        }
                        UnOp::Sqrt => self.a.evex(self.elem_evex(0x51), d, 0, Rm::Reg(srcs[0]), Masking::default(), 64),
                    }
                    reg[i] = Some(d);
                }
                Op::Store { stream, .. } => {
                    let m = self.lane_mem(stream, g);
                    if nt && !mask && self.nt == Some(stream) {
                        self.a.evex(self.elem_evex(0x2B), srcs[0], 0, m, Masking::default(), 64);
                    } else {
                        self.a.evex(self.elem_evex(0x11), srcs[0], 0, m, mk(false), 64);
                    }
                }
                Op::Accumulate { acc, .. } => {
                    let r = self.acc_regs[acc as usize][g as usize];
                    let code = if p.accs[acc as usize] == RedOp::Add { 0x58 } else { 0x59 };
                    self.a.evex(self.elem_evex(code), r, r, Rm::Reg(srcs[0]), mk(false), 64);
                }
            }
            // A value never read frees its register at once.
            if self.last_use[i].is_none() {
                if let Some(r) = reg[i].take().filter(|_| !matches!(op, Op::Uniform { .. })) {
                    free.push(r);
                }
            }
        }
        Ok(())
    }

    /// The main loop (U groups per trip while `i <= end - L*U`), then whole
    /// groups one at a time while `i <= end - L`; falls through after.
    fn whole_groups(&mut self, nt: bool) -> Result<(), Unsupported> {
        let lanes = self.p.elem.lanes() as i32;
        let step = lanes * UNROLL as i32;
        let (main, tail, whole, out) = (self.a.label(), self.a.label(), self.a.label(), self.a.label());
        self.a.mov64(R11, RCX);
        self.a.sub_imm(R11, step);
        self.a.cmp(RDX, R11);
        self.a.jcc(Cond::G, tail);
        self.a.bind(main);
        for g in 0..UNROLL {
            self.group(g, false, nt)?;
        }
        self.a.add_imm(RDX, step);
        self.a.cmp(RDX, R11);
        self.a.jcc(Cond::Le, main);
        self.a.bind(tail);
        self.a.mov64(R11, RCX);
        self.a.sub_imm(R11, lanes);
        self.a.cmp(RDX, R11);
        self.a.jcc(Cond::G, out);
        self.a.bind(whole);
        self.group(0, false, nt)?;
        self.a.add_imm(RDX, lanes);
        self.a.cmp(RDX, R11);
        self.a.jcc(Cond::Le, whole);
        self.a.bind(out);
        Ok(())
    }
}

/// Code-generation choices that do not change what a program computes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Store the program's write-only stream with non-temporal stores
    /// (around the caches, without reading the lines first) from its first
    /// 64-byte aligned element on; for loops whose output will not be in
    /// cache when it is next read anyway. Unsupported unless the program has
    /// exactly one store, to a stream it does not load.
    pub nontemporal: bool,
}

/// The stream of the program's only store, if that stream is never loaded.
fn write_only_stream(p: &Program) -> Result<u32, Unsupported> {
    let stores: Vec<u32> = p.ops.iter().filter_map(|o| if let Op::Store { stream, .. } = *o { Some(stream) } else { None }).collect();
    let [s] = stores[..] else {
        return unsupported(format!("non-temporal stores need exactly one store ({} here)", stores.len()));
    };
    if p.ops.iter().any(|o| matches!(*o, Op::Load { stream } if stream == s)) {
        return unsupported(format!("stream s{s} is loaded and stored"));
    }
    Ok(s)
}

/// Machine code for `p` (see the crate documentation for its contract).
pub fn compile(p: &Program) -> Result<Code, Unsupported> {
    compile_with(p, Options::default())
}

/// [`compile`] with code-generation [`Options`].
pub fn compile_with(p: &Program, opts: Options) -> Result<Code, Unsupported> {
    validate(p)?;
    let nt = if opts.nontemporal { Some(write_only_stream(p)?) } else { None };
    let lanes = p.elem.lanes();
    let uses_neg = p.ops.iter().any(|o| matches!(o, Op::Un { op: UnOp::Neg, .. }));
    let uses_abs = p.ops.iter().any(|o| matches!(o, Op::Un { op: UnOp::Abs, .. }));
    let mut last_use = vec![None; p.ops.len()];
    for (i, op) in p.ops.iter().enumerate() {
        for v in operands(op) {
            last_use[v as usize] = Some(i);
        }
    }
    // Fixed registers from zmm31 down; temporaries from zmm0 up.
    let fixed = p.uniforms as usize + uses_neg as usize + uses_abs as usize + UNROLL as usize * p.accs.len();
    if fixed + 2 > 32 {
        return unsupported(format!("{fixed} registers for uniforms and accumulators"));
    }
    let mut next = 32u8;
    let mut take = || {
        next -= 1;
        next
    };
    let uniform_regs: Vec<u8> = (0..p.uniforms).map(|_| take()).collect();
    let sign_mask = uses_neg.then(&mut take);
    let abs_mask = uses_abs.then(&mut take);
    let acc_regs: Vec<Vec<u8>> = p.accs.iter().map(|_| (0..UNROLL).map(|_| take()).collect()).collect();
    // Popped from the end: low registers first (shorter encodings do not
    // matter for EVEX, but listings read better).
    let temps: Vec<u8> = (0..next).rev().collect();
    let mut e = Emitter { p, a: Asm::default(), uniform_regs, acc_regs, sign_mask, abs_mask, temps, last_use, nt };

    // Prologue.
    for &r in &SAVED {
        e.a.push(r);
    }
    let f64_ = p.elem == Elem::F64;
    let (sign, abs) = if f64_ { (1u64 << 63, !(1u64 << 63)) } else { (0x8000_0000, 0x7FFF_FFFF) };
    if let Some(r) = e.sign_mask {
        e.broadcast_const(r, sign);
    }
    if let Some(r) = e.abs_mask {
        e.broadcast_const(r, abs);
    }
    for (k, &r) in e.uniform_regs.clone().iter().enumerate() {
        let (w, op, n) = if f64_ { (true, 0x19, 8) } else { (false, 0x18, 4) };
        e.a.evex(Evex { map: Map::M0F38, pp: Pp::P66, w, op }, r, 0, Rm::Mem(Mem::base(RSI, 8 * k as i32)), Masking::default(), n);
    }
    for (j, regs) in e.acc_regs.clone().iter().enumerate() {
        let bits = e.identity_bits(p.accs[j]);
        for &r in regs {
            if bits == 0 {
                e.a.evex(e.int_evex(0xEF), r, r, Rm::Reg(r), Masking::default(), 64);
            } else {
                e.broadcast_const(r, bits);
            }
        }
    }
    for (k, &reg) in STREAM_REGS.iter().enumerate().take(p.streams as usize) {
        e.a.load64(reg, Mem::base(RDI, 8 * k as i32));
    }

    let last = e.a.label();
    if let Some(st) = e.nt {
        // Peel a masked group up to the first 64-byte aligned element of
        // the stored stream; an element-misaligned base never gets there.
        let (plain, no_head) = (e.a.label(), e.a.label());
        let size = p.elem.size() as u8;
        e.a.lea(RAX, Mem::indexed(STREAM_REGS[st as usize], RDX, size, 0));
        e.a.test_imm(RAX, size as i32 - 1);
        e.a.jcc(Cond::Ne, plain);
        e.a.neg(RAX);
        e.a.and_imm(RAX, 63);
        e.a.shr_imm(RAX, size.trailing_zeros() as u8);
        e.a.mov64(R10, RCX);
        e.a.sub(R10, RDX);
        e.a.cmp(RAX, R10);
        e.a.cmovg(RAX, R10);
        e.a.cmp_imm(RAX, 0);
        e.a.jcc(Cond::Le, no_head);
        e.a.mov64(R10, RAX);
        e.a.mov_imm64(RAX, u64::MAX);
        e.a.bzhi(RAX, RAX, R10);
        e.a.kmovw(1, RAX);
        e.group(0, true, false)?;
        e.a.add_reg(RDX, R10);
        e.a.bind(no_head);
        e.whole_groups(true)?;
        e.a.jmp(last);
        e.a.bind(plain);
    }
    e.whole_groups(false)?;

    // At most one masked group: fewer than L iterations are left, so
    // BZHI's 8-bit index sees the whole count.
    let done = e.a.label();
    e.a.bind(last);
    e.a.mov64(R10, RCX);
    e.a.sub(R10, RDX);
    e.a.cmp_imm(R10, 0);
    e.a.jcc(Cond::Le, done);
    e.a.mov_imm64(RAX, u64::MAX);
    e.a.bzhi(RAX, RAX, R10);
    e.a.kmovw(1, RAX);
    e.group(0, true, false)?;

    // Epilogue.
    e.a.bind(done);
    if e.nt.is_some() {
        e.a.sfence();
    }
    for (j, regs) in e.acc_regs.clone().iter().enumerate() {
        let code = if p.accs[j] == RedOp::Add { 0x58 } else { 0x59 };
        for &r in &regs[1..] {
            e.a.evex(e.elem_evex(code), regs[0], regs[0], Rm::Reg(r), Masking::default(), 64);
        }
        e.a.evex(e.elem_evex(0x11), regs[0], 0, Rm::Mem(Mem::base(R8, 64 * j as i32)), Masking::default(), 64);
    }
    for &r in SAVED.iter().rev() {
        e.a.pop(r);
    }
    e.a.vzeroupper();
    e.a.ret();
    let bytes = e.a.finish().ok_or_else(|| Unsupported("internal error: an unbound label".into()))?;
    Ok(Code { bytes, unroll: UNROLL, lanes })
}

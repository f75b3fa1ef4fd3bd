//! A small x86-64 encoder: the general-purpose instructions of a loop
//! skeleton, and the EVEX-encoded 512-bit instructions of loop bodies.
//!
//! Registers are numbered as in the ISA (rax = 0 … r15 = 15; zmm0–31;
//! k0–7). Jumps always take a 32-bit displacement, patched when their label
//! is bound, so code size never depends on layout.

/// General-purpose registers.
pub const RAX: u8 = 0;
pub const RCX: u8 = 1;
pub const RDX: u8 = 2;
pub const RBX: u8 = 3;
pub const RBP: u8 = 5;
pub const RSI: u8 = 6;
pub const RDI: u8 = 7;
pub const R8: u8 = 8;
pub const R9: u8 = 9;
pub const R10: u8 = 10;
pub const R11: u8 = 11;
pub const R12: u8 = 12;
pub const R13: u8 = 13;
pub const R14: u8 = 14;
pub const R15: u8 = 15;

/// Condition codes of `jcc` (signed comparisons).
#[derive(Clone, Copy, Debug)]
pub enum Cond {
    Ne = 0x5,
    Le = 0xE,
    G = 0xF,
}

/// `[base + index * scale + disp]`.
#[derive(Clone, Copy, Debug)]
pub struct Mem {
    pub base: u8,
    pub index: Option<(u8, u8)>,
    pub disp: i32,
}

impl Mem {
    pub fn base(base: u8, disp: i32) -> Mem {
        Mem { base, index: None, disp }
    }
    pub fn indexed(base: u8, index: u8, scale: u8, disp: i32) -> Mem {
        Mem { base, index: Some((index, scale)), disp }
    }
}

/// The r/m operand of an instruction.
#[derive(Clone, Copy, Debug)]
pub enum Rm {
    Reg(u8),
    Mem(Mem),
}

/// EVEX opcode maps and mandatory prefixes.
#[derive(Clone, Copy, Debug)]
pub enum Map {
    M0F = 1,
    M0F38 = 2,
}
#[derive(Clone, Copy, Debug)]
pub enum Pp {
    None = 0,
    P66 = 1,
}

/// One EVEX instruction's fixed encoding: map, prefix, W, opcode.
#[derive(Clone, Copy, Debug)]
pub struct Evex {
    pub map: Map,
    pub pp: Pp,
    pub w: bool,
    pub op: u8,
}

/// Opmask and zeroing of an EVEX instruction.
#[derive(Clone, Copy, Debug, Default)]
pub struct Masking {
    pub k: u8,
    pub zero: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Label(usize);

#[derive(Default)]
pub struct Asm {
    pub buf: Vec<u8>,
    labels: Vec<Option<usize>>,
    /// (position of a rel32 field, its label)
    fixups: Vec<(usize, Label)>,
}

impl Asm {
    pub fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() - 1)
    }

    pub fn bind(&mut self, l: Label) {
        self.labels[l.0] = Some(self.buf.len());
    }

    #[cfg(test)]
    fn clone_bytes(self) -> Vec<u8> {
        self.finish().expect("labels bound")
    }

    /// The code with every jump patched; `None` if a label was never bound.
    pub fn finish(mut self) -> Option<Vec<u8>> {
        for &(at, l) in &self.fixups {
            let target = self.labels[l.0]? as i64;
            let rel = i32::try_from(target - (at as i64 + 4)).ok()?;
            self.buf[at..at + 4].copy_from_slice(&rel.to_le_bytes());
        }
        Some(self.buf)
    }

    fn rel32(&mut self, l: Label) {
        self.fixups.push((self.buf.len(), l));
        self.buf.extend_from_slice(&[0; 4]);
    }

    pub fn jmp(&mut self, l: Label) {
        self.buf.push(0xE9);
        self.rel32(l);
    }

    pub fn jcc(&mut self, c: Cond, l: Label) {
        self.buf.extend_from_slice(&[0x0F, 0x80 | c as u8]);
        self.rel32(l);
    }

    /// ModRM (+ SIB + displacement) for `reg` and `rm`; `n` scales an
    /// 8-bit displacement (EVEX disp8*N; 1 for legacy instructions).
    fn modrm(&mut self, reg: u8, rm: Rm, n: i32) {
        let reg = (reg & 7) << 3;
        let Rm::Mem(m) = rm else {
            let Rm::Reg(r) = rm else { unreachable!() };
            self.buf.push(0xC0 | reg | (r & 7));
            return;
        };
        let short = (m.disp % n == 0).then(|| m.disp / n).and_then(|d| i8::try_from(d).ok());
        // rbp/r13 as a base need a displacement (mod 00 means "no base").
        let mode: u8 = if m.disp == 0 && m.base & 7 != 5 {
            0
        } else if short.is_some() {
            1
        } else {
            2
        };
        match m.index {
            None if m.base & 7 != 4 => self.buf.push(mode << 6 | reg | (m.base & 7)),
            idx => {
                let (i, s) = idx.unwrap_or((4, 1));
                let ss = s.trailing_zeros() as u8;
                self.buf.push(mode << 6 | reg | 4);
                self.buf.push(ss << 6 | (i & 7) << 3 | (m.base & 7));
            }
        }
        match mode {
            1 => self.buf.push(short.unwrap_or(0) as u8),
            2 => self.buf.extend_from_slice(&m.disp.to_le_bytes()),
            _ => {}
        }
    }

    /// REX prefix for a 64-bit (`w`) or plain instruction, emitted when needed.
    fn rex(&mut self, w: bool, reg: u8, rm: Rm) {
        let (x, b) = match rm {
            Rm::Reg(r) => (0, r >> 3 & 1),
            Rm::Mem(m) => (m.index.map_or(0, |(i, _)| i >> 3 & 1), m.base >> 3 & 1),
        };
        let r = reg >> 3 & 1;
        if w || r | x | b != 0 {
            self.buf.push(0x40 | (w as u8) << 3 | r << 2 | x << 1 | b);
        }
    }

    fn legacy(&mut self, w: bool, op: &[u8], reg: u8, rm: Rm) {
        self.rex(w, reg, rm);
        self.buf.extend_from_slice(op);
        self.modrm(reg, rm, 1);
    }

    pub fn push(&mut self, r: u8) {
        if r >= 8 {
            self.buf.push(0x41);
        }
        self.buf.push(0x50 | (r & 7));
    }

    pub fn pop(&mut self, r: u8) {
        if r >= 8 {
            self.buf.push(0x41);
        }
        self.buf.push(0x58 | (r & 7));
    }

    /// `mov dst, qword [m]`
    pub fn load64(&mut self, dst: u8, m: Mem) {
        self.legacy(true, &[0x8B], dst, Rm::Mem(m));
    }

    /// `mov dst, src` (64-bit)
    pub fn mov64(&mut self, dst: u8, src: u8) {
        self.legacy(true, &[0x89], src, Rm::Reg(dst));
    }

    /// `mov dst, imm64`
    pub fn mov_imm64(&mut self, dst: u8, imm: u64) {
        self.buf.push(0x48 | (dst >> 3 & 1));
        self.buf.push(0xB8 | (dst & 7));
        self.buf.extend_from_slice(&imm.to_le_bytes());
    }

    /// `add r, imm32` / `sub r, imm32` (64-bit)
    pub fn add_imm(&mut self, r: u8, imm: i32) {
        self.legacy(true, &[0x81], 0, Rm::Reg(r));
        self.buf.extend_from_slice(&imm.to_le_bytes());
    }

    pub fn sub_imm(&mut self, r: u8, imm: i32) {
        self.legacy(true, &[0x81], 5, Rm::Reg(r));
        self.buf.extend_from_slice(&imm.to_le_bytes());
    }

    /// `add a, b` (64-bit)
    pub fn add_reg(&mut self, a: u8, b: u8) {
        self.legacy(true, &[0x01], b, Rm::Reg(a));
    }

    /// `sub a, b` (64-bit)
    pub fn sub(&mut self, a: u8, b: u8) {
        self.legacy(true, &[0x29], b, Rm::Reg(a));
    }

    /// `cmp r, imm32` (64-bit)
    pub fn cmp_imm(&mut self, r: u8, imm: i32) {
        self.legacy(true, &[0x81], 7, Rm::Reg(r));
        self.buf.extend_from_slice(&imm.to_le_bytes());
    }

    /// `cmp a, b` (64-bit; flags of `a - b`)
    pub fn cmp(&mut self, a: u8, b: u8) {
        self.legacy(true, &[0x39], b, Rm::Reg(a));
    }

    /// `lea dst, [m]`
    pub fn lea(&mut self, dst: u8, m: Mem) {
        self.legacy(true, &[0x8D], dst, Rm::Mem(m));
    }

    /// `neg r` (64-bit)
    pub fn neg(&mut self, r: u8) {
        self.legacy(true, &[0xF7], 3, Rm::Reg(r));
    }

    /// `and r, imm32` (64-bit, sign-extended)
    pub fn and_imm(&mut self, r: u8, imm: i32) {
        self.legacy(true, &[0x81], 4, Rm::Reg(r));
        self.buf.extend_from_slice(&imm.to_le_bytes());
    }

    /// `test r, imm32` (64-bit)
    pub fn test_imm(&mut self, r: u8, imm: i32) {
        self.legacy(true, &[0xF7], 0, Rm::Reg(r));
        self.buf.extend_from_slice(&imm.to_le_bytes());
    }

    /// `shr r, imm8` (64-bit)
    pub fn shr_imm(&mut self, r: u8, imm: u8) {
        self.legacy(true, &[0xC1], 5, Rm::Reg(r));
        self.buf.push(imm);
    }

    /// `cmovg dst, src` (64-bit)
    pub fn cmovg(&mut self, dst: u8, src: u8) {
        self.legacy(true, &[0x0F, 0x4F], dst, Rm::Reg(src));
    }

    /// `sfence`: orders non-temporal stores before everything after it.
    pub fn sfence(&mut self) {
        self.buf.extend_from_slice(&[0x0F, 0xAE, 0xF8]);
    }

    /// `bzhi dst, src, idx` (64-bit): `src` with bits from `idx` up cleared.
    pub fn bzhi(&mut self, dst: u8, src: u8, idx: u8) {
        let r = !(dst >> 3) & 1;
        let b = !(src >> 3) & 1;
        self.buf.extend_from_slice(&[0xC4, r << 7 | 1 << 6 | b << 5 | 0x02, 0x80 | (!idx & 15) << 3, 0xF5]);
        self.modrm(dst, Rm::Reg(src), 1);
    }

    /// `kmovw k, src` (the low 16 bits of a register; AVX-512F).
    pub fn kmovw(&mut self, k: u8, src: u8) {
        let b = !(src >> 3) & 1;
        self.buf.extend_from_slice(&[0xC4, 1 << 7 | 1 << 6 | b << 5 | 0x01, 0x78, 0x92]);
        self.modrm(k, Rm::Reg(src), 1);
    }

    pub fn vzeroupper(&mut self) {
        self.buf.extend_from_slice(&[0xC5, 0xF8, 0x77]);
    }

    pub fn ret(&mut self) {
        self.buf.push(0xC3);
    }

    /// A 512-bit EVEX instruction: `reg` is ModRM.reg, `v` the NDS operand
    /// (0 when unused), `rm` the r/m operand; `n` is the disp8 scale of a
    /// memory operand (64 for whole vectors).
    pub fn evex(&mut self, e: Evex, reg: u8, v: u8, rm: Rm, mk: Masking, n: i32) {
        let (x, b) = match rm {
            Rm::Reg(r) => (r >> 4 & 1, r >> 3 & 1),
            Rm::Mem(m) => (m.index.map_or(0, |(i, _)| i >> 3 & 1), m.base >> 3 & 1),
        };
        let p0 = (!(reg >> 3) & 1) << 7 | (!x & 1) << 6 | (!b & 1) << 5 | (!(reg >> 4) & 1) << 4 | e.map as u8;
        let p1 = (e.w as u8) << 7 | (!v & 15) << 3 | 1 << 2 | e.pp as u8;
        let p2 = (mk.zero as u8) << 7 | 0b10 << 5 | (!(v >> 4) & 1) << 3 | (mk.k & 7);
        self.buf.extend_from_slice(&[0x62, p0, p1, p2, e.op]);
        self.modrm(reg, rm, n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every encoder form, checked against objdump's reading of the bytes.
    #[test]
    fn encodings_match_objdump() {
        let mut a = Asm::default();
        a.push(RBX);
        a.push(R12);
        a.pop(R15);
        a.load64(R13, Mem::base(RDI, 8));
        a.load64(RBX, Mem::base(R12, 0));
        a.load64(RAX, Mem::base(R13, 0));
        a.load64(RAX, Mem::base(RBP, 0x1000));
        a.mov64(R11, RCX);
        a.sub_imm(R11, 64);
        a.add_imm(RDX, 16);
        a.cmp(RDX, R11);
        a.cmp_imm(R10, 0);
        a.sub(R10, RDX);
        a.add_reg(RDX, R10);
        a.bzhi(RAX, RAX, R10);
        a.bzhi(R9, R10, RCX);
        a.kmovw(1, RAX);
        a.kmovw(2, R10);
        a.mov_imm64(RAX, 0x8000_0000_0000_0000);
        a.mov_imm64(R9, 5);
        a.lea(RAX, Mem::indexed(R12, RDX, 4, 0));
        a.lea(R10, Mem::indexed(RBX, RDX, 8, 0));
        a.neg(RAX);
        a.neg(R10);
        a.and_imm(RAX, 63);
        a.test_imm(R10, 3);
        a.shr_imm(RAX, 2);
        a.cmovg(RAX, R10);
        a.cmovg(R10, RAX);
        a.sfence();
        let ld = Evex { map: Map::M0F, pp: Pp::None, w: false, op: 0x10 };
        let ldpd = Evex { map: Map::M0F, pp: Pp::P66, w: true, op: 0x10 };
        let add = Evex { map: Map::M0F, pp: Pp::None, w: false, op: 0x58 };
        let bss = Evex { map: Map::M0F38, pp: Pp::P66, w: false, op: 0x18 };
        let pbq = Evex { map: Map::M0F38, pp: Pp::P66, w: true, op: 0x7C };
        let none = Masking::default();
        a.evex(ld, 0, 0, Rm::Mem(Mem::indexed(RBX, RDX, 4, 0)), none, 64);
        a.evex(ld, 17, 0, Rm::Mem(Mem::indexed(R13, RDX, 4, 128)), Masking { k: 1, zero: true }, 64);
        a.evex(ldpd, 31, 0, Rm::Mem(Mem::indexed(R12, R9, 8, 100)), none, 64);
        a.evex(Evex { op: 0x11, ..ld }, 9, 0, Rm::Mem(Mem::indexed(RBP, RDX, 4, -64)), Masking { k: 1, zero: false }, 64);
        a.evex(add, 1, 2, Rm::Reg(3), none, 64);
        a.evex(add, 16, 24, Rm::Reg(31), Masking { k: 1, zero: false }, 64);
        a.evex(add, 8, 15, Rm::Reg(23), none, 64);
        a.evex(bss, 20, 0, Rm::Mem(Mem::base(RSI, 24)), none, 4);
        a.evex(bss, 5, 0, Rm::Mem(Mem::base(RSI, 8000)), none, 4);
        a.evex(pbq, 30, 0, Rm::Reg(RAX), none, 8);
        a.evex(Evex { map: Map::M0F, pp: Pp::P66, w: false, op: 0xEF }, 7, 7, Rm::Reg(7), none, 64);
        a.evex(ld, 3, 0, Rm::Mem(Mem::base(R8, 64 * 300)), none, 64);
        a.evex(Evex { op: 0x2B, ..ld }, 5, 0, Rm::Mem(Mem::indexed(RBX, RDX, 4, 64)), none, 64);
        a.evex(Evex { op: 0x2B, ..ldpd }, 12, 0, Rm::Mem(Mem::indexed(R9, RDX, 8, 0)), none, 64);
        let l = a.label();
        a.jcc(Cond::Le, l);
        a.jmp(l);
        a.bind(l);
        a.vzeroupper();
        a.ret();
        let want = [
            "push rbx",
            "push r12",
            "pop r15",
            "mov r13,QWORD PTR [rdi+0x8]",
            "mov rbx,QWORD PTR [r12]",
            "mov rax,QWORD PTR [r13+0x0]",
            "mov rax,QWORD PTR [rbp+0x1000]",
            "mov r11,rcx",
            "sub r11,0x40",
            "add rdx,0x10",
            "cmp rdx,r11",
            "cmp r10,0x0",
            "sub r10,rdx",
            "add rdx,r10",
            "bzhi rax,rax,r10",
            "bzhi r9,r10,rcx",
            "kmovw k1,eax",
            "kmovw k2,r10d",
            "movabs rax,0x8000000000000000",
            "movabs r9,0x5",
            "lea rax,[r12+rdx*4]",
            "lea r10,[rbx+rdx*8]",
            "neg rax",
            "neg r10",
            "and rax,0x3f",
            "test r10,0x3",
            "shr rax,0x2",
            "cmovg rax,r10",
            "cmovg r10,rax",
            "sfence",
            "vmovups zmm0,ZMMWORD PTR [rbx+rdx*4]",
            "vmovups zmm17{k1}{z},ZMMWORD PTR [r13+rdx*4+0x80]",
            "vmovupd zmm31,ZMMWORD PTR [r12+r9*8+0x64]",
            "vmovups ZMMWORD PTR [rbp+rdx*4-0x40]{k1},zmm9",
            "vaddps zmm1,zmm2,zmm3",
            "vaddps zmm16{k1},zmm24,zmm31",
            "vaddps zmm8,zmm15,zmm23",
            "vbroadcastss zmm20,DWORD PTR [rsi+0x18]",
            "vbroadcastss zmm5,DWORD PTR [rsi+0x1f40]",
            "vpbroadcastq zmm30,rax",
            "vpxord zmm7,zmm7,zmm7",
            "vmovups zmm3,ZMMWORD PTR [r8+0x4b00]",
            "vmovntps ZMMWORD PTR [rbx+rdx*4+0x40],zmm5",
            "vmovntpd ZMMWORD PTR [r9+rdx*8],zmm12",
        ];
        let Some(got) = objdump::disasm(&a.clone_bytes()) else {
            eprintln!("skipped: objdump is not installed");
            return;
        };
        assert_eq!(&got[..want.len()], &want[..]);
        assert!(got[want.len()].starts_with("jle") && got[want.len() + 1].starts_with("jmp"), "{got:?}");
        assert_eq!(&got[want.len() + 2..], &["vzeroupper", "ret"]);
    }
}

#[cfg(test)]
pub(crate) mod objdump {
    /// The Intel-syntax disassembly of `code`, one instruction per line
    /// (None when objdump is not installed).
    pub fn disasm(code: &[u8]) -> Option<Vec<String>> {
        let path = std::env::temp_dir().join(format!("avx512-{}-{:?}.bin", std::process::id(), std::thread::current().id()));
        std::fs::write(&path, code).ok()?;
        let out = std::process::Command::new("objdump").args(["-D", "-b", "binary", "-mi386:x86-64", "-M", "intel"]).arg(&path).output().ok()?;
        let _ = std::fs::remove_file(&path);
        let text = String::from_utf8_lossy(&out.stdout);
        Some(text.lines().filter_map(|l| l.splitn(3, '\t').nth(2)).map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ")).collect())
    }
}

//! Writes scripts/gpu/libm_funcs.ptx: every math function of
//! `accjit_back_ptx::libm` with one evaluation kernel each
//! (`libm::test_module`), plus atomic test kernels (every operation and type
//! of `atomic::atomic_rmw`, and a CAS counter per type), for
//! scripts/gpu/libm_ulp.py on a GPU machine without Rust.
//!
//!     cargo run --example dump_libm -p accjit-back-ptx [-- OUT.ptx]
//!
//! Atomic kernel `atom_<op>_<type>_<space>(.u64 target, .u64 vals, .u64 olds, .u64 n)`:
//! thread i < n applies `op` with `vals[i]` to `*target` and stores the old
//! value to `olds[i]` (elements of the type's size; `space` global or generic).
//! `cas_<type>(.u64 target, .u64 n)`: each thread adds one to `*target` with a CAS loop.

use std::fmt::Write as _;

use accjit_back_ptx::atomic::{atomic_cas, atomic_rmw, AtomicOp, Emit};
use accjit_back_ptx::libm::{libm_names, test_module};
use accjit_back_ptx::ty::{PtxTy, Space};

#[derive(Default)]
struct Regs {
    decls: Vec<String>,
    lines: Vec<String>,
    labels: u32,
}

impl Emit for Regs {
    fn reg(&mut self, ty: PtxTy) -> String {
        let name = format!("%v{}", self.decls.len());
        self.decls.push(format!("\t.reg .{} {name};", ty.reg_class().name()));
        name
    }
    fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L{}", self.labels)
    }
    fn line(&mut self, text: &str) {
        self.lines.push(format!("\t{text}"));
    }
}

/// Loads element i (register `idx`) of the array whose address is in `base`, for an atomic operand of `ty`.
fn load(e: &mut Regs, ty: PtxTy, base: &str, idx: &str) -> String {
    let addr = e.reg(PtxTy::U64);
    e.line(&format!("mad.lo.u64 {addr}, {idx}, {}, {base};", ty.bytes()));
    let v = e.reg(ty);
    let t = if ty.reg_class() == PtxTy::B16 {
        if ty.bytes() == 1 {
            "u8".to_string()
        } else {
            "u16".to_string()
        }
    } else {
        ty.name().to_string()
    };
    e.line(&format!("ld.global.{t} {v}, [{addr}];"));
    v
}

fn store(e: &mut Regs, ty: PtxTy, base: &str, idx: &str, v: &str) {
    let addr = e.reg(PtxTy::U64);
    e.line(&format!("mad.lo.u64 {addr}, {idx}, {}, {base};", ty.bytes()));
    let t = match ty.bytes() {
        1 => "u8",
        2 => "u16",
        _ => ty.name(),
    };
    e.line(&format!("st.global.{t} [{addr}], {v};"));
}

/// Kernel prologue: parameters into registers, i = global thread index, exit when i ≥ n.
fn prologue(e: &mut Regs, params: &[&str]) -> (Vec<String>, String) {
    let regs: Vec<String> = params
        .iter()
        .map(|p| {
            let r = e.reg(PtxTy::U64);
            e.line(&format!("ld.param.u64 {r}, [{p}];"));
            r
        })
        .collect();
    let (a, b, c) = (e.reg(PtxTy::U32), e.reg(PtxTy::U32), e.reg(PtxTy::U32));
    let i = e.reg(PtxTy::U64);
    let t = e.reg(PtxTy::U64);
    e.line(&format!("mov.u32 {a}, %ctaid.x;"));
    e.line(&format!("mov.u32 {b}, %ntid.x;"));
    e.line(&format!("mov.u32 {c}, %tid.x;"));
    e.line(&format!("mul.wide.u32 {i}, {a}, {b};"));
    e.line(&format!("cvt.u64.u32 {t}, {c};"));
    e.line(&format!("add.u64 {i}, {i}, {t};"));
    let p = e.reg(PtxTy::Pred);
    e.line(&format!("setp.ge.u64 {p}, {i}, {};", regs[regs.len() - 1]));
    e.line(&format!("@{p} bra $Ldone;"));
    (regs, i)
}

fn finish(name: &str, params: &[&str], e: Regs) -> String {
    let ps: Vec<String> = params.iter().map(|p| format!(".param .u64 {p}")).collect();
    format!(".visible .entry {name}({})\n{{\n{}\n{}\n$Ldone:\n\tret;\n}}\n\n", ps.join(", "), e.decls.join("\n"), e.lines.join("\n"))
}

const TYPES: [PtxTy; 10] = [PtxTy::U8, PtxTy::S8, PtxTy::U16, PtxTy::S16, PtxTy::U32, PtxTy::S32, PtxTy::U64, PtxTy::S64, PtxTy::F32, PtxTy::F64];

fn atomic_kernels() -> String {
    use AtomicOp::*;
    let mut s = String::new();
    for ty in TYPES {
        let float = matches!(ty, PtxTy::F32 | PtxTy::F64);
        let ops: &[AtomicOp] =
            if float { &[Add, Sub, Mul, Div, Min, Max, Exch, Read] } else { &[Add, Sub, Mul, Div, Min, Max, And, Or, Xor, Shl, Shr, Exch, Read] };
        for &op in ops {
            for space in [Space::Global, Space::Generic] {
                let params = ["target", "vals", "olds", "n"];
                let mut e = Regs::default();
                let (regs, i) = prologue(&mut e, &params);
                let v = load(&mut e, ty, &regs[1], &i);
                let addr = if space == Space::Generic {
                    let g = e.reg(PtxTy::U64);
                    e.line(&format!("cvta.global.u64 {g}, {};", regs[0]));
                    g
                } else {
                    regs[0].clone()
                };
                let old = atomic_rmw(&mut e, op, ty, false, space, &addr, &v);
                store(&mut e, ty, &regs[2], &i, &old);
                let name = format!("atom_{}_{}_{}", format!("{op:?}").to_lowercase(), ty.name(), if space == Space::Global { "global" } else { "generic" });
                s.push_str(&finish(&name, &params, e));
            }
        }
        // A counter through compare-and-swap: *target += 1 per thread.
        let params = ["target", "n"];
        let mut e = Regs::default();
        let (regs, _) = prologue(&mut e, &params);
        let (top, cur, next) = (e.label(), e.reg(ty), e.reg(ty));
        let rc = ty.reg_class();
        let t = match ty.bytes() {
            1 => "u8",
            2 => "u16",
            _ => ty.name(),
        };
        e.line(&format!("ld.volatile.global.{t} {cur}, [{}];", regs[0]));
        e.line(&format!("{top}:"));
        match rc {
            PtxTy::F32 => e.line(&format!("add.rn.f32 {next}, {cur}, 0f3F800000;")),
            PtxTy::F64 => e.line(&format!("add.rn.f64 {next}, {cur}, 0d3FF0000000000000;")),
            _ => e.line(&format!(
                "add.{} {next}, {cur}, 1;",
                if rc == PtxTy::B16 {
                    "u16"
                } else if rc == PtxTy::B32 {
                    "u32"
                } else {
                    "u64"
                }
            )),
        }
        let seen = atomic_cas(&mut e, ty, Space::Global, &regs[0], &cur, &next);
        let p = e.reg(PtxTy::Pred);
        let cmp_t = match rc {
            PtxTy::F32 => "b32",
            PtxTy::F64 => "b64",
            PtxTy::B16 => "b16",
            r => r.name(),
        };
        if matches!(rc, PtxTy::F32 | PtxTy::F64) {
            // Compare the bits.
            let (a, b) = (e.reg(if rc == PtxTy::F32 { PtxTy::B32 } else { PtxTy::B64 }), e.reg(if rc == PtxTy::F32 { PtxTy::B32 } else { PtxTy::B64 }));
            e.line(&format!("mov.{cmp_t} {a}, {seen};"));
            e.line(&format!("mov.{cmp_t} {b}, {cur};"));
            e.line(&format!("setp.ne.{cmp_t} {p}, {a}, {b};"));
        } else if rc == PtxTy::B16 && ty.bytes() == 1 {
            // 8-bit values: compare the low byte (the old value comes back extended).
            let (a, b) = (e.reg(PtxTy::B16), e.reg(PtxTy::B16));
            e.line(&format!("and.b16 {a}, {seen}, 255;"));
            e.line(&format!("and.b16 {b}, {cur}, 255;"));
            e.line(&format!("setp.ne.b16 {p}, {a}, {b};"));
        } else {
            e.line(&format!("setp.ne.{cmp_t} {p}, {seen}, {cur};"));
        }
        e.line(&format!("mov.{cmp_t} {cur}, {seen};"));
        e.line(&format!("@{p} bra {top};"));
        s.push_str(&finish(&format!("cas_{}", ty.name()), &params, e));
    }
    s
}

fn main() {
    let out = std::env::args().nth(1).unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scripts/gpu/libm_funcs.ptx").to_string());
    let names = libm_names();
    let names: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let mut text = String::new();
    let _ = writeln!(text, "// Generated by `cargo run --example dump_libm -p accjit-back-ptx`; do not edit.");
    text.push_str(&test_module(&names));
    text.push_str(&atomic_kernels());
    match accjit_back_ptx::libm::ptxas_check(&text) {
        Ok(true) => {}
        Ok(false) => eprintln!("warning: no ptxas found, the module was not assembled"),
        Err(e) => {
            eprintln!("ptxas rejects the module, not written:\n{e}");
            std::process::exit(1);
        }
    }
    std::fs::write(&out, text).unwrap_or_else(|e| panic!("{out}: {e}"));
    println!("{out}: {} math functions, atomic kernels", names.len());
}

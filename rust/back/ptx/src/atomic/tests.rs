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

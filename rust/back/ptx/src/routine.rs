//! Functions called from device code (`routine` functions and whatever they
//! call) as PTX `.func`s, with the parameter convention of `func.rs`.
//!
//! A `routine seq` function (or one without a directive) runs in the thread
//! that calls it. A `routine gang`/`worker`/`vector` function is called by
//! every thread of the group it partitions (the caller's gang, worker or
//! lanes), its loops partition over the same hardware as a kernel's (gang
//! loops over the grid, by `%ctaid`: no hidden parameters are needed), and
//! its statements with side effects outside partitioned loops run in the
//! group's single executor; the register locals such a statement assigns
//! are broadcast to the group right after it (`lower` computes broadcast
//! sets for kernels only).

use accjit_ir::exec::ExecMode;
use accjit_ir::{Diagnostic, Level, LocalId, Scalar, Type};

use crate::call::{func_symbol, param_types};
use crate::expr::unsupported;
use crate::func::{FnCx, Uses};
use crate::value::{bits_ty, scalar_of, Val};

pub struct FuncOut {
    /// `.func (...) name (...)` without body, for the prototype and the definition.
    pub header: String,
    pub text: String,
    pub uses: Uses,
}

pub fn compile_func(ir: &accjit_ir::Module, idx: usize, tuning: crate::Tuning) -> Result<FuncOut, Diagnostic> {
    let f = &ir.functions[idx];
    if f.sig.variadic {
        return Err(unsupported(f.span, format!("the variadic function '{}' in device code", f.name)));
    }
    if f.locals.len() < f.sig.params.len() {
        return Err(Diagnostic::error(f.span, format!("internal error: '{}' has fewer locals than parameters", f.name)));
    }
    let mut fx = FnCx::new(ir, f);
    fx.tuning = tuning;
    if let Some(r) = f.routine.as_ref().filter(|r| r.level != Level::Seq) {
        // The levels below the routine's are partitioned by its loops; the
        // levels above it are the caller's (not single here).
        let worker_single = r.level <= Level::Worker;
        fx.routine_levels = Some((worker_single, true));
        fx.mode = ExecMode { gang: 0, worker: !worker_single, vector: false };
    }
    fx.prologue();
    let mut params = vec![];
    if matches!(f.sig.ret, Type::Struct(_) | Type::Desc { .. }) {
        params.push(".param .b64 sret".to_string());
        let r = fx.e.reg(crate::ty::PtxTy::B64);
        fx.e.line(&format!("ld.param.b64 {r}, [sret];"));
        fx.sret = Some(r);
    }
    for (k, ty) in f.sig.params.iter().enumerate() {
        let kinds = param_types(ty).map_err(|w| unsupported(f.span, w))?;
        let mut regs = vec![];
        for (j, t) in kinds.iter().enumerate() {
            let name = format!("p{k}_{j}");
            params.push(format!(".param .{t} {name}"));
            let r = match *t {
                "f32" => fx.e.reg(crate::ty::PtxTy::F32),
                "f64" => fx.e.reg(crate::ty::PtxTy::F64),
                "b64" => fx.e.reg(crate::ty::PtxTy::B64),
                _ => fx.e.reg(crate::ty::PtxTy::B32),
            };
            fx.e.line(&format!("ld.param.{t} {r}, [{name}];"));
            regs.push(r);
        }
        let v = match ty {
            Type::Complex(_) => Val::C(regs[0].clone(), regs[1].clone()),
            Type::Struct(_) | Type::Desc { .. } => Val::Mem(regs[0].clone()),
            _ => Val::S(regs[0].clone()),
        };
        fx.write_local(LocalId(k as u32), v, f.span)?;
    }
    let ret_decl = match &f.sig.ret {
        Type::Void | Type::Struct(_) | Type::Desc { .. } => None,
        Type::Complex(s) => {
            fx.ret = Val::C(fx.sreg(*s), fx.sreg(*s));
            Some(format!(".param .align 8 .b8 rv[{}]", 2 * s.size()))
        }
        t => {
            let s = scalar_of(t).ok_or_else(|| unsupported(f.span, format!("a function returning {t:?}")))?;
            fx.ret = Val::S(fx.sreg(s));
            Some(format!(".param .{} rv", bits_ty(s)))
        }
    };
    // A function that falls off its end returns zero.
    if let Val::S(r) | Val::C(r, _) = fx.ret.clone() {
        let s = match &f.sig.ret {
            Type::Complex(s) => *s,
            t => scalar_of(t).unwrap_or(Scalar::I32),
        };
        fx.e.line(&format!("mov.{} {r}, {};", bits_ty(s), if s.is_float() { crate::value::float_lit(s, 0.0) } else { "0".into() }));
        if let Val::C(_, i) = fx.ret.clone() {
            fx.e.line(&format!("mov.{} {i}, {};", bits_ty(s), crate::value::float_lit(s, 0.0)));
        }
    }
    fx.lower_block(&f.body)?;
    let exit = fx.exit.clone();
    fx.e.place(&exit);
    match (&fx.ret, &f.sig.ret) {
        (Val::S(r), t) => {
            let b = bits_ty(scalar_of(t).unwrap_or(Scalar::U64));
            fx.e.line(&format!("st.param.{b} [rv], {r};"));
        }
        (Val::C(re, im), Type::Complex(s)) => {
            let b = bits_ty(*s);
            let (re, im) = (re.clone(), im.clone());
            fx.e.line(&format!("st.param.{b} [rv], {re};"));
            fx.e.line(&format!("st.param.{b} [rv+{}], {im};", s.size()));
        }
        _ => {}
    }
    fx.e.line("ret;");
    for (i, placed) in fx.placed.iter().enumerate() {
        if fx.labels[i].is_some() && !placed {
            return Err(Diagnostic::error(f.span, format!("label '{}' used but not defined", f.labels[i])));
        }
    }
    let sym = func_symbol(&f.name);
    let header = match ret_decl {
        Some(r) => format!(".func ({r}) {sym}({})", params.join(", ")),
        None => format!(".func {sym}({})", params.join(", ")),
    };
    let mut text = format!("{header}\n{{\n");
    text.push_str(&fx.frame_decls());
    text.push_str(&fx.e.body);
    text.push_str("}\n");
    Ok(FuncOut { header, text, uses: std::mem::take(&mut fx.uses) })
}

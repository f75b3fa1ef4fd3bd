//! Trampolines: `void t(const u64 *args, u64 *ret)` per exported function,
//! so that callers (Python, `accjit run`) need no per-signature FFI. Arguments
//! are decoded like kernel arguments; the result is written to `ret[0]`
//! (integers sign/zero-extended, `float` in the low half, `double` as its
//! bits), complex results as `ret[0]` = real, `ret[1]` = imaginary, and a
//! struct result is written whole to the buffer `ret` points to.

use accjit_ir::{Diagnostic, Type};
use cranelift_codegen::ir::{InstBuilder, UserFuncName};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_module::{FuncId, Module as _};

use crate::abi::{class_of, Class};
use crate::function::FnCx;
use crate::module::ModuleCx;
use crate::value::{own_flags, Val};

pub fn compile_trampoline(cx: &mut ModuleCx, i: usize, ctx: &mut Context, fbc: &mut FunctionBuilderContext) -> Result<FuncId, Diagnostic> {
    let f = &cx.ir.functions[i];
    let target = cx.funcs[i].ok_or_else(|| Diagnostic::error(f.span, "internal error: undeclared function"))?;
    let tsig = crate::abi::trampoline_signature(cx.cc);
    let id = cx
        .jit
        .declare_function(&format!("t{i}.{}", f.name), cranelift_module::Linkage::Local, &tsig)
        .map_err(|e| Diagnostic::error(f.span, format!("cannot declare the trampoline of '{}': {e}", f.name)))?;
    ctx.func.signature = tsig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut b = FunctionBuilder::new(&mut ctx.func, fbc);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let (args, ret) = (b.block_params(entry)[0], b.block_params(entry)[1]);
    let mut fx = FnCx::bare(cx, f, b);
    let span = f.span;
    let mut argv = Vec::new();
    let sret = (class_of(&f.sig.ret) == Class::ByRef).then_some(ret);
    if let Some(r) = sret {
        argv.push(r);
    }
    for (k, ty) in f.sig.params.iter().enumerate() {
        let v = fx.decode_slot(args, k, ty, span)?;
        fx.arg_values(v, ty, &mut argv, span, false)?;
    }
    if f.sig.variadic {
        // Called from outside with no variadic arguments: an empty block.
        let null = fx.iconst(cranelift_codegen::ir::types::I64, 0);
        argv.extend([null, null, null]);
    }
    if fx.m.gang_fns[i] {
        argv.extend(fx.gang_args());
    }
    let fr = fx.func_ref(target);
    let call = fx.b.ins().call(fr, &argv);
    let results = fx.b.inst_results(call).to_vec();
    let val = fx.call_result(&f.sig.ret, &results, sret, false);
    match (&f.sig.ret, val) {
        (Type::Complex(s), Val::Complex(re, im)) => {
            let et = Type::Scalar(*s);
            for (k, part) in [re, im].into_iter().enumerate() {
                let w = fx.encode_slot(Val::Scalar(part), &et, span)?;
                fx.b.ins().store(own_flags(), w, ret, 8 * k as i32);
            }
        }
        (ty, Val::Scalar(_)) => {
            let w = fx.encode_slot(val, ty, span)?;
            fx.b.ins().store(own_flags(), w, ret, 0);
        }
        _ => {}
    }
    fx.b.ins().return_(&[]);
    fx.b.seal_all_blocks();
    let cfg = fx.m.jit.target_config();
    fx.b.finalize(cfg);
    cx.define(id, ctx, &format!("trampoline {}", f.name), span)?;
    Ok(id)
}

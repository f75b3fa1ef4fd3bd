//! Calls to variadic functions. Cranelift cannot make C variadic calls, so
//! every variadic call passes its variadic arguments as a block
//! ([`accjit_ir::FuncSig::va_block_form`], docs/runtime-abi.md): each
//! variadic argument (already default-promoted by the front end) goes into a
//! u64 slot with its kind — 0 integer (sign/zero-extended to 64 bits),
//! 1 double, 2 pointer — followed by the count.
//!
//! - a C library function `NAME(fixed..., ...)` is called as its runtime shim
//!   `__accjit_va_NAME(fixed..., slots, kinds, n)`;
//! - a variadic function of the program is compiled with that signature
//!   (`function::compiled_sig`) and called directly with the block; its
//!   `va_start` reads the block from the locals that receive it;
//! - a pointer to a variadic function holds its entry with the block (the
//!   shim, for a C library function), so calls through pointers pass the
//!   block too, whichever kind of function the pointer holds.

use accjit_ir::{Diagnostic, ExprId, ExternId, FuncId, FuncSig, Span, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};

use crate::function::FnCx;
use crate::value::own_flags;

impl FnCx<'_, '_, '_> {
    pub fn lower_variadic_call(&mut self, e: ExternId, args: &[ExprId], span: Span) -> Result<crate::value::Val, Diagnostic> {
        let ir = self.m.ir;
        let ext = &ir.externs[e.index()];
        let nfixed = ext.sig.params.len();
        if args.len() < nfixed {
            return Err(Diagnostic::error(span, format!("too few arguments in a call to '{}'", ext.name)));
        }
        let id = self.va_shim(e, span)?;
        let fixed_sig = FuncSig { params: ext.sig.params.clone(), ret: ext.sig.ret.clone(), variadic: false };
        let (mut argv, sret) = self.call_args(&fixed_sig, &args[..nfixed], span, true)?;
        argv.extend(self.va_block(&args[nfixed..], &ext.name)?);
        let fr = self.func_ref(id);
        let call = self.b.ins().call(fr, &argv);
        let results = self.b.inst_results(call).to_vec();
        Ok(self.call_result(&ext.sig.ret, &results, sret, true))
    }

    /// The runtime shim of variadic C library function `e`: its entry with
    /// the arguments' block, which is also what a pointer to it holds.
    pub fn va_shim(&mut self, e: ExternId, span: Span) -> Result<cranelift_module::FuncId, Diagnostic> {
        let ext = &self.m.ir.externs[e.index()];
        let shim = format!("__accjit_va_{}", ext.name);
        let csig = crate::abi::signature(&ext.sig.va_block_form(), self.m.cc, true, &self.m.ir.structs, false)
            .map_err(|w| Diagnostic::error(span, format!("{w} ('{}') is not supported by the Cranelift back end", ext.name)))?;
        self.m
            .import(&shim, &csig, span)
            .map_err(|_| Diagnostic::error(span, format!("calling the variadic function '{}' is not supported (no runtime shim '{shim}')", ext.name)))
    }

    /// A call through a pointer to a variadic function: every such pointer
    /// holds an entry taking the arguments' block (a function of the
    /// program, or a C library function's shim: `lower_func_addr`).
    pub fn lower_variadic_indirect(&mut self, fp: ExprId, sig: &FuncSig, args: &[ExprId], span: Span) -> Result<crate::value::Val, Diagnostic> {
        let nfixed = sig.params.len();
        if args.len() < nfixed {
            return Err(Diagnostic::error(span, "too few arguments in a call through a pointer to a variadic function"));
        }
        if sig.params.iter().chain([&sig.ret]).any(|t| t.is_aggregate()) {
            return Err(Diagnostic::error(span, "calling a variadic function with struct parameters or result through a pointer is not supported"));
        }
        let f = self.lower_expr(fp)?.scalar(span)?;
        let fixed_sig = FuncSig { params: sig.params.clone(), ret: sig.ret.clone(), variadic: false };
        let (mut argv, sret) = self.call_args(&fixed_sig, &args[..nfixed], span, false)?;
        argv.extend(self.va_block(&args[nfixed..], "a function pointer")?);
        let csig = crate::abi::signature(&sig.va_block_form(), self.m.cc, false, &self.m.ir.structs, false).map_err(|w| Diagnostic::error(span, w))?;
        let sref = self.b.import_signature(csig);
        let call = self.b.ins().call_indirect(sref, f, &argv);
        let results = self.b.inst_results(call).to_vec();
        Ok(self.call_result(&sig.ret, &results, sret, false))
    }

    /// A call of variadic function `f` of the program.
    pub fn lower_defined_variadic_call(&mut self, f: FuncId, args: &[ExprId], span: Span) -> Result<crate::value::Val, Diagnostic> {
        let ir = self.m.ir;
        let func = ir.functions.get(f.index()).ok_or_else(|| Diagnostic::error(span, "internal error: unknown function"))?;
        let id = self.m.funcs[f.index()].ok_or_else(|| Diagnostic::error(span, format!("'{}' could not be compiled", func.name)))?;
        let nfixed = func.sig.params.len();
        if args.len() < nfixed {
            return Err(Diagnostic::error(span, format!("too few arguments in a call to '{}'", func.name)));
        }
        let fixed_sig = FuncSig { params: func.sig.params.clone(), ret: func.sig.ret.clone(), variadic: false };
        let (mut argv, sret) = self.call_args(&fixed_sig, &args[..nfixed], span, false)?;
        argv.extend(self.va_block(&args[nfixed..], &func.name)?);
        if self.m.gang_fns[f.index()] {
            argv.extend(self.gang_args());
        }
        let fr = self.func_ref(id);
        let call = self.b.ins().call(fr, &argv);
        let results = self.b.inst_results(call).to_vec();
        Ok(self.call_result(&func.sig.ret, &results, sret, false))
    }

    /// The block (slots, kinds, count) of the variadic arguments `rest` of a
    /// call to `callee`, in stack temporaries of the caller's frame.
    fn va_block(&mut self, rest: &[ExprId], callee: &str) -> Result<[Value; 3], Diagnostic> {
        let n = rest.len();
        let slots = self.temp(8 * n.max(1) as u64, 8);
        let kinds = self.temp(n.max(1) as u64, 8);
        for (i, &a) in rest.iter().enumerate() {
            let v = self.lower_expr(a)?;
            let aty = self.expr(a).ty.clone();
            let aspan = self.expr(a).span;
            let (word, kind) = match &aty {
                Type::Scalar(s) if s.is_float() => {
                    let d = self.cast(v, &aty, &Type::F64, aspan)?.scalar(aspan)?;
                    (self.b.ins().bitcast(types::I64, cranelift_codegen::ir::MemFlagsData::new(), d), 1)
                }
                Type::Scalar(_) => (self.cast_to_i64(v, &aty, aspan)?, 0),
                Type::Ptr(_) | Type::Array(..) | Type::Func(_) => (self.cast_to_i64(v, &aty, aspan)?, 2),
                _ => {
                    return Err(Diagnostic::error(
                        aspan,
                        format!("passing a value of type {aty:?} to the variadic function '{callee}' is not supported by the Cranelift back end"),
                    ));
                }
            };
            self.b.ins().store(own_flags(), word, slots, 8 * i as i32);
            let k = self.iconst(types::I8, kind);
            self.b.ins().store(own_flags(), k, kinds, i as i32);
        }
        let count = self.iconst(types::I64, n as i64);
        Ok([slots, kinds, count])
    }
}

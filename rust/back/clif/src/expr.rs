//! Expressions: one `lower_<kind>` per `ExprKind`, and places (lvalues) to
//! addresses. Operators live in `arith` (scalars, pointers) and `complex`.

use accjit_ir::{Builtin, Callee, Diagnostic, ExprId, ExprKind, FuncSig, Scalar, Span, Type};
use cranelift_codegen::ir::{types, BlockArg, InstBuilder, Value};

use crate::abi::{cl_scalar, cl_type, class_for, Class};
use crate::function::FnCx;
use crate::value::{Place, Val};

impl<'m> FnCx<'_, 'm, '_> {
    pub fn lower_expr(&mut self, id: ExprId) -> Result<Val, Diagnostic> {
        if let Some(v) = self.stream_value(id) {
            return Ok(v);
        }
        let e = self.expr(id);
        let (ty, span) = (&e.ty, e.span);
        match &e.kind {
            ExprKind::Int(v) => self.lower_int(*v, ty, span),
            ExprKind::Float(v) => self.lower_float(*v, ty, span),
            ExprKind::Load(p) => self.lower_load(*p),
            ExprKind::AddrOf(p) => self.lower_addr_of(*p, span),
            ExprKind::FuncAddr(c) => self.lower_func_addr(*c, span),
            ExprKind::Binary(op, a, b) => self.lower_binary(*op, *a, *b, ty, span),
            ExprKind::Unary(op, a) => self.lower_unary(*op, *a, ty, span),
            ExprKind::Cast(a) => self.lower_cast(*a, ty, span),
            ExprKind::Cond(c, a, b) => self.lower_cond(*c, *a, *b, ty, span),
            ExprKind::Comma(a, b) => {
                self.lower_expr(*a)?;
                self.lower_expr(*b)
            }
            ExprKind::Call(c, args) => self.lower_call(*c, args, span),
            ExprKind::CallIndirect(fp, args) => self.lower_call_indirect(*fp, args, span),
            ExprKind::Assign(p, v) => self.lower_assign(*p, *v, span),
            ExprKind::CompoundAssign { op, place, value, op_ty } => self.lower_compound_assign(*op, *place, *value, op_ty, span),
            ExprKind::IncDec { place, inc, prefix } => self.lower_inc_dec(*place, *inc, *prefix, span),
            ExprKind::ComplexPart(a, imag) => self.lower_complex_part(*a, *imag, span),
            ExprKind::MakeComplex(re, im) => self.lower_make_complex(*re, *im, ty, span),
            ExprKind::Alloca(n) => self.lower_alloca(*n, span),
            ExprKind::Builtin(b) => self.lower_builtin(*b),
            ExprKind::DescBase(d) => self.lower_desc_field(*d, DescField::Base, span),
            ExprKind::DescShape(d, k) => self.lower_desc_field(*d, DescField::Shape(*k), span),
            ExprKind::DescStride(d, k) => self.lower_desc_field(*d, DescField::Stride(*k), span),
            // A place used directly as a value reads it.
            ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_) | ExprKind::Member(..) | ExprKind::DescElem(..) => self.lower_load(id),
        }
    }

    fn lower_int(&mut self, v: i64, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        match ty {
            Type::Complex(s) => {
                let t = cl_scalar(*s);
                let re = self.fconst(t, v as f64);
                let im = self.fconst(t, 0.0);
                Ok(Val::Complex(re, im))
            }
            Type::Scalar(Scalar::Bool) => Ok(Val::Scalar(self.iconst(types::I8, (v != 0) as i64))),
            _ => match cl_type(ty) {
                Some(t) if t.is_float() => Ok(Val::Scalar(self.fconst(t, v as f64))),
                Some(t) => Ok(Val::Scalar(self.iconst(t, v))),
                None => Err(Diagnostic::error(span, format!("an integer constant of type {ty:?} is not supported by the Cranelift back end"))),
            },
        }
    }

    fn lower_float(&mut self, v: f64, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        match ty {
            Type::Complex(s) => {
                let t = cl_scalar(*s);
                let re = self.fconst(t, v);
                let im = self.fconst(t, 0.0);
                Ok(Val::Complex(re, im))
            }
            _ => match cl_type(ty) {
                Some(t) if t.is_float() => Ok(Val::Scalar(self.fconst(t, v))),
                Some(_) => {
                    let f = self.fconst(types::F64, v);
                    let s = crate::abi::scalar_of(ty).unwrap_or(Scalar::I64);
                    Ok(Val::Scalar(self.cast_scalar(f, Scalar::F64, s)))
                }
                None => Err(Diagnostic::error(span, format!("a floating constant of type {ty:?} is not supported by the Cranelift back end"))),
            },
        }
    }

    fn lower_load(&mut self, p: ExprId) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let ty = &self.expr(p).ty;
        Ok(self.read_place(place, ty))
    }

    /// The location a place expression denotes.
    pub fn lower_place(&mut self, id: ExprId) -> Result<Place, Diagnostic> {
        let e = self.expr(id);
        let span = e.span;
        match &e.kind {
            ExprKind::Local(l) => self.local_place(*l, span),
            ExprKind::Global(g) => {
                if g.index() >= self.m.ir.globals.len() {
                    return Err(Diagnostic::error(span, format!("internal error: global #{} does not exist", g.0)));
                }
                let d = self.m.global_data(*g, span)?;
                Ok(Place::Mem(self.data_addr(d)))
            }
            ExprKind::Deref(p) => {
                let v = self.lower_expr(*p)?;
                Ok(Place::Mem(self.ptr_value(v, span)?))
            }
            ExprKind::Member(s, idx) => {
                let base = self.aggregate_addr(*s)?;
                let sty = &self.expr(*s).ty;
                let Type::Struct(sid) = sty else {
                    return Err(Diagnostic::error(span, format!("internal error: member of a non-struct type {sty:?}")));
                };
                let def = &self.m.ir.structs[sid.0 as usize];
                let field = def
                    .fields
                    .get(*idx as usize)
                    .ok_or_else(|| Diagnostic::error(span, format!("internal error: struct '{}' has no field #{idx}", def.name)))?;
                Ok(Place::Mem(if field.offset == 0 { base } else { self.b.ins().iadd_imm_s(base, field.offset as i64) }))
            }
            ExprKind::DescElem(d, idx) => self.lower_desc_elem(*d, idx, span),
            _ => {
                // An rvalue aggregate (e.g. `f().x`): its temporary is the place.
                let v = self.lower_expr(id)?;
                match v {
                    Val::Mem(a) => Ok(Place::Mem(a)),
                    _ => Err(Diagnostic::error(span, "internal error: expression is not a place")),
                }
            }
        }
    }

    /// Address of an aggregate place or value.
    fn aggregate_addr(&mut self, id: ExprId) -> Result<Value, Diagnostic> {
        let span = self.expr(id).span;
        match self.lower_place(id)? {
            Place::Mem(a) => Ok(a),
            p => Err(Diagnostic::error(span, format!("internal error: aggregate in registers ({p:?})"))),
        }
    }

    pub(crate) fn ptr_value(&mut self, v: Val, span: Span) -> Result<Value, Diagnostic> {
        match v {
            Val::Scalar(p) | Val::Mem(p) => Ok(p),
            _ => Err(Diagnostic::error(span, "internal error: dereferencing a non-pointer")),
        }
    }

    fn lower_desc_elem(&mut self, d: ExprId, idx: &[ExprId], span: Span) -> Result<Place, Diagnostic> {
        let dty = self.expr(d).ty.clone();
        let Type::Desc { elem, rank } = &dty else {
            return Err(Diagnostic::error(span, format!("internal error: element of a non-descriptor {dty:?}")));
        };
        if idx.len() != *rank as usize {
            return Err(Diagnostic::error(span, format!("internal error: {} subscripts for a rank-{rank} descriptor", idx.len())));
        }
        let addr = self.aggregate_addr(d)?;
        let base = self.load(types::I64, addr, 0);
        let mut off: Option<Value> = None;
        for (k, &i) in idx.iter().enumerate() {
            let iv = self.lower_expr(i)?;
            let ity = self.expr(i).ty.clone();
            let iv = self.cast_to_i64(iv, &ity, span)?;
            let stride = self.load(types::I64, addr, (8 + 8 * *rank as i32) + 8 * k as i32);
            let t = self.b.ins().imul(iv, stride);
            off = Some(match off {
                None => t,
                Some(o) => self.b.ins().iadd(o, t),
            });
        }
        let esize = self.size_of(elem) as i64;
        Ok(Place::Mem(match off {
            None => base,
            Some(o) => {
                let bytes = self.b.ins().imul_imm_s(o, esize);
                self.b.ins().iadd(base, bytes)
            }
        }))
    }

    fn lower_desc_field(&mut self, d: ExprId, field: DescField, span: Span) -> Result<Val, Diagnostic> {
        let dty = self.expr(d).ty.clone();
        let Type::Desc { rank, .. } = dty else {
            return Err(Diagnostic::error(span, format!("internal error: descriptor field of {dty:?}")));
        };
        let v = self.lower_expr(d)?;
        let addr = v.addr(span)?;
        let off = match field {
            DescField::Base => 0,
            DescField::Shape(k) | DescField::Stride(k) if k >= rank => {
                return Err(Diagnostic::error(span, format!("dimension {k} of a rank-{rank} descriptor")));
            }
            DescField::Shape(k) => 8 + 8 * k as i32,
            DescField::Stride(k) => 8 + 8 * rank as i32 + 8 * k as i32,
        };
        Ok(Val::Scalar(self.load(types::I64, addr, off)))
    }

    fn lower_addr_of(&mut self, p: ExprId, span: Span) -> Result<Val, Diagnostic> {
        match self.lower_place(p)? {
            Place::Mem(a) => Ok(Val::Scalar(a)),
            _ => Err(Diagnostic::error(span, "internal error: address of a register variable")),
        }
    }

    fn lower_func_addr(&mut self, c: Callee, span: Span) -> Result<Val, Diagnostic> {
        let id = match c {
            Callee::Func(f) => self.m.funcs.get(f.index()).copied().flatten().ok_or_else(|| Diagnostic::error(span, "internal error: unknown function"))?,
            Callee::Extern(e) if self.m.ir.externs.get(e.index()).is_some_and(|x| x.sig.variadic) => self.va_shim(e, span)?,
            Callee::Extern(e) => self.m.extern_func(e)?,
        };
        let fr = self.func_ref(id);
        Ok(Val::Scalar(self.b.ins().func_addr(types::I64, fr)))
    }

    fn lower_cast(&mut self, a: ExprId, to: &Type, span: Span) -> Result<Val, Diagnostic> {
        let v = self.lower_expr(a)?;
        let from = self.expr(a).ty.clone();
        self.cast(v, &from, to, span)
    }

    /// The native values of `v` as block arguments.
    fn flatten(v: Val) -> Vec<BlockArg> {
        match v {
            Val::Void => vec![],
            Val::Scalar(x) | Val::Mem(x) => vec![BlockArg::Value(x)],
            Val::Complex(a, b) => vec![BlockArg::Value(a), BlockArg::Value(b)],
        }
    }

    fn lower_cond(&mut self, c: ExprId, a: ExprId, b: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let cv = self.lower_expr(c)?;
        let cty = self.expr(c).ty.clone();
        let t = self.truth(cv, &cty, span)?;
        let (then_b, else_b, merge) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().brif(t, then_b, &[], else_b, &[]);
        for (blk, arm) in [(then_b, a), (else_b, b)] {
            self.b.switch_to_block(blk);
            self.b.seal_block(blk);
            let v = self.lower_expr(arm)?;
            let aty = self.expr(arm).ty.clone();
            let v = self.cast(v, &aty, ty, span)?;
            let args = Self::flatten(v);
            self.b.ins().jump(merge, &args);
        }
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        Ok(match ty {
            Type::Void => Val::Void,
            Type::Complex(s) => {
                let t = cl_scalar(*s);
                Val::Complex(self.b.append_block_param(merge, t), self.b.append_block_param(merge, t))
            }
            _ => match cl_type(ty) {
                Some(t) => Val::Scalar(self.b.append_block_param(merge, t)),
                None => Val::Mem(self.b.append_block_param(merge, types::I64)),
            },
        })
    }

    fn lower_call(&mut self, c: Callee, args: &[ExprId], span: Span) -> Result<Val, Diagnostic> {
        let ir = self.m.ir;
        let (sig, id, ext, gang) = match c {
            Callee::Func(f) => {
                let func = ir.functions.get(f.index()).ok_or_else(|| Diagnostic::error(span, "internal error: unknown function"))?;
                if func.sig.variadic {
                    return self.lower_defined_variadic_call(f, args, span);
                }
                let id = self.m.funcs[f.index()].ok_or_else(|| Diagnostic::error(span, format!("'{}' could not be compiled", func.name)))?;
                (&func.sig, id, false, self.m.gang_fns[f.index()])
            }
            Callee::Extern(e) => {
                let ext = ir.externs.get(e.index()).ok_or_else(|| Diagnostic::error(span, "internal error: unknown extern"))?;
                if ext.sig.variadic {
                    return self.lower_variadic_call(e, args, span);
                }
                (&ext.sig, self.m.extern_func(e)?, true, false)
            }
        };
        let (mut argv, sret) = self.call_args(sig, args, span, ext)?;
        if gang {
            // A gang routine partitions its gang loops like the caller's gang.
            argv.extend(self.gang_args());
        }
        let fr = self.func_ref(id);
        let call = self.b.ins().call(fr, &argv);
        let results = self.b.inst_results(call).to_vec();
        Ok(self.call_result(&sig.ret, &results, sret, ext))
    }

    fn lower_call_indirect(&mut self, fp: ExprId, args: &[ExprId], span: Span) -> Result<Val, Diagnostic> {
        let fty = self.expr(fp).ty.clone();
        let sig: FuncSig = match &fty {
            Type::Ptr(t) => match &**t {
                Type::Func(s) => (**s).clone(),
                _ => return Err(Diagnostic::error(span, "internal error: calling a non-function pointer")),
            },
            Type::Func(s) => (**s).clone(),
            _ => return Err(Diagnostic::error(span, "internal error: calling a non-function")),
        };
        if sig.variadic {
            return self.lower_variadic_indirect(fp, &sig, args, span);
        }
        let f = self.lower_expr(fp)?.scalar(span)?;
        let (argv, sret) = self.call_args(&sig, args, span, false)?;
        let csig = crate::abi::signature(&sig, self.m.cc, false, &self.m.ir.structs, false).map_err(|w| Diagnostic::error(span, w))?;
        let sref = self.b.import_signature(csig);
        let call = self.b.ins().call_indirect(sref, f, &argv);
        let results = self.b.inst_results(call).to_vec();
        Ok(self.call_result(&sig.ret, &results, sret, false))
    }

    /// Native arguments for a call of `sig` (plus the result temporary for
    /// struct-returning callees). `ext`: the callee is a C function.
    pub fn call_args(&mut self, sig: &FuncSig, args: &[ExprId], span: Span, ext: bool) -> Result<(Vec<Value>, Option<Value>), Diagnostic> {
        if args.len() != sig.params.len() {
            return Err(Diagnostic::error(span, format!("call with {} arguments to a function taking {}", args.len(), sig.params.len())));
        }
        let mut out = Vec::new();
        let mut sret = None;
        if matches!(class_for(&sig.ret, &self.m.ir.structs, ext), Class::ByRef | Class::Memory(_)) {
            let (size, align) = (self.size_of(&sig.ret), self.align_of(&sig.ret));
            let t = self.temp(size, align);
            out.push(t);
            sret = Some(t);
        }
        for (&a, pty) in args.iter().zip(&sig.params) {
            let v = self.lower_expr(a)?;
            let aty = self.expr(a).ty.clone();
            let v = self.cast(v, &aty, pty, span)?;
            self.arg_values(v, pty, &mut out, span, ext)?;
        }
        Ok((out, sret))
    }

    pub fn call_result(&mut self, ret: &Type, results: &[Value], sret: Option<Value>, ext: bool) -> Val {
        match class_for(ret, &self.m.ir.structs, ext) {
            Class::Void => Val::Void,
            Class::Int(..) | Class::Float(_) => results.first().map(|&v| Val::Scalar(v)).unwrap_or(Val::Void),
            Class::Complex(Scalar::F32) => {
                let (re, im) = self.unpack_c32(results[0]);
                Val::Complex(re, im)
            }
            Class::Complex(_) => Val::Complex(results[0], results[1]),
            Class::ByRef | Class::Memory(_) => sret.map(Val::Mem).unwrap_or(Val::Void),
            Class::Regs(_) => {
                let t = self.temp(16, 8);
                for (k, &v) in results.iter().enumerate() {
                    self.b.ins().store(crate::value::own_flags(), v, t, 8 * k as i32);
                }
                Val::Mem(t)
            }
        }
    }

    fn lower_assign(&mut self, p: ExprId, v: ExprId, span: Span) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let pty = self.expr(p).ty.clone();
        let val = self.lower_expr(v)?;
        let vty = self.expr(v).ty.clone();
        let val = self.cast(val, &vty, &pty, span)?;
        self.write_place(place, &pty, val, span)?;
        Ok(match (place, val) {
            (Place::Mem(a), Val::Mem(_)) => Val::Mem(a),
            _ => val,
        })
    }

    fn lower_compound_assign(&mut self, op: accjit_ir::BinOp, p: ExprId, v: ExprId, op_ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let pty = self.expr(p).ty.clone();
        // Pointer `p += n` is pointer arithmetic whatever computation type is given.
        let op_ty = if pty.is_ptr() && matches!(op, accjit_ir::BinOp::Add | accjit_ir::BinOp::Sub) { &pty } else { op_ty };
        let old = self.read_place(place, &pty);
        let l = self.cast(old, &pty, op_ty, span)?;
        let r = self.lower_expr(v)?;
        let vty = self.expr(v).ty.clone();
        let res = self.binop(op, l, op_ty, r, &vty, op_ty, span)?;
        let new = self.cast(res, op_ty, &pty, span)?;
        self.write_place(place, &pty, new, span)?;
        Ok(new)
    }

    fn lower_inc_dec(&mut self, p: ExprId, inc: bool, prefix: bool, span: Span) -> Result<Val, Diagnostic> {
        let place = self.lower_place(p)?;
        let pty = self.expr(p).ty.clone();
        let old = self.read_place(place, &pty);
        let sign: i64 = if inc { 1 } else { -1 };
        let new = match (&pty, old) {
            (Type::Ptr(t), Val::Scalar(v)) => {
                let size = match &**t {
                    Type::Void | Type::Func(_) => 1,
                    t => self.size_of(t) as i64,
                };
                Val::Scalar(self.b.ins().iadd_imm_s(v, sign * size))
            }
            (Type::Scalar(Scalar::Bool), Val::Scalar(v)) => Val::Scalar(if inc { self.iconst(types::I8, 1) } else { self.b.ins().bxor_imm_s(v, 1) }),
            (Type::Scalar(s), Val::Scalar(v)) if s.is_float() => {
                let one = self.fconst(cl_scalar(*s), sign as f64);
                Val::Scalar(self.b.ins().fadd(v, one))
            }
            (Type::Scalar(_), Val::Scalar(v)) => Val::Scalar(self.b.ins().iadd_imm_s(v, sign)),
            (Type::Complex(s), Val::Complex(re, im)) => {
                let one = self.fconst(cl_scalar(*s), sign as f64);
                Val::Complex(self.b.ins().fadd(re, one), im)
            }
            _ => return Err(Diagnostic::error(span, format!("++/-- on a value of type {pty:?} is not supported by the Cranelift back end"))),
        };
        self.write_place(place, &pty, new, span)?;
        Ok(if prefix { new } else { old })
    }

    fn lower_complex_part(&mut self, a: ExprId, imag: bool, span: Span) -> Result<Val, Diagnostic> {
        let v = self.lower_expr(a)?;
        let aty = self.expr(a).ty.clone();
        let (re, im) = self.complex_parts(v, &aty, span)?;
        Ok(Val::Scalar(if imag { im } else { re }))
    }

    fn lower_make_complex(&mut self, re: ExprId, im: ExprId, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let Type::Complex(s) = ty else {
            return Err(Diagnostic::error(span, format!("internal error: complex value of type {ty:?}")));
        };
        let et = Type::Scalar(*s);
        let mut parts = [None, None];
        for (k, &x) in [re, im].iter().enumerate() {
            let v = self.lower_expr(x)?;
            let xty = self.expr(x).ty.clone();
            parts[k] = Some(self.cast(v, &xty, &et, span)?.scalar(span)?);
        }
        match parts {
            [Some(r), Some(i)] => Ok(Val::Complex(r, i)),
            _ => Err(Diagnostic::error(span, "internal error: complex parts")),
        }
    }

    fn lower_alloca(&mut self, n: ExprId, span: Span) -> Result<Val, Diagnostic> {
        let v = self.lower_expr(n)?;
        let nty = self.expr(n).ty.clone();
        let bytes = self.cast_to_i64(v, &nty, span)?;
        let p = self.call_runtime("__accjit_alloca", &[bytes], span)?;
        p.map(Val::Scalar).ok_or_else(|| Diagnostic::error(span, "internal error: alloca"))
    }

    /// Gang index/count; outside kernels (a routine called on the host) the
    /// code runs as gang 0 of 1.
    fn lower_builtin(&mut self, b: Builtin) -> Result<Val, Diagnostic> {
        Ok(Val::Scalar(match (b, self.kernel) {
            (Builtin::GangIndex, Some(k)) => k.gang,
            (Builtin::NumGangs, Some(k)) => k.num_gangs,
            (Builtin::GangIndex, None) => self.iconst(types::I64, 0),
            (Builtin::NumGangs, None) => self.iconst(types::I64, 1),
        }))
    }
}

#[derive(Clone, Copy)]
enum DescField {
    Base,
    Shape(u8),
    Stride(u8),
}

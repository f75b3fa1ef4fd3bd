//! Calls in device code: functions of the module (`.func`s, `func.rs` has
//! their parameter convention), C math functions (one PTX instruction where
//! PTX has an exact one — `sqrt.rn`, `abs`, `min`/`max`, `fma.rn`,
//! `cvt.rmi/rpi/rzi/rni` for floor/ceil/trunc/rint, `copysign` — otherwise
//! a `call` of the math library's `.func`, `libm.rs`), `printf` through
//! `vprintf` (`printf.rs`), and `acc_on_device`, which is 1 for
//! `acc_device_not_host` and `acc_device_nvidia` in code running on this
//! device; `exit`, `_Exit`, `_exit`, `abort` and a failed `assert` record
//! the program's end in the module's `accjit_abi::device_end` global and
//! end the calling thread (the runtime ends the program when the launch
//! is complete); Fortran `print`/`write` calls are logged (`iolog.rs`) for
//! the runtime to replay after the launch. Any other external function has no device form: a
//! diagnostic naming it.

use accjit_ir::{Callee, Diagnostic, ExprId, FuncSig, Scalar, Span, Type};

use crate::expr::unsupported;
use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::{bits_ty, op_ty, scalar_of, Val};

/// How one IR value travels as `.param`s of a `.func`.
pub fn param_types(ty: &Type) -> Result<Vec<&'static str>, String> {
    Ok(match ty {
        Type::Void => vec![],
        Type::Complex(s) => vec![bits_ty(*s), bits_ty(*s)],
        Type::Struct(_) | Type::Desc { .. } => vec!["b64"],
        t => match scalar_of(t) {
            Some(s) => vec![bits_ty(s)],
            None => return Err(format!("a parameter of type {t:?}")),
        },
    })
}

/// The `.func` symbol of IR function `name`.
pub fn func_symbol(name: &str) -> String {
    format!("__accjit_fn_{}", crate::escape_ident(name))
}

/// Externs that only compute a value from their arguments (math): their
/// calls need no predication in single-mode code.
pub fn pure_extern(name: &str) -> bool {
    native_math(name).is_some() || has_libm(name) || name == "acc_on_device" || matches!(name, "abs" | "labs" | "llabs")
}

/// The `accjit_abi::device_end` kind of a C function that ends the program.
fn program_end(name: &str) -> Option<u32> {
    use accjit_abi::device_end as end;
    match name {
        "exit" | "_Exit" | "_exit" => Some(end::EXIT),
        "abort" => Some(end::ABORT),
        "__accjit_assert_fail" => Some(end::ASSERT),
        _ => None,
    }
}

/// The native instruction of a C math function: (mnemonic, operand count).
fn native_math(name: &str) -> Option<(&'static str, usize)> {
    let base = name.strip_suffix('f').filter(|b| NATIVE.iter().any(|(n, ..)| n == b)).unwrap_or(name);
    NATIVE.iter().find(|(n, ..)| *n == base).map(|&(_, ins, k)| (ins, k))
}

/// C name (double form; `f` suffix for float), instruction, operands.
const NATIVE: &[(&str, &str, usize)] = &[
    ("sqrt", "sqrt.rn", 1),
    ("fabs", "abs", 1),
    ("fmin", "min", 2),
    ("fmax", "max", 2),
    ("floor", "cvt.rmi", 1),
    ("ceil", "cvt.rpi", 1),
    ("trunc", "cvt.rzi", 1),
    ("rint", "cvt.rni", 1),
    ("nearbyint", "cvt.rni", 1),
    ("fma", "fma.rn", 3),
    ("copysign", "copysign", 2),
];

impl FnCx<'_> {
    pub fn lower_call(&mut self, c: Callee, args: &[ExprId], ret: &Type, span: Span) -> Result<Val, Diagnostic> {
        match c {
            Callee::Func(id) => {
                let func = self.ir.functions.get(id.index()).ok_or_else(|| Diagnostic::error(span, "internal error: unknown function"))?;
                if func.sig.variadic {
                    return Err(unsupported(span, format!("calling the variadic function '{}' in device code", func.name)));
                }
                self.uses.funcs.insert(id.0);
                let sym = func_symbol(&func.name);
                let sig = func.sig.clone();
                self.call_func(&sym, &sig, args, span)
            }
            Callee::Extern(x) => {
                let ext = self.ir.externs.get(x.index()).ok_or_else(|| Diagnostic::error(span, "internal error: unknown extern"))?;
                let name = ext.name.as_str();
                if name == "printf" {
                    return self.lower_printf(args, span);
                }
                if name == "acc_on_device" {
                    return self.acc_on_device(args, ret, span);
                }
                if let Some(kind) = program_end(name) {
                    return self.lower_program_end(kind, args, span);
                }
                if let Some(id) = crate::iolog::logged_id(name) {
                    self.uses.io_log = true;
                    return self.lower_io_log(id, name, args, ret, span);
                }
                if matches!(name, "abs" | "labs" | "llabs") && args.len() == 1 {
                    let v = self.lower_expr(args[0])?;
                    let aty = self.ety(args[0]);
                    let s = scalar_of(ret).unwrap_or(Scalar::I32);
                    let x = self.cast(v, &aty, ret, span)?.s(span)?;
                    let r = self.sreg(s);
                    self.e.line(&format!("abs.{} {r}, {x};", if s.size() == 8 { "s64" } else { "s32" }));
                    return Ok(Val::S(r));
                }
                if let Some(v) = self.complex_math(name, args, &ext.sig, span)? {
                    return Ok(v);
                }
                if matches!(name, "memcpy" | "memmove" | "memset") && args.len() == 3 {
                    return self.lower_mem_builtin(name, args, span);
                }
                if native_math(name).is_some() || has_libm(name) {
                    let mut vals = vec![];
                    let mut tys = vec![];
                    for (k, &a) in args.iter().enumerate() {
                        let v = self.lower_expr(a)?;
                        let aty = self.ety(a);
                        let pty = ext.sig.params.get(k).cloned().unwrap_or(aty.clone());
                        vals.push(self.cast(v, &aty, &pty, span)?);
                        tys.push(pty);
                    }
                    let r = self.call_math(name, &vals, &tys, &ext.sig.ret, span)?;
                    return Ok(r);
                }
                if is_c_math(name) {
                    return Err(unsupported(span, format!("the math function '{name}' (no device implementation yet)")));
                }
                Err(Diagnostic::error(span, format!("'{name}' cannot be called in code running on the nvidia device (it has no device form)")))
            }
        }
    }

    /// `exit(code)`, `abort()`, `__accjit_assert_fail(expr, file, line)`:
    /// the first thread of the launch to end the program claims the
    /// module's end record (compare-and-swap of its kind from `NONE`) and
    /// fills it in; every thread that calls one ends (`exit`: it stops
    /// where it is, inside a `.func` too, and counts as arrived at later
    /// barriers of its block). `trap` would poison the CUDA context.
    fn lower_program_end(&mut self, kind: u32, args: &[ExprId], span: Span) -> Result<Val, Diagnostic> {
        use accjit_abi::device_end as end;
        let mut regs = vec![];
        for &a in args.iter().take(3) {
            let v = self.lower_expr(a)?;
            let aty = self.ety(a);
            regs.push(self.as_i64(v, &aty, span)?);
        }
        self.uses.ends_program = true;
        let old = self.e.reg(PtxTy::B32);
        let first = self.e.reg(PtxTy::Pred);
        let sym = end::SYMBOL;
        self.e.line(&format!("atom.global.cas.b32 {old}, [{sym}], {}, {kind};", end::NONE));
        self.e.line(&format!("setp.eq.u32 {first}, {old}, {};", end::NONE));
        match kind {
            end::EXIT => {
                let code = regs.first().cloned().unwrap_or_else(|| "0".into());
                let c32 = self.e.reg(PtxTy::B32);
                self.e.line(&format!("cvt.u32.u64 {c32}, {code};"));
                self.e.line(&format!("@{first} st.global.u32 [{sym}+{}], {c32};", end::CODE));
            }
            end::ASSERT => {
                for (r, at) in regs.iter().zip([end::EXPR, end::FILE, end::LINE]) {
                    self.e.line(&format!("@{first} st.global.u64 [{sym}+{at}], {r};"));
                }
            }
            _ => {}
        }
        self.e.line("exit;");
        Ok(Val::Void)
    }

    /// `memcpy`/`memmove`/`memset` as byte loops (memmove copies backwards
    /// when the destination is above the source); they return `dst`.
    fn lower_mem_builtin(&mut self, name: &str, args: &[ExprId], span: Span) -> Result<Val, Diagnostic> {
        let mut regs = vec![];
        for &a in args {
            let v = self.lower_expr(a)?;
            let aty = self.ety(a);
            regs.push(self.as_i64(v, &aty, span)?);
        }
        let (dst, src, n) = (regs[0].clone(), regs[1].clone(), regs[2].clone());
        if name == "memset" {
            let b = self.e.reg(PtxTy::B32);
            self.e.line(&format!("cvt.u32.u64 {b}, {src};"));
            self.each_index_reg(&n, |fx, i| {
                let d = fx.e.reg(PtxTy::B64);
                fx.e.line(&format!("add.s64 {d}, {dst}, {i};"));
                fx.store_scalar(Scalar::U8, &b, &d, 0);
                Ok(())
            })?;
            return Ok(Val::S(dst));
        }
        // Forward, or backward when dst > src (overlap-safe for memmove).
        let back = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.gt.u64 {back}, {dst}, {src};"));
        self.each_index_reg(&n, |fx, i| {
            let j = fx.e.reg(PtxTy::B64);
            fx.e.line(&format!("sub.s64 {j}, {n}, {i};"));
            fx.e.line(&format!("sub.s64 {j}, {j}, 1;"));
            fx.e.line(&format!("selp.b64 {j}, {j}, {i}, {back};"));
            let (s, d) = (fx.e.reg(PtxTy::B64), fx.e.reg(PtxTy::B64));
            fx.e.line(&format!("add.s64 {s}, {src}, {j};"));
            fx.e.line(&format!("add.s64 {d}, {dst}, {j};"));
            let v = fx.load_scalar(Scalar::U8, &s, 0);
            fx.store_scalar(Scalar::U8, &v, &d, 0);
            Ok(())
        })?;
        Ok(Val::S(dst))
    }

    /// `<complex.h>` functions built from the real ones: `creal`, `cimag`,
    /// `conj`, `cabs` (hypot), `carg` (atan2), `cexp` (exp, cos, sin) and
    /// `clog` (log of the modulus, the argument); None for other names.
    fn complex_math(&mut self, name: &str, args: &[ExprId], sig: &FuncSig, span: Span) -> Result<Option<Val>, Diagnostic> {
        let base = name.strip_suffix('f').unwrap_or(name);
        if !matches!(base, "creal" | "cimag" | "conj" | "cabs" | "carg" | "cexp" | "clog") || args.len() != 1 {
            return Ok(None);
        }
        let Some(Type::Complex(s)) = sig.params.first().cloned() else { return Ok(None) };
        let f = if s == Scalar::F32 { "f" } else { "" };
        let ct = Type::Complex(s);
        let rt = Type::Scalar(s);
        let v = self.lower_expr(args[0])?;
        let aty = self.ety(args[0]);
        let v = self.cast(v, &aty, &ct, span)?;
        let (re, im) = self.complex_parts(&v, &ct, span)?;
        let (r2, i2) = (Val::S(re.clone()), Val::S(im.clone()));
        let two = [rt.clone(), rt.clone()];
        let one = [rt.clone()];
        Ok(Some(match base {
            "creal" => Val::S(re),
            "cimag" => Val::S(im),
            "conj" => {
                let n = self.sreg(s);
                self.e.line(&format!("neg.{} {n}, {im};", op_ty(s)));
                Val::C(re, n)
            }
            "cabs" => self.call_math(&format!("hypot{f}"), &[r2, i2], &two, &rt, span)?,
            "carg" => self.call_math(&format!("atan2{f}"), &[i2, r2], &two, &rt, span)?,
            "cexp" => {
                let m = self.call_math(&format!("exp{f}"), &[r2], &one, &rt, span)?.s(span)?;
                let c = self.call_math(&format!("cos{f}"), std::slice::from_ref(&i2), &one, &rt, span)?.s(span)?;
                let sn = self.call_math(&format!("sin{f}"), &[i2], &one, &rt, span)?.s(span)?;
                let (a, b) = (self.sreg(s), self.sreg(s));
                self.e.line(&format!("mul.rn.{} {a}, {m}, {c};", op_ty(s)));
                self.e.line(&format!("mul.rn.{} {b}, {m}, {sn};", op_ty(s)));
                Val::C(a, b)
            }
            _ => {
                // clog
                let m = self.call_math(&format!("hypot{f}"), &[r2.clone(), i2.clone()], &two, &rt, span)?;
                let l = self.call_math(&format!("log{f}"), &[m], &one, &rt, span)?.s(span)?;
                let a = self.call_math(&format!("atan2{f}"), &[i2, r2], &two, &rt, span)?.s(span)?;
                Val::C(l, a)
            }
        }))
    }

    /// `acc_on_device(dev)`: this code runs on the nvidia device.
    fn acc_on_device(&mut self, args: &[ExprId], ret: &Type, span: Span) -> Result<Val, Diagnostic> {
        let a = *args.first().ok_or_else(|| Diagnostic::error(span, "acc_on_device needs an argument"))?;
        let v = self.lower_expr(a)?;
        let aty = self.ety(a);
        let v = self.as_i64(v, &aty, span)?;
        let (p, q) = (self.e.reg(PtxTy::Pred), self.e.reg(PtxTy::Pred));
        self.e.line(&format!("setp.eq.s64 {p}, {v}, {};", accjit_abi::acc_device_not_host));
        self.e.line(&format!("setp.eq.or.s64 {q}, {v}, {}, {p};", accjit_abi::acc_device_nvidia));
        let r = self.sel01(&q);
        let rs = scalar_of(ret).unwrap_or(Scalar::I32);
        Ok(Val::S(self.cast_scalar(&r, Scalar::I32, rs)))
    }

    /// A C math function on converted argument values.
    pub fn call_math(&mut self, name: &str, args: &[Val], tys: &[Type], ret: &Type, span: Span) -> Result<Val, Diagnostic> {
        if let (Some((ins, k)), Some(s)) = (native_math(name), scalar_of(ret)) {
            if args.len() == k && s.is_float() && tys.iter().all(|t| scalar_of(t) == Some(s)) {
                let regs: Vec<String> = args.iter().map(|a| a.s(span)).collect::<Result<_, _>>()?;
                let r = self.sreg(s);
                let t = op_ty(s);
                let line = match ins {
                    "copysign" => format!("copysign.{t} {r}, {}, {};", regs[1], regs[0]),
                    i if i.starts_with("cvt.") => format!("{i}.{t}.{t} {r}, {};", regs[0]),
                    i => format!("{i}.{t} {r}, {};", regs.join(", ")),
                };
                self.e.line(&line);
                return Ok(Val::S(r));
            }
        }
        if let Some(lf) = crate::libm::libm_func(name) {
            self.uses.libm.insert(name.to_string());
            let mut params = vec![];
            for (k, a) in args.iter().enumerate() {
                let reg = a.s(span)?;
                let pty = lf.params.get(k).copied().unwrap_or(PtxTy::F64);
                params.push((pty.name().to_string(), reg));
            }
            let r = self.e.reg(lf.ret);
            let ret_ty = lf.ret.name();
            let mut text = String::from("{\n");
            for (k, (t, reg)) in params.iter().enumerate() {
                text.push_str(&format!("    .param .{t} a{k};\n    st.param.{t} [a{k}], {reg};\n"));
            }
            text.push_str(&format!("    .param .{ret_ty} crv;\n"));
            let names: Vec<String> = (0..params.len()).map(|k| format!("a{k}")).collect();
            text.push_str(&format!("    call (crv), {}{};\n", lf.symbol, arg_list(&names)));
            text.push_str(&format!("    ld.param.{ret_ty} {r}, [crv];\n    }}"));
            self.e.line(&text);
            return Ok(Val::S(r));
        }
        Err(unsupported(span, format!("the math function '{name}' (no device implementation yet)")))
    }

    /// A call of a `.func` compiled from the module.
    pub fn call_func(&mut self, sym: &str, sig: &FuncSig, args: &[ExprId], span: Span) -> Result<Val, Diagnostic> {
        if args.len() != sig.params.len() {
            return Err(Diagnostic::error(span, format!("call with {} arguments to a function taking {}", args.len(), sig.params.len())));
        }
        let mut decls = vec![];
        let mut names = vec![];
        let sret = if matches!(sig.ret, Type::Struct(_) | Type::Desc { .. }) {
            let (size, align) = (self.size_of(&sig.ret), self.align_of(&sig.ret));
            let t = self.temp(size, align);
            decls.push(("b64", t.clone()));
            Some(t)
        } else {
            None
        };
        for (&a, pty) in args.iter().zip(&sig.params) {
            let v = self.lower_expr(a)?;
            let aty = self.ety(a);
            let v = self.cast(v, &aty, pty, span)?;
            let kinds = param_types(pty).map_err(|w| unsupported(span, w))?;
            match (&v, pty) {
                (Val::C(re, im), _) => {
                    decls.push((kinds[0], re.clone()));
                    decls.push((kinds[1], im.clone()));
                }
                (Val::S(r), _) => decls.push((kinds[0], r.clone())),
                (Val::Mem(a), _) => {
                    // The callee copies what it receives by address.
                    decls.push(("b64", a.clone()));
                }
                (Val::Void, _) => {}
            }
        }
        let mut text = String::from("{\n");
        for (k, (t, reg)) in decls.iter().enumerate() {
            text.push_str(&format!("    .param .{t} a{k};\n    st.param.{t} [a{k}], {reg};\n"));
            names.push(format!("a{k}"));
        }
        let out = match &sig.ret {
            Type::Void | Type::Struct(_) | Type::Desc { .. } => Val::Void,
            t => self.val_regs(t),
        };
        let has_ret = !matches!(out, Val::Void);
        match (&out, &sig.ret) {
            (Val::S(r), t) => {
                let b = bits_ty(scalar_of(t).unwrap_or(Scalar::U64));
                text.push_str(&format!("    .param .{b} crv;\n"));
                text.push_str(&format!("    call (crv), {sym}{};\n", arg_list(&names)));
                text.push_str(&format!("    ld.param.{b} {r}, [crv];\n"));
            }
            (Val::C(re, im), Type::Complex(s)) => {
                let b = bits_ty(*s);
                text.push_str(&format!("    .param .align 8 .b8 crv[{}];\n", 2 * s.size()));
                text.push_str(&format!("    call (crv), {sym}{};\n", arg_list(&names)));
                text.push_str(&format!("    ld.param.{b} {re}, [crv];\n    ld.param.{b} {im}, [crv+{}];\n", s.size()));
            }
            _ => text.push_str(&format!("    call {sym}{};\n", arg_list(&names))),
        }
        text.push_str("    }");
        self.e.line(&text);
        if let Some(t) = sret {
            return Ok(Val::Mem(t));
        }
        if has_ret {
            Ok(out)
        } else {
            Ok(Val::Void)
        }
    }
}

/// `, (a0, a1)` or nothing.
fn arg_list(names: &[String]) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!(", ({})", names.join(", "))
    }
}

/// C99 `<math.h>` and `<complex.h>` function names (double, `f` and `l` forms).
fn is_c_math(name: &str) -> bool {
    const MATH: &[&str] = &[
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "atan2",
        "sinh",
        "cosh",
        "tanh",
        "asinh",
        "acosh",
        "atanh",
        "exp",
        "exp2",
        "expm1",
        "log",
        "log2",
        "log10",
        "log1p",
        "logb",
        "pow",
        "cbrt",
        "hypot",
        "erf",
        "erfc",
        "tgamma",
        "lgamma",
        "round",
        "lround",
        "llround",
        "lrint",
        "llrint",
        "fmod",
        "remainder",
        "remquo",
        "ldexp",
        "frexp",
        "modf",
        "scalbn",
        "ilogb",
        "fdim",
        "nextafter",
        "sqrt",
        "fabs",
        "floor",
        "ceil",
        "trunc",
        "rint",
        "nearbyint",
        "fmin",
        "fmax",
        "fma",
        "copysign",
        "cexp",
        "clog",
        "cpow",
        "csqrt",
        "cabs",
        "carg",
        "csin",
        "ccos",
        "ctan",
        "conj",
        "creal",
        "cimag",
        "cproj",
    ];
    let base = name.strip_suffix('f').or_else(|| name.strip_suffix('l')).filter(|b| MATH.contains(b)).unwrap_or(name);
    MATH.contains(&base)
}

/// Whether the math library has a device form of `name`.
fn has_libm(name: &str) -> bool {
    crate::libm::is_libm(name)
}

//! The intrinsic modules: `iso_fortran_env` and `iso_c_binding` (kind
//! constants, standard units), and `openacc`: its kinds and device-type
//! constants (codes from the ABI table) and the runtime API routines
//! mapped onto the C API the runtime exports — integers by value, a data
//! argument (`acc_copyin(a)`, `acc_is_present(a(2:n))`) as its address and
//! byte size (the contiguous hull of a section), logical results from the
//! C `int`.

use super::consts::ConstVal;
use super::cx::{Cx, Sym, R};
use super::expr::Val;
use super::types::FType;
use crate::ast::{self, ArgValue};
use accjit_ir::{build, BinOp, ExprId, ExprKind, FuncSig, Span, Type};
use std::collections::HashMap;

pub(crate) fn is_builtin_module(name: &str) -> bool {
    matches!(name, "openacc" | "iso_c_binding" | "iso_fortran_env" | "openacc_kinds")
}

/// Argument kinds of an API routine.
#[derive(Clone, Copy, PartialEq)]
enum P {
    /// An integer, by value (C int).
    Int,
    /// A variable or array: its address and, unless the next argument is
    /// an explicit byte count, its size.
    Data,
    /// Optional byte count after a `Data`.
    Len,
    /// A character variable receiving the C string the routine returns.
    Str,
}

#[derive(Clone, Copy, PartialEq)]
enum Ret {
    None,
    Int,
    /// A C `size_t`, as integer(8).
    Int8,
    Logical,
}

/// (Fortran name, C name, parameters, result).
const API: &[(&str, &str, &[P], Ret)] = &[
    ("acc_get_num_devices", "acc_get_num_devices", &[P::Int], Ret::Int),
    ("acc_set_device_type", "acc_set_device_type", &[P::Int], Ret::None),
    ("acc_get_device_type", "acc_get_device_type", &[], Ret::Int),
    ("acc_set_device_num", "acc_set_device_num", &[P::Int, P::Int], Ret::None),
    ("acc_get_device_num", "acc_get_device_num", &[P::Int], Ret::Int),
    ("acc_init", "acc_init", &[P::Int], Ret::None),
    ("acc_shutdown", "acc_shutdown", &[P::Int], Ret::None),
    ("acc_async_test", "acc_async_test", &[P::Int], Ret::Logical),
    ("acc_async_test_all", "acc_async_test_all", &[], Ret::Logical),
    ("acc_wait", "acc_wait", &[P::Int], Ret::None),
    ("acc_async_wait", "acc_wait", &[P::Int], Ret::None),
    ("acc_wait_async", "acc_wait_async", &[P::Int, P::Int], Ret::None),
    ("acc_wait_all", "acc_wait_all", &[], Ret::None),
    ("acc_async_wait_all", "acc_wait_all", &[], Ret::None),
    ("acc_wait_all_async", "acc_wait_all_async", &[P::Int], Ret::None),
    ("acc_get_default_async", "acc_get_default_async", &[], Ret::Int),
    ("acc_set_default_async", "acc_set_default_async", &[P::Int], Ret::None),
    ("acc_on_device", "acc_on_device", &[P::Int], Ret::Logical),
    ("acc_copyin", "acc_copyin", &[P::Data, P::Len], Ret::None),
    ("acc_present_or_copyin", "acc_copyin", &[P::Data, P::Len], Ret::None),
    ("acc_pcopyin", "acc_copyin", &[P::Data, P::Len], Ret::None),
    ("acc_copyin_async", "acc_copyin_async", &[P::Data, P::Len, P::Int], Ret::None),
    ("acc_create", "acc_create", &[P::Data, P::Len], Ret::None),
    ("acc_present_or_create", "acc_create", &[P::Data, P::Len], Ret::None),
    ("acc_pcreate", "acc_create", &[P::Data, P::Len], Ret::None),
    ("acc_create_async", "acc_create_async", &[P::Data, P::Len, P::Int], Ret::None),
    ("acc_copyout", "acc_copyout", &[P::Data, P::Len], Ret::None),
    ("acc_copyout_async", "acc_copyout_async", &[P::Data, P::Len, P::Int], Ret::None),
    ("acc_copyout_finalize", "acc_copyout_finalize", &[P::Data, P::Len], Ret::None),
    ("acc_delete", "acc_delete", &[P::Data, P::Len], Ret::None),
    ("acc_delete_async", "acc_delete_async", &[P::Data, P::Len, P::Int], Ret::None),
    ("acc_delete_finalize", "acc_delete_finalize", &[P::Data, P::Len], Ret::None),
    ("acc_update_device", "acc_update_device", &[P::Data, P::Len], Ret::None),
    ("acc_update_device_async", "acc_update_device_async", &[P::Data, P::Len, P::Int], Ret::None),
    ("acc_update_self", "acc_update_self", &[P::Data, P::Len], Ret::None),
    ("acc_update_self_async", "acc_update_self_async", &[P::Data, P::Len, P::Int], Ret::None),
    ("acc_is_present", "acc_is_present", &[P::Data, P::Len], Ret::Logical),
    ("acc_get_property", "acc_get_property", &[P::Int, P::Int, P::Int], Ret::Int8),
    ("acc_get_property_string", "acc_get_property_string", &[P::Int, P::Int, P::Int, P::Str], Ret::None),
];

fn api(name: &str) -> Option<&'static (&'static str, &'static str, &'static [P], Ret)> {
    API.iter().find(|a| a.0 == name)
}

/// An OpenACC API routine called without `use openacc`.
pub(crate) fn openacc_routine(name: &str) -> Option<&'static str> {
    api(name).map(|a| a.0)
}

/// The public names of an intrinsic module.
pub(crate) fn module_syms(name: &str) -> Option<HashMap<String, Sym>> {
    let mut m = HashMap::new();
    let int = |v: i64| Sym::Const(ConstVal::Int(v), FType::INT);
    match name {
        "iso_fortran_env" => {
            for (n, v) in [
                ("real32", 4),
                ("real64", 8),
                ("real128", -1),
                ("int8", 1),
                ("int16", 2),
                ("int32", 4),
                ("int64", 8),
                ("output_unit", 6),
                ("error_unit", 0),
                ("input_unit", 5),
                ("iostat_end", -1),
                ("character_storage_size", 8),
                ("numeric_storage_size", 32),
            ] {
                m.insert(n.to_string(), int(v));
            }
        }
        "iso_c_binding" => {
            for (n, v) in [
                ("c_int", 4),
                ("c_short", 2),
                ("c_long", 8),
                ("c_long_long", 8),
                ("c_signed_char", 1),
                ("c_size_t", 8),
                ("c_int8_t", 1),
                ("c_int16_t", 2),
                ("c_int32_t", 4),
                ("c_int64_t", 8),
                ("c_intptr_t", 8),
                ("c_float", 4),
                ("c_double", 8),
                ("c_long_double", 8),
                ("c_float_complex", 4),
                ("c_double_complex", 8),
                ("c_bool", 1),
                ("c_char", 1),
            ] {
                m.insert(n.to_string(), int(v));
            }
        }
        "openacc" | "openacc_kinds" => {
            m.insert("acc_device_kind".into(), int(4));
            m.insert("acc_handle_kind".into(), int(4));
            m.insert("acc_device_property_kind".into(), int(4));
            m.insert("openacc_version".into(), int(201711));
            for (n, v) in [
                ("acc_property_memory", 1),
                ("acc_property_free_memory", 2),
                ("acc_property_shared_memory_support", 3),
                ("acc_property_name", 0x10000),
                ("acc_property_vendor", 0x10001),
                ("acc_property_driver", 0x10002),
            ] {
                m.insert(n.to_string(), int(v));
            }
            m.insert("acc_async_noval".into(), int(-1));
            m.insert("acc_async_sync".into(), int(-2));
            m.insert("acc_async_default".into(), int(-3));
            for (n, c) in accjit_abi::DEVICE_TYPES {
                m.insert(format!("acc_device_{n}"), int(c as i64));
            }
            if name == "openacc" {
                for a in API {
                    m.insert(a.0.to_string(), Sym::Builtin(a.0.to_string()));
                }
            }
        }
        _ => return None,
    }
    Some(m)
}

/// A built-in name used as a value without arguments.
pub(crate) fn builtin_value(cx: &mut Cx, name: &str, sp: Span) -> R<Val> {
    builtin_call(cx, name, &[], sp)
}

/// A call of an API routine: the IR call and the result kind.
fn api_call(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<(ExprId, Ret)> {
    let Some(&(fname, cname, params, ret)) = api(name) else {
        return Err(cx.err(sp, format!("`{name}` is not an OpenACC routine accjit knows")));
    };
    let mut ir_args = vec![];
    let mut ptypes = vec![];
    let given: Vec<&ast::Expr> = args
        .iter()
        .map(|a| match &a.value {
            ArgValue::Expr(x) => Ok(x),
            _ => Err(cx.err(a.span, format!("`{fname}` takes values"))),
        })
        .collect::<R<_>>()?;
    let n_data_len = params.iter().filter(|p| **p != P::Len && **p != P::Str).count() + params.iter().filter(|p| **p == P::Str).count();
    let mut str_out: Option<&ast::Expr> = None;
    let with_len = params.contains(&P::Len) && given.len() > n_data_len;
    if given.len() < n_data_len || given.len() > params.len() {
        return Err(cx.err(sp, format!("`{fname}` takes {} argument(s), {} given", n_data_len, given.len())));
    }
    let mut gi = 0;
    for p in params {
        match p {
            P::Int => {
                let v = cx.value(given[gi])?;
                if !v.ty.is_int() {
                    return Err(cx.err(given[gi].span, format!("`{fname}` needs an integer here")));
                }
                ir_args.push(cx.cast(v.e, Type::I32, sp));
                ptypes.push(Type::I32);
                gi += 1;
            }
            P::Data => {
                let x = given[gi];
                gi += 1;
                let (addr, bytes) = data_arg(cx, x)?;
                ir_args.push(addr);
                ptypes.push(Type::ptr(Type::Void));
                if !with_len {
                    ir_args.push(bytes);
                    ptypes.push(Type::U64);
                }
            }
            P::Str => {
                str_out = Some(given[gi]);
                gi += 1;
            }
            P::Len => {
                if with_len {
                    let v = cx.int_i64(given[gi])?;
                    ir_args.push(cx.cast(v, Type::U64, sp));
                    ptypes.push(Type::U64);
                    gi += 1;
                }
            }
        }
    }
    let cret = match ret {
        Ret::None if str_out.is_some() => Type::ptr(Type::Scalar(accjit_ir::Scalar::I8)),
        Ret::None => Type::Void,
        Ret::Int8 => Type::U64,
        _ => Type::I32,
    };
    let id = cx.sh.extern_fn(cname, FuncSig { params: ptypes, ret: cret.clone(), variadic: false });
    // acc_copyin/acc_create return the device pointer in C; Fortran's are subroutines.
    let cret = if matches!(cname, "acc_copyin" | "acc_create") { cx.sh.m.externs[id.index()].sig.ret.clone() } else { cret };
    let e = cx.mk(ExprKind::Call(accjit_ir::Callee::Extern(id), ir_args), cret, sp);
    if let Some(out) = str_out {
        // Copy the returned C string (null: empty) into the character variable, blank-padded.
        let s = cx.temp("pstr", e, sp);
        let (dst, n) = cx.char_val(out)?;
        let dst = cx.settle(dst, sp);
        let n = cx.settle(n, sp);
        let d2 = cx.clone_expr(dst);
        let vp = Type::ptr(Type::Void);
        let d2 = cx.cast(d2, vp.clone(), sp);
        let blank = cx.int(32, Type::I32, sp);
        let n2 = cx.clone_expr(n);
        let n2 = cx.cast(n2, Type::U64, sp);
        let fill = cx.libc_call("memset", vec![d2, blank, n2], vp.clone(), sp);
        cx.emit_expr(fill, sp);
        let sv = build::load_local(&mut cx.f, s, sp);
        let null = cx.int(0, cx.ty(sv), sp);
        let nonnull = build::cmp(&mut cx.f, BinOp::Ne, sv, null, sp);
        let copy = cx.collect(|cx| {
            let sv = build::load_local(&mut cx.f, s, sp);
            let len = cx.libc_call("strlen", vec![sv], Type::U64, sp);
            let len = cx.cast(len, Type::I64, sp);
            let n3 = cx.clone_expr(n);
            let lt = build::cmp(&mut cx.f, BinOp::Lt, len, n3, sp);
            let sv2 = build::load_local(&mut cx.f, s, sp);
            let len2 = cx.libc_call("strlen", vec![sv2], Type::U64, sp);
            let len2 = cx.cast(len2, Type::I64, sp);
            let n4 = cx.clone_expr(n);
            let m = cx.mk(ExprKind::Cond(lt, len2, n4), Type::I64, sp);
            let d3 = cx.clone_expr(dst);
            let sv3 = build::load_local(&mut cx.f, s, sp);
            cx.memcpy(d3, sv3, m, sp);
            Ok(())
        })?;
        cx.emit(accjit_ir::StmtKind::If(nonnull, copy, accjit_ir::Block::default()), sp);
        let z = cx.int(0, Type::I32, sp);
        return Ok((z, ret));
    }
    Ok((e, ret))
}

/// The address and byte size of a data argument (a variable, an element,
/// an array or a section: its contiguous hull).
fn data_arg(cx: &mut Cx, x: &ast::Expr) -> R<(ExprId, ExprId)> {
    let sp = x.span;
    let vp = Type::ptr(Type::Void);
    if cx.rank_of(x) > 0 {
        let v = cx.view_of(x)?.ok_or_else(|| cx.err(sp, "an array variable or section is needed"))?;
        let esz = cx.i64c(v.ty.ir_size() as i64, sp);
        let n = match v.hull {
            Some((first, end)) => cx.bin(BinOp::Sub, end, first, Type::I64, sp),
            None => {
                let mut n = cx.i64c(1, sp);
                for e in &v.exts {
                    n = cx.bin(BinOp::Mul, n, *e, Type::I64, sp);
                }
                n
            }
        };
        let bytes = cx.bin(BinOp::Mul, n, esz, Type::I64, sp);
        let addr = cx.cast(v.base, vp, sp);
        let bytes = cx.cast(bytes, Type::U64, sp);
        return Ok((addr, bytes));
    }
    if let ast::ExprKind::Name(n) = &x.kind {
        if let Some(Sym::Array(_)) = cx.lookup(&n.text) {
            return Err(cx.err(sp, "internal: array without rank"));
        }
    }
    let (p, t) = cx.place_of(x)?;
    let a = build::addr_of(&mut cx.f, p, sp);
    let addr = cx.cast(a, vp, sp);
    let bytes = cx.int(t.ir_size() as i64, Type::U64, sp);
    Ok((addr, bytes))
}

/// A function reference to an API routine.
pub(crate) fn builtin_call(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<Val> {
    let (e, ret) = api_call(cx, name, args, sp)?;
    match ret {
        Ret::None => Err(cx.err(sp, format!("`{name}` is a subroutine; use `call {name}(...)`"))),
        Ret::Int => Ok(Val { e, ty: FType::INT }),
        Ret::Int8 => {
            let e = cx.cast(e, Type::I64, sp);
            Ok(Val { e, ty: FType::Int(8) })
        }
        Ret::Logical => {
            let z = cx.int(0, Type::I32, sp);
            let e = build::cmp(&mut cx.f, BinOp::Ne, e, z, sp);
            Ok(Val { e, ty: FType::LOGICAL })
        }
    }
}

/// `call acc_...(...)`.
pub(crate) fn builtin_call_stmt(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<()> {
    let (e, _) = api_call(cx, name, args, sp)?;
    cx.emit_expr(e, sp);
    Ok(())
}

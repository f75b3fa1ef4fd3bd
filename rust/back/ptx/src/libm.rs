//! C math functions as PTX `.func`s, for kernels and routines that call
//! `sin`, `powf`, `fmod`… (there is no libdevice: the algorithms are written
//! here). [`libm_func`] gives the complete `.func` text for a C name.
//!
//! Each function is written once in a small register machine ([`dsl`]) whose
//! instructions are exactly-rounded PTX instructions; the same program is
//! printed as PTX and, in the tests, interpreted bit for bit on the host and
//! compared with the system libm (glibc) in ULP. The algorithms and their
//! coefficients are those of fdlibm/FreeBSD msun as carried by musl and the
//! Rust `libm` crate (Sun Microsystems copyright notices, freely
//! distributable), adapted to straight-line code where the branches only
//! picked special cases (also `cbrt` from CORE-MATH and musl's Lanczos
//! `tgamma`, both as in that crate). Float functions evaluate the double algorithm on the
//! widened argument and round once, except the exact ones (`fabsf`, `sqrtf`,
//! `fmaf`, rounding, `fminf`…) which use the f32 instruction. Accuracy per
//! function is in docs/nvidia.md, section "Math functions".

// The algorithm files keep fdlibm's coefficients digit for digit (comparable
// with the source), and their expressions emit code: `(x * y) / (x * y)` is a NaN maker, not a no-op.
#[allow(clippy::excessive_precision, clippy::approx_constant, clippy::eq_op)]
mod basic;
#[allow(clippy::excessive_precision, clippy::approx_constant, clippy::eq_op)]
mod bessel;
mod dsl;
#[cfg(test)]
mod eval;
#[allow(clippy::excessive_precision, clippy::approx_constant, clippy::eq_op)]
mod explog;
#[allow(clippy::excessive_precision, clippy::approx_constant, clippy::eq_op)]
mod pow;
#[allow(clippy::excessive_precision, clippy::approx_constant, clippy::eq_op)]
mod special;
#[allow(clippy::excessive_precision, clippy::approx_constant, clippy::eq_op)]
mod trig;

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use crate::ty::PtxTy;
use dsl::{func, Prog, Ty, V};

/// One C math function as PTX: `call (ret), symbol, (params...)`. Pointer
/// parameters (frexp's `int *`, modf's, remquo's, nan's tag) are `.u64`
/// generic addresses.
#[derive(Clone, Debug)]
pub struct LibmFunc {
    /// The `.func` name, `__accjit_<c name>`.
    pub symbol: String,
    pub params: Vec<PtxTy>,
    pub ret: PtxTy,
    /// A complete `.func` definition (module scope).
    pub body: String,
}

/// The PTX function for the C math function `c_name` (`"sin"`, `"sinf"`, `"pow"`, …), None when there is none.
/// Built once per process and name (the code generator asks per call site).
pub fn libm_func(c_name: &str) -> Option<LibmFunc> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<LibmFunc>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(f) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(c_name) {
        return f.clone();
    }
    let f = build(c_name).map(|prog| {
        let symbol = format!("__accjit_{c_name}");
        LibmFunc { body: prog.ptx(&symbol), symbol, params: prog.params.iter().map(|t| t.ptx()).collect(), ret: prog.ret.ptx() }
    });
    cache.lock().unwrap_or_else(|e| e.into_inner()).insert(c_name.to_string(), f.clone());
    f
}

/// Whether [`libm_func`] has a function for `c_name` (cheap: no PTX is built).
pub fn is_libm(c_name: &str) -> bool {
    FUNCS.iter().any(|(n, _)| *n == c_name || c_name.strip_suffix('f') == Some(n))
}

/// Every C name [`libm_func`] knows, double and float forms.
pub fn libm_names() -> Vec<String> {
    let mut names = Vec::new();
    for (name, _) in FUNCS {
        names.push(name.to_string());
        names.push(format!("{name}f"));
    }
    names
}

/// A builder for the double (`Ty::F64`) or float (`Ty::F32`) form.
type Builder = fn(Ty) -> Prog;

/// The double names and their builders; `<name>f` is the float form.
const FUNCS: &[(&str, Builder)] = &[
    ("fabs", basic::fabs),
    ("copysign", basic::copysign),
    ("floor", basic::floor),
    ("ceil", basic::ceil),
    ("trunc", basic::trunc),
    ("round", basic::round),
    ("rint", basic::rint),
    ("nearbyint", basic::rint),
    ("lround", basic::lround),
    ("llround", basic::lround),
    ("lrint", basic::lrint),
    ("llrint", basic::lrint),
    ("fmin", basic::fmin),
    ("fmax", basic::fmax),
    ("fdim", basic::fdim),
    ("fma", basic::fma),
    ("sqrt", basic::sqrt),
    ("ldexp", basic::ldexp),
    ("scalbn", basic::ldexp),
    ("scalbln", basic::scalbln),
    ("frexp", basic::frexp),
    ("modf", basic::modf),
    ("ilogb", basic::ilogb),
    ("logb", basic::logb),
    ("nextafter", basic::nextafter),
    ("fmod", basic::fmod),
    ("remainder", basic::remainder),
    ("remquo", basic::remquo),
    ("nan", basic::nan),
    ("j0", bessel::j0),
    ("j1", bessel::j1),
    ("y0", bessel::y0),
    ("y1", bessel::y1),
    ("jn", bessel::jn),
    ("yn", bessel::yn),
    ("exp", explog::exp),
    ("pow", pow::pow),
    ("cbrt", special::cbrt),
    ("hypot", special::hypot),
    ("erf", special::erf),
    ("erfc", special::erfc),
    ("tgamma", special::tgamma),
    ("lgamma", special::lgamma),
    ("exp2", explog::exp2),
    ("log", explog::log),
    ("log2", explog::log2),
    ("log10", explog::log10),
    ("log1p", explog::log1p),
    ("expm1", explog::expm1),
    ("sinh", explog::sinh),
    ("cosh", explog::cosh),
    ("tanh", explog::tanh),
    ("asinh", explog::asinh),
    ("acosh", explog::acosh),
    ("atanh", explog::atanh),
    ("sin", trig::sin),
    ("cos", trig::cos),
    ("tan", trig::tan),
    ("atan", trig::atan),
    ("asin", trig::asin),
    ("acos", trig::acos),
    ("atan2", trig::atan2),
];

fn build(c_name: &str) -> Option<Prog> {
    if let Some((_, b)) = FUNCS.iter().find(|(n, _)| *n == c_name) {
        return Some(b(Ty::F64));
    }
    let base = c_name.strip_suffix('f')?;
    FUNCS.iter().find(|(n, _)| *n == base).map(|(_, b)| b(Ty::F32))
}

/// `t f(t)` evaluated in double: the float form widens, runs `core` and rounds once.
fn unary(t: Ty, core: fn(V)) -> Prog {
    func(&[t], t, |a| {
        let x = a[0].to(Ty::F64);
        let r = dsl::sub(Ty::F64, || core(x));
        dsl::ret(r.to(t));
    })
}

/// `t f(t, t)` evaluated in double.
fn binary(t: Ty, core: fn(V, V)) -> Prog {
    func(&[t, t], t, |a| {
        let (x, y) = (a[0].to(Ty::F64), a[1].to(Ty::F64));
        let r = dsl::sub(Ty::F64, || core(x, y));
        dsl::ret(r.to(t));
    })
}

/// A PTX module with every function of `names` and one kernel per function,
/// `libm_<name>(.u64 out, .u64 in0, .u64 in1, .u64 in2, .u64 n)`: thread i < n
/// calls the function on `in0[i], in1[i], …` (elements of the parameter's
/// size; a pointer parameter gets `&inK[i]`, elements 8 bytes apart) and
/// stores the result to `out[i]`. Used by the ptxas test and generated into
/// scripts/gpu/libm_funcs.ptx for the GPU accuracy script.
pub fn test_module(names: &[&str]) -> String {
    let mut s = String::from(".version 7.8\n.target sm_80\n.address_size 64\n\n");
    for name in names {
        let Some(f) = libm_func(name) else { continue };
        s.push_str(&f.body);
        s.push('\n');
        let reg = |t: PtxTy| match t.reg_class() {
            PtxTy::F32 => "%f",
            PtxTy::F64 => "%fd",
            PtxTy::B32 => "%r",
            _ => "%rd",
        };
        let mut k = format!(
            ".visible .entry libm_{name}(.param .u64 out, .param .u64 in0, .param .u64 in1, .param .u64 in2, .param .u64 n)\n{{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<8>;\n"
        );
        k.push_str("\tmov.u32 %r0, %ctaid.x;\n\tmov.u32 %r1, %ntid.x;\n\tmov.u32 %r2, %tid.x;\n\tmad.wide.u32 %rd0, %r0, %r1, 0;\n\tcvt.u64.u32 %rd1, %r2;\n\tadd.u64 %rd0, %rd0, %rd1;\n");
        k.push_str("\tld.param.u64 %rd1, [n];\n\tsetp.ge.u64 %p0, %rd0, %rd1;\n\t@%p0 bra $Ldone;\n");
        let mut args = Vec::new();
        for (j, &t) in f.params.iter().enumerate() {
            let size = if t == PtxTy::U64 { 8 } else { t.bytes() };
            let _ = writeln!(k, "\tld.param.u64 %rd2, [in{j}];\n\tmad.lo.u64 %rd{}, %rd0, {size}, %rd2;", 3 + j);
            let r = format!("{}{}", reg(t), 3 + j);
            if t != PtxTy::U64 {
                let _ = writeln!(k, "\tld.global.{} {r}, [%rd{}];", t.name(), 3 + j);
            } else {
                // Generic address of the element, for the function's store.
                let _ = writeln!(k, "\tcvta.global.u64 {r}, %rd{};", 3 + j);
            }
            args.push((t, r));
        }
        k.push_str("\t{\n");
        for (j, (t, _)) in args.iter().enumerate() {
            let _ = writeln!(k, "\t.param .{} arg{j};", t.name());
        }
        let _ = writeln!(k, "\t.param .{} retv;", f.ret.name());
        for (j, (t, r)) in args.iter().enumerate() {
            let _ = writeln!(k, "\tst.param.{} [arg{j}], {r};", t.name());
        }
        let arg_list: Vec<String> = (0..args.len()).map(|j| format!("arg{j}")).collect();
        let rr = format!("{}7", reg(f.ret));
        let _ = writeln!(k, "\tcall.uni (retv), {}, ({});\n\tld.param.{} {rr}, [retv];\n\t}}", f.symbol, arg_list.join(", "), f.ret.name());
        let _ = write!(
            k,
            "\tld.param.u64 %rd2, [out];\n\tmad.lo.u64 %rd2, %rd0, {}, %rd2;\n\tst.global.{} [%rd2], {rr};\n$Ldone:\n\tret;\n}}\n\n",
            f.ret.bytes(),
            f.ret.name()
        );
        s.push_str(&k);
    }
    s
}

/// ptxas for the tests and tools that assemble PTX: `$ACCJIT_PTXAS`, then
/// `ptxas` on PATH, then pip's nvidia-cuda-nvcc-cu12 in the active or the
/// repository's virtual environment, then /opt/nvcc (this project's VMs).
pub fn find_ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ACCJIT_PTXAS") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    if let Some(path) = std::env::var_os("PATH") {
        if let Some(p) = std::env::split_paths(&path).map(|d| d.join("ptxas")).find(|p| p.is_file()) {
            return Some(p);
        }
    }
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let venvs = std::env::var_os("VIRTUAL_ENV").map(PathBuf::from).into_iter().chain([repo.join(".venv")]);
    for venv in venvs {
        let Ok(libs) = std::fs::read_dir(venv.join("lib")) else { continue };
        for lib in libs.flatten() {
            let p = lib.path().join("site-packages/nvidia/cuda_nvcc/bin/ptxas");
            if p.is_file() {
                return Some(p);
            }
        }
    }
    Some(PathBuf::from("/opt/nvcc/nvidia/cuda_nvcc/bin/ptxas")).filter(|p| p.is_file())
}

/// Assembles a PTX module with ptxas for sm_80 (a test/tool helper): Ok(false)
/// when no ptxas is found, Err(ptxas messages) when it rejects the module.
pub fn ptxas_check(ptx: &str) -> Result<bool, String> {
    let Some(ptxas) = find_ptxas() else { return Ok(false) };
    let dir = std::env::temp_dir().join(format!("accjit-ptxas-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let src = dir.join("m.ptx");
    std::fs::write(&src, ptx).map_err(|e| e.to_string())?;
    let out = std::process::Command::new(ptxas).arg("-arch=sm_80").arg(&src).arg("-o").arg(dir.join("m.cubin")).output().map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Ok(true)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[cfg(test)]
mod tests;

//! C spellings of IR types and parameter facts the IR does not carry (whether
//! a pointer parameter points to `const`), recovered from the source text.
//!
//! Python callers need both: error messages and `__doc__` show the C
//! signature as the user wrote it (`const float *x`), and a writeable array is
//! required only where the pointee is not `const`.

use accjit_ir::{Function, Scalar, SourceMap, StructDef, Type};

/// The C spelling of a scalar type (LP64: `long` is 64-bit).
pub fn scalar_name(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "_Bool",
        Scalar::I8 => "char",
        Scalar::U8 => "unsigned char",
        Scalar::I16 => "short",
        Scalar::U16 => "unsigned short",
        Scalar::I32 => "int",
        Scalar::U32 => "unsigned int",
        Scalar::I64 => "long",
        Scalar::U64 => "unsigned long",
        Scalar::F32 => "float",
        Scalar::F64 => "double",
    }
}

/// The C spelling of `ty` as an abstract declarator (`float *`, `double _Complex`).
pub fn type_name(ty: &Type, structs: &[StructDef]) -> String {
    match ty {
        Type::Void => "void".into(),
        Type::Scalar(s) => scalar_name(*s).into(),
        Type::Complex(s) => format!("{} _Complex", scalar_name(*s)),
        Type::Ptr(t) => match &**t {
            Type::Func(sig) => {
                let ps: Vec<String> = sig.params.iter().map(|p| type_name(p, structs)).collect();
                format!("{} (*)({})", type_name(&sig.ret, structs), ps.join(", "))
            }
            inner => {
                let s = type_name(inner, structs);
                if s.ends_with('*') { format!("{s}*") } else { format!("{s} *") }
            }
        },
        Type::Array(t, n) => match n {
            Some(n) => format!("{}[{n}]", type_name(t, structs)),
            None => format!("{}[]", type_name(t, structs)),
        },
        Type::Struct(id) => match structs.get(id.0 as usize) {
            Some(d) if d.is_union => format!("union {}", d.name),
            Some(d) => format!("struct {}", d.name),
            None => "struct ?".into(),
        },
        Type::Func(sig) => {
            let ps: Vec<String> = sig.params.iter().map(|p| type_name(p, structs)).collect();
            format!("{} ({})", type_name(&sig.ret, structs), ps.join(", "))
        }
        Type::Desc { elem, rank } => format!("{}[{}]", type_name(elem, structs), vec![":"; *rank as usize].join(",")),
    }
}

/// One parameter of an exported function, as Python sees it.
#[derive(Clone, Debug)]
pub struct ParamInfo {
    pub name: String,
    pub ty: Type,
    /// C spelling of the type, with `const` where the source has it on the pointee.
    pub ctype: String,
    /// For pointer parameters: whether the pointee is `const` in the source.
    /// `None` when the source text could not tell (no span).
    pub const_pointee: Option<bool>,
}

impl ParamInfo {
    /// `const float *x`
    pub fn declaration(&self) -> String {
        if self.ctype.ends_with('*') { format!("{}{}", self.ctype, self.name) } else { format!("{} {}", self.ctype, self.name) }
    }
}

/// The parameters of `f` with names, C types and const-ness.
pub fn params_of(f: &Function, sm: &SourceMap, structs: &[StructDef]) -> Vec<ParamInfo> {
    let n = f.sig.params.len();
    let mut out = Vec::with_capacity(n);
    let mut prev_hi: Option<u32> = None;
    for (i, ty) in f.sig.params.iter().enumerate() {
        let local = f.locals.get(i);
        let name = match local {
            Some(l) if !l.name.is_empty() => l.name.clone(),
            _ => format!("arg{i}"),
        };
        let const_pointee = if ty.is_ptr() || matches!(ty, Type::Array(..)) {
            local.and_then(|l| pointee_is_const(sm, f, l.span, prev_hi))
        } else {
            None
        };
        if let Some(l) = local {
            if !l.span.is_dummy() && l.span.file == f.span.file {
                prev_hi = Some(l.span.hi);
            }
        }
        let mut ctype = type_name(ty, structs);
        if const_pointee == Some(true) {
            ctype = format!("const {ctype}");
        }
        out.push(ParamInfo { name, ty: ty.clone(), ctype, const_pointee });
    }
    out
}

/// Reads the parameter's declaration text between the previous separator
/// (`(` or `,`) and the end of the parameter's span, and says whether `const`
/// qualifies what the (outermost) pointer points to: `const` before the last
/// `*` (or anywhere, for `const T x[]`).
fn pointee_is_const(sm: &SourceMap, f: &Function, span: accjit_ir::Span, prev_hi: Option<u32>) -> Option<bool> {
    if span.is_dummy() || f.span.is_dummy() || span.file != f.span.file {
        return None;
    }
    let text = &sm.file(span.file)?.text;
    let start = prev_hi.unwrap_or(f.span.lo) as usize;
    let end = span.hi as usize;
    if start > end || end > text.len() {
        return None;
    }
    let slice = text.get(start..end)?;
    let from = slice.rfind(['(', ',']).map(|p| p + 1).unwrap_or(0);
    let decl = &slice[from..];
    let head = match decl.rfind('*') {
        Some(s) => &decl[..s],
        None => decl.split('[').next().unwrap_or(decl),
    };
    Some(head.split(|c: char| !(c.is_alphanumeric() || c == '_')).any(|w| w == "const"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use accjit_ir::{FuncSig, Linkage, Span};

    fn func_with(text: &str, params: &[(&str, Type)]) -> (SourceMap, Function) {
        let mut sm = SourceMap::new();
        let file = sm.add("t.c", text);
        let sig = FuncSig { params: params.iter().map(|p| p.1.clone()).collect(), ret: Type::Void, variadic: false };
        let mut f = Function::new("f", sig, Linkage::Export, Span::new(file, 0, text.len() as u32));
        for (name, ty) in params {
            // the span of the parameter's name, as a front end would give it
            let mut pos = 0;
            let lo = loop {
                let p = text[pos..].find(name).unwrap() + pos;
                let before_ok = p == 0 || !text.as_bytes()[p - 1].is_ascii_alphanumeric();
                let after_ok = text.as_bytes().get(p + name.len()).is_none_or(|c| !c.is_ascii_alphanumeric() && *c != b'_');
                if before_ok && after_ok && p > text.find('(').unwrap() {
                    break p;
                }
                pos = p + 1;
            };
            f.add_local(*name, ty.clone(), Span::new(file, lo as u32, (lo + name.len()) as u32));
        }
        (sm, f)
    }

    #[test]
    fn type_names() {
        assert_eq!(type_name(&Type::ptr(Type::F32), &[]), "float *");
        assert_eq!(type_name(&Type::ptr(Type::ptr(Type::F64)), &[]), "double **");
        assert_eq!(type_name(&Type::Scalar(Scalar::U8), &[]), "unsigned char");
        assert_eq!(type_name(&Type::Complex(Scalar::F64), &[]), "double _Complex");
    }

    #[test]
    fn const_pointees_from_source() {
        let fp = Type::ptr(Type::F32);
        let (sm, f) = func_with(
            "void saxpy(int n, float a, const float *x, float *y, float * const z, float const *w, const float v[])",
            &[("n", Type::I32), ("a", Type::F32), ("x", fp.clone()), ("y", fp.clone()), ("z", fp.clone()), ("w", fp.clone()), ("v", fp.clone())],
        );
        let ps = params_of(&f, &sm, &[]);
        let c: Vec<Option<bool>> = ps.iter().map(|p| p.const_pointee).collect();
        assert_eq!(c, vec![None, None, Some(true), Some(false), Some(false), Some(true), Some(true)]);
        assert_eq!(ps[2].declaration(), "const float *x");
        assert_eq!(ps[3].declaration(), "float *y");
        assert_eq!(ps[0].declaration(), "int n");
    }

    #[test]
    fn dummy_spans_give_unknown() {
        let sig = FuncSig { params: vec![Type::ptr(Type::F64)], ret: Type::Void, variadic: false };
        let mut f = Function::new("g", sig, Linkage::Export, Span::DUMMY);
        f.add_local("p", Type::ptr(Type::F64), Span::DUMMY);
        let ps = params_of(&f, &SourceMap::new(), &[]);
        assert_eq!(ps[0].const_pointee, None);
        assert_eq!(ps[0].name, "p");
    }
}

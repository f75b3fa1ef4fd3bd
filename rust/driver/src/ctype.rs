//! C spellings of IR types and the parameter facts Python callers need
//! (names, whether a pointer parameter points to `const`).
//!
//! Python callers need both: error messages and `__doc__` show the C
//! signature as the user wrote it (`const float *x`), and a writeable array is
//! required only where the pointee is not `const`.

use accjit_ir::{Function, Scalar, StructDef, Type};

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
                if s.ends_with('*') {
                    format!("{s}*")
                } else {
                    format!("{s} *")
                }
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
#[derive(Clone, Debug, PartialEq)]
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
        if self.ctype.ends_with('*') {
            format!("{}{}", self.ctype, self.name)
        } else {
            format!("{} {}", self.ctype, self.name)
        }
    }
}

/// The parameters of `f` with names, C types and const-ness (from the
/// front end's `Function::param_const_pointee`).
pub fn params_of(f: &Function, structs: &[StructDef]) -> Vec<ParamInfo> {
    f.sig
        .params
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            let name = match f.locals.get(i) {
                Some(l) if !l.name.is_empty() => l.name.clone(),
                _ => format!("arg{i}"),
            };
            let const_pointee = if ty.is_ptr() || matches!(ty, Type::Array(..)) { f.param_const_pointee.get(i).copied() } else { None };
            let mut ctype = type_name(ty, structs);
            if const_pointee == Some(true) {
                ctype = format!("const {ctype}");
            }
            ParamInfo { name, ty: ty.clone(), ctype, const_pointee }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use accjit_ir::{FuncSig, Linkage, Span};

    #[test]
    fn type_names() {
        assert_eq!(type_name(&Type::ptr(Type::F32), &[]), "float *");
        assert_eq!(type_name(&Type::ptr(Type::ptr(Type::F64)), &[]), "double **");
        assert_eq!(type_name(&Type::Scalar(Scalar::U8), &[]), "unsigned char");
        assert_eq!(type_name(&Type::Complex(Scalar::F64), &[]), "double _Complex");
    }

    #[test]
    fn const_pointees_from_the_ir() {
        let fp = Type::ptr(Type::F32);
        let sig = FuncSig { params: vec![Type::I32, fp.clone(), fp.clone()], ret: Type::Void, variadic: false };
        let mut f = Function::new("saxpy", sig, Linkage::Export, Span::DUMMY);
        for (n, t) in [("n", Type::I32), ("x", fp.clone()), ("y", fp.clone())] {
            f.add_local(n, t, Span::DUMMY);
        }
        f.param_const_pointee = vec![false, true, false];
        let ps = params_of(&f, &[]);
        let c: Vec<Option<bool>> = ps.iter().map(|p| p.const_pointee).collect();
        assert_eq!(c, vec![None, Some(true), Some(false)]);
        assert_eq!(ps[1].declaration(), "const float *x");
        assert_eq!(ps[2].declaration(), "float *y");
        assert_eq!(ps[0].declaration(), "int n");
    }

    #[test]
    fn unknown_qualifiers_are_writable() {
        let sig = FuncSig { params: vec![Type::ptr(Type::F64)], ret: Type::Void, variadic: false };
        let mut f = Function::new("g", sig, Linkage::Export, Span::DUMMY);
        f.add_local("p", Type::ptr(Type::F64), Span::DUMMY);
        let ps = params_of(&f, &[]);
        assert_eq!(ps[0].const_pointee, None);
        assert_eq!(ps[0].name, "p");
    }
}

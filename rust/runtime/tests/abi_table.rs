//! The runtime's `extern "C"` entry points agree with the runtime ABI table
//! (`accjit_abi::ENTRY_POINTS`) that lowering and the back ends generate
//! calls from (and the Fortran runtime's table, `FORTRAN_ENTRY_POINTS`,
//! that the Fortran front end calls): each is exported to the JIT linker, and its Rust definition
//! has the table's parameter and result types.

use accjit_abi::{AbiType, ENTRY_POINTS, FORTRAN_ENTRY_POINTS};

/// The ABI type of a Rust parameter or result type as the runtime writes it.
fn abi_type(rust: &str) -> AbiType {
    let t: String = rust.split_whitespace().collect::<Vec<_>>().join(" ");
    match t.as_str() {
        "" | "()" => AbiType::Void,
        "i64" => AbiType::I64,
        "f64" => AbiType::F64,
        "*const c_char" | "*mut c_char" => AbiType::CStr,
        "*const i64" | "*mut i64" => AbiType::I64Ptr,
        "*mut *mut c_void" | "*const *mut c_void" => AbiType::PtrPtr,
        p if p.starts_with("*const ") || p.starts_with("*mut ") => AbiType::Ptr,
        other => panic!("no ABI type for the Rust type {other:?}"),
    }
}

/// `(parameter types, result type)` of `pub ... extern "C" fn NAME(...)` in
/// the runtime's sources.
fn definition(sources: &[String], name: &str) -> Option<(Vec<AbiType>, AbiType)> {
    let needle = format!("extern \"C\" fn {name}(");
    let src = sources.iter().find(|s| s.contains(&needle))?;
    let rest = &src[src.find(&needle).unwrap() + needle.len()..];
    let close = rest.find(')').unwrap();
    let params = rest[..close]
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| abi_type(p.split_once(':').unwrap_or_else(|| panic!("{name}: parameter {p:?}")).1))
        .collect();
    let after = &rest[close + 1..rest.find('{').unwrap()];
    let ret = abi_type(after.trim().strip_prefix("->").unwrap_or(""));
    Some((params, ret))
}

/// The text of every `.rs` file under `dir` (subdirectories included).
fn rust_sources(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.is_dir() {
            out.extend(rust_sources(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(std::fs::read_to_string(&path).unwrap());
        }
    }
    out
}

#[test]
fn runtime_entry_points_match_the_abi_table() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let sources = rust_sources(std::path::Path::new(dir));
    let symbols = accjit_runtime::symbols();
    for e in ENTRY_POINTS.iter().chain(FORTRAN_ENTRY_POINTS) {
        let exported = symbols.iter().find(|(n, _)| n == e.name);
        assert!(matches!(exported, Some((_, addr)) if *addr != 0), "{} is not exported to the JIT linker", e.name);
        let (params, ret) = definition(&sources, e.name).unwrap_or_else(|| panic!("{} is not defined in rust/runtime/src", e.name));
        assert_eq!(params, e.params, "{}: parameters differ from the ABI table", e.name);
        assert_eq!(ret, e.ret, "{}: result differs from the ABI table", e.name);
    }
}

#[test]
fn data_clause_kinds_round_trip_through_the_table() {
    for (k, name) in accjit_abi::clause::ALL {
        let c = accjit_runtime::Clause::from_i64(k).unwrap_or_else(|| panic!("kind {k} ({name}) unknown to the runtime"));
        assert_eq!(c as i64, k);
        assert_eq!(c.name(), name);
    }
    assert!(accjit_runtime::Clause::from_i64(accjit_abi::clause::ALL.len() as i64).is_none());
    assert!(accjit_runtime::Clause::from_i64(-1).is_none());
}

#[test]
fn device_types_have_the_table_codes() {
    for t in accjit_runtime::device::ALL_TYPES {
        assert_eq!(accjit_abi::device_type_code(t.name()), Some(t.to_acc()), "{}", t.name());
    }
}

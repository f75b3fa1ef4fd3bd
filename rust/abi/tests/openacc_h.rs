//! The bundled `openacc.h` (rust/front/c/include/openacc.h) declares the
//! same `acc_device_t` values as the ABI table: generated code and programs
//! pass them through the C ABI unchanged.

use accjit_abi::DEVICE_TYPES;

/// `(name, value)` of every enumerator of `typedef enum TAG { ... }` in `src`.
fn enum_values(src: &str, tag: &str) -> Vec<(String, i64)> {
    let start = src.find(&format!("typedef enum {tag} {{")).unwrap_or_else(|| panic!("no enum {tag}"));
    let body = &src[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    body.split(',')
        .map(|e| {
            let (name, value) = e.split_once('=').unwrap_or_else(|| panic!("enumerator without a value: {e:?}"));
            let v = value.trim();
            let v = match v.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16).unwrap(),
                None => v.parse().unwrap_or_else(|_| panic!("value {v:?}")),
            };
            (name.trim().to_string(), v)
        })
        .collect()
}

#[test]
fn openacc_h_device_types_match_the_table() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../front/c/include/openacc.h");
    let src = std::fs::read_to_string(path).unwrap();
    let header = enum_values(&src, "acc_device_t");
    let table: Vec<(String, i64)> = DEVICE_TYPES.iter().map(|(n, c)| (format!("acc_device_{n}"), *c as i64)).collect();
    assert_eq!(header, table, "openacc.h's acc_device_t and accjit_abi::DEVICE_TYPES differ");
}

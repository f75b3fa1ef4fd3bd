//! The module image (`accjit_back_clif::image`): a module compiled once and
//! loaded again from its encoded bytes behaves the same (globals with
//! relocations, string constants, calls into libc/libm and the runtime,
//! function pointers); bytes that are not an image decode to `None`.

use accjit_back_clif::{compile, image, ClifOptions, CompiledModule, Image};
use accjit_ir::{Module, SourceMap};

fn lowered(src: &str) -> Module {
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "host".into() }).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    m
}

fn opts() -> ClifOptions {
    let mut symbols = accjit_runtime::symbols();
    symbols.extend(accjit_runtime::libc_overrides());
    ClifOptions { symbols: symbols.into(), ..Default::default() }
}

fn call(cm: &CompiledModule, name: &str, args: &[u64]) -> u64 {
    let mut ret = [0u64; 2];
    let f = cm.function(name).unwrap_or_else(|| panic!("no {name}"));
    unsafe { (f.trampoline)(args.as_ptr(), ret.as_mut_ptr()) };
    ret[0]
}

const SRC: &str = r#"
#include <math.h>
#include <stdio.h>
#include <string.h>
static int table[5] = {3, 1, 4, 1, 5};
static int *second = &table[1];
static const char *names[] = {"alpha", "beta"};
static int sq(int x) { return x * x; }
static int (*op)(int) = sq;
int counter;
int bump(int k) { counter += k; return counter; }
long mix(int k) {
    char buf[32];
    snprintf(buf, sizeof buf, "%s-%d", names[k & 1], k);
    long r = (long)strlen(buf) * 1000 + op(k) + *second + table[4];
    r += (long)(sqrt((double)(k * k)) + 0.5);
    return r;
}
"#;

#[test]
fn an_image_loads_into_the_same_module() {
    let m = lowered(SRC);
    let o = opts();
    let mut first = compile(&m, &o).expect("compiles");
    let image = first.take_image().expect("an image was recorded");
    let bytes = image.encode();
    let again = Image::decode(&bytes).expect("decodes");
    let second = image::load(&m, &again, &o).expect("loads");
    for k in [0u64, 3, 7, 12] {
        assert_eq!(call(&first, "mix", &[k]), call(&second, "mix", &[k]), "mix({k})");
    }
    // the loaded module has globals of its own
    assert_eq!(call(&second, "bump", &[5]), 5);
    assert_eq!(call(&second, "bump", &[2]), 7);
    assert_eq!(call(&first, "bump", &[1]), 1);
    assert_eq!(first.functions.len(), second.functions.len());
    assert_ne!(first.globals, second.globals);
    assert_eq!(Image::decode(&again.encode()).map(|i| i.encode()), Some(bytes));
}

#[test]
fn bytes_that_are_not_an_image_do_not_decode() {
    let m = lowered(SRC);
    let bytes = compile(&m, &opts()).expect("compiles").take_image().expect("image").encode();
    assert!(Image::decode(&[]).is_none());
    for cut in [1, 8, 12, bytes.len() / 3, bytes.len() / 2, bytes.len() - 1] {
        assert!(Image::decode(&bytes[..cut]).is_none(), "truncated at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(Image::decode(&longer).is_none(), "trailing bytes");
    let mut wrong = bytes.clone();
    wrong[0] ^= 1;
    assert!(Image::decode(&wrong).is_none(), "magic");
}

#[test]
fn an_image_of_another_module_is_refused() {
    let m = lowered(SRC);
    let image = compile(&m, &opts()).expect("compiles").take_image().expect("image");
    let other = lowered("int one(void) { return 1; }");
    assert!(image::load(&other, &image, &opts()).is_err());
}

#[test]
fn an_import_that_does_not_resolve_is_an_error() {
    let m = lowered("int __accjit_test_only_hook(int);\nint f(int x) { return __accjit_test_only_hook(x); }");
    let mut o = opts();
    o.symbols.insert("__accjit_test_only_hook", sq_addr());
    let image = compile(&m, &o).expect("compiles").take_image().expect("image");
    let loaded = image::load(&m, &image, &o).expect("loads with the symbol");
    assert_eq!(call(&loaded, "f", &[6]), 36);
    let err = image::load(&m, &image, &opts()).err().expect("no symbol: refused");
    assert!(err.contains("__accjit_test_only_hook"), "{err}");
}

extern "C" fn sq(x: i32) -> i32 {
    x * x
}

fn sq_addr() -> usize {
    sq as extern "C" fn(i32) -> i32 as usize
}

#[test]
fn the_host_fingerprint_names_the_target() {
    let f = accjit_back_clif::host_fingerprint();
    assert!(f.contains(std::env::consts::ARCH) || f.contains("aarch64"), "{f}");
}

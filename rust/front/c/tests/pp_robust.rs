//! No input makes the preprocessor panic: every prefix of tricky inputs and
//! pseudo-random byte soup is answered with tokens or diagnostics.

use accjit_front_c::pp::{preprocess, PpOptions};
use accjit_ir::SourceMap;

const TRICKY: &str = r#"#include <stdio.h>
#define F(a, ...) f(#a, a ## __VA_ARGS__, __VA_OPT__(x) __LINE__)
#define G(x) _Pragma("acc parallel loop num_gangs(x)") F(x, y)
#if defined(F) && (1 ? 2 : 3) << 2 > 'a' || __has_include(<math.h>)
G(1) F(é, "s\"t", 'c')
#elif 1/0
#else
#endif
/* comment */ // line \
continued
#pragma acc kernels copy(a[0:N]) \
  async(3)
char *s = "tail\
ing";
%: define DI <: :>
DI
"#;

fn no_panic(src: &str) {
    let mut sm = SourceMap::new();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = preprocess(&mut sm, "r.c", src, &PpOptions::default());
    }));
    assert!(r.is_ok(), "panic on input {:?}", src);
}

#[test]
fn every_prefix() {
    let mut cut = 0;
    while cut <= TRICKY.len() {
        if TRICKY.is_char_boundary(cut) {
            no_panic(&TRICKY[..cut]);
            no_panic(&TRICKY[cut..]);
        }
        cut += 1;
    }
}

#[test]
fn byte_soup() {
    // A small LCG: deterministic pseudo-random inputs over a C-ish alphabet.
    let alphabet: Vec<char> = "#define if elif else endif include pragma acc ( ) , ... ## # \" ' \\ \n / * a b x 0 1 . e + - < > _Pragma __VA_ARGS__ defined é @ % : ; \r \t \0 \u{feff} \u{1F600} L u8 ' ? = ! ~ & | ^ [ ] { }".chars().collect();
    let words: Vec<&str> = "#define |#if |#elif |#else\n|#endif\n|#include |#pragma acc |( |) |, |... |## |# |\"|'|\\\n|\n|/*|*/|//|a |b(|x |0 |1 |.5e+|<|>|_Pragma(|__VA_ARGS__|defined |é|@|#undef |__LINE__ |F(|#define F(a,...) a ## __VA_ARGS__ #a\n".split('|').collect();
    let mut seed: u64 = 0x2545F4914F6CDD1D;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for _ in 0..3000 {
        let n = next() % 40;
        let mut s = String::new();
        for _ in 0..n {
            if next() % 3 == 0 {
                s.push(alphabet[next() % alphabet.len()]);
            } else {
                s.push_str(words[next() % words.len()]);
            }
        }
        no_panic(&s);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let mut src = String::from("#define f(x) x\n");
    for _ in 0..300 {
        src.push_str("f(");
    }
    src.push('1');
    for _ in 0..300 {
        src.push(')');
    }
    let mut sm = SourceMap::new();
    let e = preprocess(&mut sm, "d.c", &src, &PpOptions::default()).unwrap_err();
    assert!(e.0[0].message.contains("macro expansion nested too deeply"), "{}", e.render(&sm));
    // 100 levels are fine.
    let ok = format!("#define f(x) x\n{}1{}", "f(".repeat(100), ")".repeat(100));
    let mut sm = SourceMap::new();
    let t = preprocess(&mut sm, "d.c", &ok, &PpOptions::default()).unwrap();
    assert_eq!(t[0].text, "1");
    // Deep #if nesting and long token streams are iterative.
    let deep_if = format!("{}x{}", "#if 1\n".repeat(5000), "\n#endif".repeat(5000));
    let mut sm = SourceMap::new();
    assert_eq!(preprocess(&mut sm, "d.c", &deep_if, &PpOptions::default()).unwrap()[0].text, "x");
}

//! The bundled headers: each preprocesses cleanly, defines what programs
//! use with glibc's values, and a typical program preprocesses fast. Also runs
//! the conformance corpus through the preprocessor.

use accjit_front_c::headers;
use accjit_front_c::pp::{preprocess, PpOptions};
use accjit_front_c::token::{Token, TokenKind};
use accjit_ir::SourceMap;
use std::time::Instant;

fn pp(src: &str) -> Vec<Token> {
    let mut sm = SourceMap::new();
    match preprocess(&mut sm, "h.c", src, &PpOptions::default()) {
        Ok(t) => t,
        Err(d) => panic!("unexpected errors:\n{}", d.render(&sm)),
    }
}

fn spell(t: &[Token]) -> String {
    t.iter().filter(|t| t.kind != TokenKind::Eof).map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ")
}

/// The expansion of `expr` after including `header`.
fn value(header: &str, expr: &str) -> String {
    let t = pp(&format!("#include <{}>\n@@ {}", header, expr).replace("@@", "__MARK__"));
    let s = spell(&t);
    s[s.rfind("__MARK__").unwrap() + 9..].to_string()
}

#[test]
fn every_header_preprocesses_alone_and_twice() {
    for name in headers::names() {
        let t = pp(&format!("#include <{0}>\n#include <{0}>\n", name));
        assert_eq!(t.last().unwrap().kind, TokenKind::Eof, "{}", name);
        // No bad tokens or leftover directives.
        assert!(t.iter().all(|t| !t.is_punct("#") && !t.is_punct("##")), "{}", name);
    }
}

#[test]
fn constants() {
    assert_eq!(value("limits.h", "INT_MAX INT_MIN LONG_MAX CHAR_BIT UINT_MAX"), "2147483647 ( - 2147483647 - 1 ) 9223372036854775807L 8 4294967295U");
    assert_eq!(value("stdlib.h", "RAND_MAX EXIT_SUCCESS EXIT_FAILURE NULL"), "2147483647 0 1 ( ( void * ) 0 )");
    assert_eq!(value("time.h", "CLOCKS_PER_SEC CLOCK_MONOTONIC CLOCK_REALTIME"), "1000000L 1 0");
    assert_eq!(value("stdio.h", "EOF stdout"), "( - 1 ) stdout");
    assert_eq!(value("math.h", "INFINITY NAN HUGE_VAL"), "( __builtin_inff ( ) ) ( __builtin_nanf ( \"\" ) ) ( __builtin_huge_val ( ) )");
    assert_eq!(value("math.h", "isnan(x) signbit(-y)"), "__builtin_isnan ( x ) __builtin_signbit ( - y )");
    assert_eq!(value("math.h", "sinl(x) powl(a,b) M_PI"), "sin ( x ) pow ( a , b ) 3.14159265358979323846");
    assert_eq!(value("float.h", "DBL_EPSILON FLT_EPSILON"), "2.22044604925031308084726333618164062e-16 1.19209289550781250000000000000000000e-7F");
    assert_eq!(value("stdint.h", "SIZE_MAX INT64_C(5) UINT32_MAX"), "18446744073709551615UL 5L 4294967295U");
    assert_eq!(value("inttypes.h", "PRId64 PRIu32 PRIxPTR SCNd8"), "\"ld\" \"u\" \"lx\" \"hhd\"");
    assert_eq!(value("stddef.h", "offsetof(struct s, f)"), "__builtin_offsetof ( struct s , f )");
    assert_eq!(value("stdbool.h", "bool true false"), "_Bool 1 0");
    assert_eq!(value("complex.h", "I creal(z) cabsl(z)"), "( __builtin_complex_i ( ) ) __builtin_creal ( z ) cabs ( z )");
    assert_eq!(value("errno.h", "errno ERANGE"), "( * __errno_location ( ) ) 34");
    assert_eq!(value("openacc.h", "acc_async_sync acc_async_noval acc_pcopyin"), "( - 2 ) ( - 1 ) acc_copyin");
    assert_eq!(value("unistd.h", "_SC_NPROCESSORS_ONLN"), "84");
}

#[test]
fn glibc_declarations() {
    let s = spell(&pp("#include <stdio.h>\n#include <time.h>\n#include <sys/time.h>\n"));
    assert!(s.contains("typedef struct _IO_FILE FILE ;"));
    assert!(s.contains("extern FILE * stdin ; extern FILE * stdout ; extern FILE * stderr ;"));
    assert!(s.contains("typedef unsigned long size_t ;"));
    assert!(s.contains("struct timespec { long tv_sec ; long tv_nsec ; } ;"));
    assert!(s.contains("int clock_gettime ( clockid_t clk_id , struct timespec * tp ) ;"));
    assert!(s.contains("struct timeval { long tv_sec ; long tv_usec ; } ;"));
    assert!(s.contains("int printf ( const char * format , ... ) ;"));
    let acc = spell(&pp("#include <openacc.h>\n"));
    for name in [
        "acc_get_num_devices",
        "acc_set_device_type",
        "acc_get_property_string",
        "acc_init_device",
        "acc_shutdown_device",
        "acc_async_test_all_device",
        "acc_wait_any",
        "acc_wait_all_device_async",
        "acc_set_default_async",
        "acc_on_device",
        "acc_malloc",
        "acc_free",
        "acc_copyin_async",
        "acc_create_async",
        "acc_copyout_finalize_async",
        "acc_delete_finalize",
        "acc_update_self_async",
        "acc_map_data",
        "acc_unmap_data",
        "acc_deviceptr",
        "acc_hostptr",
        "acc_is_present",
        "acc_memcpy_to_device_async",
        "acc_memcpy_from_device",
        "acc_memcpy_device_async",
        "acc_memcpy_d2d_async",
        "acc_attach_async",
        "acc_detach_finalize_async",
        "acc_prof_register",
        "acc_callback_unregister",
        "acc_register_library",
    ] {
        assert!(acc.contains(&format!(" {} (", name)), "{} not declared", name);
    }
    assert!(acc.contains("acc_device_nvidia = 4 , acc_device_radeon = 5 , acc_device_opencl = 6 , acc_device_multicore = 7"));
    assert!(acc.contains("acc_property_name = 0x10000"));
}

#[test]
fn assert_respects_ndebug() {
    assert_eq!(value("assert.h", "assert(x)"), "( ( x ) ? ( void ) 0 : __accjit_assert_fail ( \"x\" , \"h.c\" , 2 ) )");
    let s = spell(&pp("#define NDEBUG\n#include <assert.h>\nassert(x);\n#undef NDEBUG\n#include <assert.h>\nassert(y);\n"));
    assert!(s.ends_with("( ( void ) 0 ) ; ( ( y ) ? ( void ) 0 : __accjit_assert_fail ( \"y\" , \"h.c\" , 6 ) ) ;"), "{}", s);
}

#[test]
fn typical_program_is_fast() {
    let src = "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n#include <openacc.h>\n\
               int main(void) { double s = 0; for (int i = 0; i < 10; i++) s += sin(i) * M_PI; printf(\"%f\\n\", s); return EXIT_SUCCESS; }\n";
    // Warm up, then take the best of several runs.
    let mut best = f64::MAX;
    for _ in 0..20 {
        let mut sm = SourceMap::new();
        let t0 = Instant::now();
        let toks = preprocess(&mut sm, "fast.c", src, &PpOptions::default()).unwrap();
        best = best.min(t0.elapsed().as_secs_f64());
        assert!(toks.len() > 1000);
    }
    println!("stdio+stdlib+math+openacc: {:.1} us", best * 1e6);
    // Well under 1 ms in release; allow slack for unoptimised test builds.
    let limit = if cfg!(debug_assertions) { 0.05 } else { 0.001 };
    assert!(best < limit, "preprocessing took {:.3} ms", best * 1e3);
}

#[test]
fn conformance_corpus_preprocesses() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/core");
    let Ok(dir) = std::fs::read_dir(&root) else { return };
    let mut n = 0;
    for e in dir.flatten() {
        let p = e.path();
        if p.extension().map(|x| x == "c").unwrap_or(false) {
            let text = std::fs::read_to_string(&p).unwrap();
            let mut sm = SourceMap::new();
            if let Err(d) = preprocess(&mut sm, p.to_str().unwrap(), &text, &PpOptions::default()) {
                panic!("{}", d.render(&sm));
            }
            n += 1;
        }
    }
    assert!(n > 0);
}

//! Every bundled header must be accepted by the parser too (the headers use
//! only constructs and builtins the C front end implements).

use accjit_front_c::{compile, headers, CompileOptions};
use accjit_ir::SourceMap;

#[test]
fn all_headers_parse() {
    let mut src = String::new();
    for h in headers::names() {
        if h == "stdarg.h" {
            continue; // needs __builtin_va_* (optional)
        }
        src.push_str(&format!("#include <{}>\n", h));
    }
    src.push_str(
        "int main(void) {\n\
           double x = sinl(1.0) + fabs(-2.0) + M_PI + DBL_EPSILON + HUGE_VAL;\n\
           float y = nexttowardf(1.0f, 2.0) + INFINITY + NAN + FLT_MAX;\n\
           int c = isnan(x) + isinf(y) + isfinite(x) + signbit(x) + fpclassify(x) + isgreater(x, 1.0) + isunordered(x, y);\n\
           double _Complex z = 1.0 + 2.0 * I;\n\
           double re = creal(z) + cimag(conj(z)) + cabs(z);\n\
           struct timeval tv; gettimeofday(&tv, NULL);\n\
           struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);\n\
           size_t off = offsetof(struct tm, tm_year);\n\
           bool b = true;\n\
           int64_t i64 = INT64_MAX; uint32_t u32 = UINT32_MAX;\n\
           printf(\"%\" PRId64 \" %\" PRIu32 \"\\n\", i64, u32);\n\
           assert(x > 0);\n\
           errno = 0;\n\
           void *p = acc_malloc(16); acc_free(p);\n\
           acc_device_t d = acc_device_multicore;\n\
           return (int)(x + y + c + re + off + b + d + tv.tv_sec + ts.tv_nsec + CLOCKS_PER_SEC + RAND_MAX + INT_MAX + isdigit('1'));\n\
         }\n",
    );
    let mut sm = SourceMap::new();
    if let Err(d) = compile(&mut sm, "all.c", &src, &CompileOptions::default()) {
        panic!("{}", d.render(&sm));
    }
}

#[test]
fn headers_are_self_contained() {
    // Each header alone (and twice) parses.
    for h in headers::names() {
        if h == "stdarg.h" {
            continue;
        }
        let src = format!("#include <{0}>\n#include <{0}>\nint main(void) {{ return 0; }}\n", h);
        let mut sm = SourceMap::new();
        if let Err(d) = compile(&mut sm, "one.c", &src, &CompileOptions::default()) {
            panic!("{}: {}", h, d.render(&sm));
        }
    }
}

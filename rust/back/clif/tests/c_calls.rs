//! End to end (C → lower → Cranelift → run) for the calling conventions the
//! back end adds to C's: variadic functions of the program (their arguments'
//! block, `va_*`, the `vprintf` family bound in place of libc's, calls
//! through pointers to them and to C library variadic functions), functions
//! that return twice (`setjmp`: locals kept in memory), and the C the first
//! parser refused (Duff's device, members of struct values).

use accjit_back_clif::{compile, ClifOptions, CompiledModule};
use accjit_ir::SourceMap;

fn jit(src: &str) -> Result<CompiledModule, String> {
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).map_err(|d| d.render(&sm))?;
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "host".into() }).map_err(|d| d.render(&sm))?;
    let mut symbols = accjit_runtime::symbols();
    symbols.extend(accjit_runtime::libc_overrides());
    let opts = ClifOptions { symbols: symbols.into(), kernel_slots: vec![], keep_clif: false, ..Default::default() };
    compile(&m, &opts).map_err(|d| d.render(&sm))
}

fn call(cm: &CompiledModule, name: &str, args: &[u64]) -> u64 {
    let mut ret = [0u64; 2];
    let f = cm.function(name).unwrap_or_else(|| panic!("no {name}"));
    unsafe { (f.trampoline)(args.as_ptr(), ret.as_mut_ptr()) };
    ret[0]
}

#[test]
fn variadic_functions_of_the_program() {
    let cm = jit(r#"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
static double weighted(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) { int w = va_arg(ap, int); s += w * va_arg(ap, double); }
    va_end(ap);
    return s;
}
static int fmt(char *buf, const char *f, ...) {
    va_list ap, cp;
    va_start(ap, f);
    va_copy(cp, ap);
    int n = vsnprintf(buf, 64, f, cp);
    va_end(cp);
    va_end(ap);
    return n;
}
long count(int n, ...) { va_list ap; va_start(ap, n); long c = 0; for (int i = 0; i < n; i++) c += va_arg(ap, long) > 0; va_end(ap); return c; }
int test(int k) {
    char buf[64];
    int err = 0;
    if (weighted(3, 1, 0.5, 2, 0.25, k, 1.0) != 1.0 + k) err |= 1;
    if (weighted(0) != 0.0) err |= 2;
    int n = fmt(buf, "%d:%s:%.1f:%ld", k, "ab", 2.5, -3L);
    if (n != 11 || strcmp(buf, "7:ab:2.5:-3") != 0) err |= 4;
    if (count(4, 1L, -2L, 3L, 0L) != 2) err |= 8;
    return err;
}
"#)
    .unwrap();
    assert_eq!(call(&cm, "test", &[7]) as i32, 0);
    // Called from outside (the trampoline): an empty block of variadic arguments.
    assert_eq!(call(&cm, "count", &[0]) as i64, 0);
}

#[test]
fn variadic_calls_through_pointers() {
    let cm = jit(r#"
#include <stdio.h>
#include <string.h>
#include <stdarg.h>
static long total(int n, ...) { va_list ap; va_start(ap, n); long s = 0; while (n--) s += va_arg(ap, int); va_end(ap); return s; }
int test(int k) {
    long (*f)(int, ...) = total;
    int (*fmt)(char *, size_t, const char *, ...) = snprintf;
    char buf[32];
    int n = fmt(buf, sizeof buf, "%d/%.1f/%s", k, 0.5, "z");
    return (f(3, k, 2, 3) == k + 5 && f(0) == 0 && n == 7 && strcmp(buf, "7/0.5/z") == 0) ? 0 : 1;
}
"#)
    .unwrap();
    assert_eq!(call(&cm, "test", &[7]) as i32, 0);
}

#[test]
fn setjmp_keeps_unmodified_locals() {
    let cm = jit(r#"
#include <setjmp.h>
static jmp_buf env;
static void deep(int d) { if (d == 0) longjmp(env, 42); deep(d - 1); }
int test(int x) {
    int a = x * 3, b = x + 100;
    double c = x / 2.0;
    int r = setjmp(env);
    if (r == 0) { deep(x); return -1; }
    return (r == 42 && a == x * 3 && b == x + 100 && c == x / 2.0) ? 0 : 1;
}
"#)
    .unwrap();
    assert_eq!(call(&cm, "test", &[9]) as i32, 0);
}

#[test]
fn duffs_device_and_members_of_values() {
    let cm = jit(r#"
struct pt { int x, y; };
static struct pt mk(int x) { struct pt p = { x, 2 * x }; return p; }
static int copy(int *to, const int *from, int count) {
    int n = (count + 3) / 4;
    switch (count % 4) {
    case 0: do { *to++ = *from++;
    case 3: *to++ = *from++;
    case 2: *to++ = *from++;
    case 1: *to++ = *from++;
            } while (--n > 0);
    }
    return count;
}
int test(int c) {
    int a[16], b[16];
    for (int i = 0; i < 16; i++) { a[i] = i * 7; b[i] = -1; }
    copy(b, a, c);
    for (int i = 0; i < 16; i++) if (b[i] != (i < c ? i * 7 : -1)) return 1;
    return mk(c).y + (c > 3 ? mk(1) : mk(2)).x == 2 * c + (c > 3 ? 1 : 2) ? 0 : 2;
}
"#)
    .unwrap();
    for c in 1..=13 {
        assert_eq!(call(&cm, "test", &[c]) as i32, 0, "count {c}");
    }
}

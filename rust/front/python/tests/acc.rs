//! The OpenACC mapping of the Python front end (`src/acc/`): Python
//! directives → the IR's acc structures, checked on the printed IR before
//! lowering (and lowered for multicore, so the IR is what `lower` takes),
//! plus the errors the clauses' checks give.

mod common;
use accjit_ir::{SourceMap, Type};
use common::*;

/// Compile (decorator keywords `kw` as a Python dict literal), validate,
/// lower for multicore; the IR text before lowering.
fn ok(src: &str, name: &str, kind: &str, kw: &str, args: &[accjit_front_python::ArgType]) -> Option<String> {
    let (mut m, _) = match try_compile_kw(src, name, kind, kw, args)? {
        Ok(x) => x,
        Err(d) => panic!("compile error:\n{d}"),
    };
    let text = accjit_ir::print::module_to_string(&m);
    if std::env::var("SHOW_IR").is_ok() {
        eprintln!("{text}");
    }
    let opts = accjit_lower::LowerOptions { device_type: "multicore".into() };
    if let Err(d) = accjit_lower::lower(&mut m, &opts) {
        panic!("lower failed: {}\n{text}", d.render(&SourceMap::new()));
    }
    if let Err(d) = accjit_ir::validate::validate(&m, accjit_ir::validate::Stage::Lowered) {
        panic!("invalid lowered IR: {}\n{text}", d.render(&SourceMap::new()));
    }
    Some(text)
}

/// The rendered error of a compile that must fail.
fn err(src: &str, name: &str, kind: &str, kw: &str, args: &[accjit_front_python::ArgType]) -> Option<String> {
    match try_compile_kw(src, name, kind, kw, args)? {
        Ok((m, _)) => panic!("expected an error, got:\n{}", accjit_ir::print::module_to_string(&m)),
        Err(d) => Some(d),
    }
}

fn has(ir: &str, what: &str) {
    assert!(ir.contains(what), "expected `{what}` in:\n{ir}");
}

fn lacks(ir: &str, what: &str) {
    assert!(!ir.contains(what), "unexpected `{what}` in:\n{ir}");
}

fn has_err(e: &str, what: &str) {
    assert!(e.contains(what), "expected `{what}` in the error:\n{e}");
}

fn f64_2d() -> accjit_front_python::ArgType {
    arr(Type::F64, 2)
}

#[test]
fn decorator_clauses_become_the_construct_s_clauses() {
    let src = r#"
def saxpy(a, x, y, n):
    for i in acc.loop(n):
        y[i] = a * x[i] + y[i]
"#;
    let kw = r#"{"copyin": ["x"], "copy": "y", "num_gangs": 4, "num_workers": 2, "vector_length": "n // 4", "async_": 1, "wait": [2, 3], "if_": "n > 100"}"#;
    let Some(ir) = ok(src, "saxpy", "parallel", kw, &[scalar(Type::F64), f64s(), f64s(), scalar(Type::I64)]) else { return };
    has(&ir, "#acc parallel num_gangs(4:i64) num_workers(2:i64) vector_length(");
    has(&ir, "async(1:i64) wait(2:i64, 3:i64) if(");
    has(&ir, "copyin(x) copy(y)");
    // Named arrays get no implicit clause on top.
    lacks(&ir, "copy(x)");
    lacks(&ir, "copyin(y)");
}

#[test]
fn implicit_clauses_copy_written_arrays_and_copyin_read_ones() {
    let src = r#"
def f(x, y, z):
    for i in acc.loop(x.shape[0]):
        y[i] = x[i] * 2.0
"#;
    let Some(ir) = ok(src, "f", "parallel", "None", &[f64s(), f64s(), f64s()]) else { return };
    has(&ir, "copy(y) copyin(x)");
    // `z` is not referenced: no clause.
    lacks(&ir, "(z)");
    let Some(ir) = ok(src, "f", "parallel", r#"{"default": "present"}"#, &[f64s(), f64s(), f64s()]) else { return };
    has(&ir, "default(present) present(x, y)");
}

#[test]
fn atomics_and_reductions_count_as_writes_for_implicit_clauses() {
    let src = r#"
def hist(x, h, t):
    for i in acc.loop(x.shape[0]):
        acc.atomic.add(h, int(x[i]), 1)
    for i in acc.loop(x.shape[0], reduction={"+": t}):
        t[0] += 1.0
"#;
    let Some(ir) = ok(src, "hist", "parallel", "None", &[f64s(), arr(I32, 1), f64s()]) else { return };
    has(&ir, "copy(h, t) copyin(x)");
}

#[test]
fn loop_reduction_of_a_prologue_scalar_is_the_loop_s_as_in_c() {
    let src = r#"
def total(x):
    s = 0.0
    for i in acc.loop(x.shape[0], gang=True, vector=128, reduction={"+": "s"}):
        s += x[i]
    return s
"#;
    let Some(ir) = ok(src, "total", "parallel", "None", &[f64s()]) else { return };
    has(&ir, "#acc loop gang vector(128:i64) reduction(+: s)");
    // Lower's implicit rule copies a loop-reduction variable; no construct reduction, no firstprivate.
    lacks(&ir, "#acc parallel reduction");
    lacks(&ir, "copy(s)");
    lacks(&ir, "firstprivate(s)");
}

#[test]
fn decorator_reduction_also_reduces_the_loops_that_update_the_variable() {
    let src = r#"
def mx(x):
    m = -1.0e300
    for i in acc.loop(x.shape[0]):
        m = max(m, x[i])
    return m
"#;
    let Some(ir) = ok(src, "mx", "parallel", r#"{"reduction": {"max": "m"}}"#, &[f64s()]) else { return };
    has(&ir, "#acc parallel copyin(x) reduction(max: m)");
    has(&ir, "#acc loop reduction(max: m)");
    let Some(ir) = ok(src, "mx", "parallel", r#"{"reduction": "max:m"}"#, &[f64s()]) else { return };
    has(&ir, "reduction(max: m)");
}

#[test]
fn a_returned_prologue_scalar_outside_reductions_is_copied_back() {
    let src = r#"
def last(x):
    k = 0
    for i in acc.loop(x.shape[0], seq=True):
        k = i
    return k
"#;
    let Some(ir) = ok(src, "last", "serial", "None", &[f64s()]) else { return };
    has(&ir, "copy(k)");
}

#[test]
fn loop_clauses_map_one_to_one() {
    let src = r#"
def f(a, n):
    for i in acc.loop(n, gang={"num": 8, "static": "*"}, worker=4, private=["t"]):
        t = a[i]
        for j in acc.loop(n, vector=32, independent=True):
            a[i] = t + j
    for i in acc.loop(0, n, 2, gang={"static": 4, "dim": 2}):
        a[i] = 0.0
    for i in acc.loop(n - 1, -1, -1, seq=True):
        a[i] = 1.0
    for i in acc.loop(n, auto=True):
        a[i] = 2.0
"#;
    let Some(ir) = ok(src, "f", "parallel", "None", &[f64s(), scalar(Type::I64)]) else { return };
    has(&ir, "#acc loop gang(num: 8:i64, static: *) worker(4:i64)");
    has(&ir, "#acc loop vector(32:i64) independent");
    has(&ir, "gang(static: 4:i64, dim: 2)");
    has(&ir, "%i.");
    has(&ir, "+=<i64> 2:i64");
    has(&ir, "#acc loop seq");
    has(&ir, " > -1:i64");
    has(&ir, "#acc loop auto");
    // `t` is first assigned in the loop: private by construction, not a clause.
    lacks(&ir, "private(t)");
}

#[test]
fn clause_errors_follow_the_c_front_end_s_checks() {
    let lp = |clauses: &str| format!("\ndef f(a, n):\n    for i in acc.loop(n, {clauses}):\n        a[i] = 1.0\n");
    let args = [f64s(), scalar(Type::I64)];
    let cases: &[(&str, &str)] = &[
        ("seq=True, gang=True", "`gang=` may not be combined with `seq=` on the same loop"),
        ("auto=True, independent=True", "`independent=` may not be combined with `auto=`"),
        ("vectr=4", "did you mean `vector=`?"),
        ("num_gangs=4", "clause `num_gangs=` is not allowed on acc.loop"),
        ("collapse=0", "collapse= must be a positive integer constant"),
        ("collapse=n", "collapse= must be an integer constant"),
        ("reduction={\"%\": \"n\"}", "invalid reduction operator `%`"),
        ("gang={\"dim\": 4}", "gang dim must be 1, 2 or 3"),
        ("vector=1.5", "vector= takes an integer, not float64"),
        ("device_type={\"nvidia\": {\"private\": [n]}}", "may not be given per device type"),
        ("private=[q]", "unknown variable `q`"),
    ];
    for (clauses, msg) in cases {
        let Some(e) = err(&lp(clauses), "f", "parallel", "None", &args) else { return };
        has_err(&e, msg);
    }
    // The reduction operator must apply to the variable's type.
    let src = "\ndef f(a, n):\n    s = 0.0\n    for i in acc.loop(n, reduction={\"^\": \"s\"}):\n        s += a[i]\n    return s\n";
    let Some(e) = err(src, "f", "parallel", "None", &args) else { return };
    has_err(&e, "reduction operator '^' cannot be applied to `s`");
    // Construct clauses.
    let body = "\ndef f(a, n):\n    for i in acc.loop(n):\n        a[i] = 1.0\n";
    for (kw, msg) in [
        (r#"{"num_gangs": 4}"#, "clause `num_gangs=` is not allowed on acc.serial"),
        (r#"{"private": ["a"], "reduction": {"+": "a"}}"#, "also private on this construct"),
        (r#"{"default": "shared"}"#, "default= takes \"none\" or \"present\""),
    ] {
        let Some(e) = err(body, "f", "serial", kw, &args) else { return };
        has_err(&e, msg);
    }
    let Some(e) = err(body, "f", "parallel", r#"{"num_gangs": (1, 2, 3, 4)}"#, &args) else { return };
    has_err(&e, "num_gangs= takes 1 to 3 values");
    let Some(e) = err(body, "f", "kernels", r#"{"num_gangs": (1, 2)}"#, &args) else { return };
    has_err(&e, "only allowed on acc.parallel");
    let Some(e) = err(body, "f", "parallel", r#"{"reduction": {"+": "a"}, "private": ["n"], "firstprivate": ["a"]}"#, &args) else { return };
    has_err(&e, "also firstprivate");
}

#[test]
fn collapse_needs_the_nest_and_takes_its_plain_loops() {
    let src = r#"
def f(a, n, m):
    for i in acc.loop(n, collapse=2):
        for j in range(m):
            a[i, j] = 0.0
"#;
    let args = [f64_2d(), scalar(Type::I64), scalar(Type::I64)];
    let Some(ir) = ok(src, "f", "parallel", "None", &args) else { return };
    has(&ir, "#acc loop collapse(2)");
    // The inner loop belongs to the directive: no `seq` of its own.
    lacks(&ir, "#acc loop seq");
    let src = r#"
def f(a, n, m):
    for i in acc.loop(n, collapse=3):
        for j in range(m):
            a[i, j] = 0.0
"#;
    let Some(e) = err(src, "f", "parallel", "None", &args) else { return };
    has_err(&e, "collapse=3 requires 3 tightly nested loops, but only 2 found");
    let src = r#"
def f(a, n, m):
    for i in acc.loop(n, tile=(8, 8)):
        a[i, 0] = 1.0
        for j in range(m):
            a[i, j] = 0.0
"#;
    let Some(e) = err(src, "f", "parallel", "None", &args) else { return };
    has_err(&e, "tile= requires 2 tightly nested loops, but only 1 found");
    // The nest form: collapse implied, tile sizes per range.
    let src = r#"
def f(a, n, m):
    for i, j in acc.loop(range(n), range(m), tile=(8, "*")):
        a[i, j] = 0.0
    for i, j in acc.loop(range(n), range(1, m)):
        a[i, j] = 1.0
"#;
    let Some(ir) = ok(src, "f", "parallel", "None", &args) else { return };
    has(&ir, "#acc loop tile(8:i64, *)");
    has(&ir, "#acc loop collapse(2)");
    let src = r#"
def f(a, n, m):
    for i, j in acc.loop(range(n), range(m), collapse=3):
        a[i, j] = 0.0
"#;
    let Some(e) = err(src, "f", "parallel", "None", &args) else { return };
    has_err(&e, "collapse=3 does not match");
}

#[test]
fn atomics_in_function_and_block_forms() {
    let src = r#"
def f(x, h, out, count, m):
    for i in acc.loop(x.shape[0]):
        acc.atomic.add(h, int(x[i]) % 4, 1)
        acc.atomic.max(m, (i % 2, 0), x[i])
        k = acc.atomic.add(count, 0, 1)
        out[k] = x[i]
        v = acc.atomic.read(x, i)
        acc.atomic.write(out, i, v * 2.0)
        o = acc.atomic.exchange(out, 0, v)
        with acc.atomic():
            h[0] += 2
        with acc.atomic("update"):
            h[1] = 3 * h[1]
        with acc.atomic("update"):
            m[0, 0] = min(m[0, 0], x[i])
        with acc.atomic("capture"):
            c = count[0]
            count[0] += 1
        with acc.atomic("capture"):
            count[0] -= 1
            d = count[0]
        with acc.atomic("capture"):
            e = out[1]
            out[1] = x[i]
        with acc.atomic("read"):
            w = out[2]
        with acc.atomic("write"):
            out[3] = w + o + c + d + e
"#;
    let args = [f64s(), arr(I32, 1), f64s(), arr(Type::I64, 1), f64_2d()];
    let Some(ir) = ok(src, "f", "parallel", "None", &args) else { return };
    for want in ["atomic update", "atomic capture", "atomic read", "atomic write"] {
        has(&ir, want);
    }
    if std::env::var("SHOW_IR").is_ok() {
        eprintln!("{ir}");
    }
}

#[test]
fn atomic_errors_name_the_form() {
    let args = [f64s(), arr(I32, 1)];
    let cases: &[(&str, &str)] = &[
        ("acc.atomic.add(h, i, 0.5)", "acc.atomic.add stores float64 into int32"),
        ("acc.atomic.div(h, i, 2)", "an atomic `/` cannot update int32"),
        ("acc.atomic.and_(x, i, 2.0)", "an atomic `&` cannot update float64"),
        ("acc.atomic.cas(h, i, 1, 2)", "unknown atomic `acc.atomic.cas`"),
        ("acc.atomic.add(h, i)", "acc.atomic.add takes 3 arguments"),
        ("acc.atomic.read(h, i)", "the value of acc.atomic.read(...) is unused"),
        ("with acc.atomic():\n            h[i] = h[i] // 2", "`//` has no atomic form"),
        ("with acc.atomic():\n            h[i] = 5", "this statement is the form of acc.atomic(\"write\")"),
        ("with acc.atomic(\"capture\"):\n            h[i] += 1", "acc.atomic(\"capture\") takes two statements"),
        ("with acc.atomic(\"swap\"):\n            h[i] += 1", "acc.atomic takes \"read\", \"write\", \"update\" or \"capture\""),
    ];
    for (stmt, msg) in cases {
        let src = format!("\ndef f(x, h):\n    for i in acc.loop(x.shape[0]):\n        {stmt}\n");
        let Some(e) = err(&src, "f", "parallel", "None", &args) else { return };
        has_err(&e, msg);
    }
}

#[test]
fn executable_directives_and_data_constructs_in_jit_bodies() {
    let src = r#"
def jac(a, b, n, iters):
    with acc.data(copy=[a], create=[b]):
        for it in range(iters):
            with acc.parallel(num_gangs=64, async_=1, wait=[2, 3], if_=n > 10):
                for i, j in acc.loop(range(1, n - 1), range(1, n - 1)):
                    b[i, j] = 0.25 * (a[i-1, j] + a[i+1, j] + a[i, j-1] + a[i, j+1])
            with acc.kernels(default="present"):
                for i in acc.loop(1, n - 1, independent=True, device_type={"nvidia": {"gang": True, "vector": 128}, "*": {"seq": True}}):
                    for j in range(1, n - 1):
                        a[i, j] = b[i, j]
        acc.update_self(a[0:2], if_present=True)
        acc.update_device(b, async_=2, wait=1)
    acc.enter_data(copyin=[a], create_zero=[b], async_=True)
    acc.exit_data(copyout=[a], delete=[b], finalize=True)
    acc.wait()
    acc.wait(1, 2, async_=3)
    with acc.host_data(use_device=[a]):
        pass
    with acc.serial(self_=True, copyin_readonly=[a], copyout_zero=[b]):
        b[0, 0] = a[0, 0]
"#;
    let args = [f64_2d(), f64_2d(), scalar(Type::I64), scalar(Type::I64)];
    let Some(ir) = ok(src, "jac", "jit", "None", &args) else { return };
    for want in [
        "#acc data copy(a) create(b)",
        "#acc parallel num_gangs(64:i64) async(1:i64) wait(2:i64, 3:i64) if(",
        "copy(b) copyin(a)",
        "#acc loop collapse(2)",
        "#acc kernels default(present) present(a, b)",
        "#acc loop independent device_type(nvidia) gang vector(128:i64) device_type(*) seq",
        "#acc update if_present self(a[0:2])",
        "device(b)",
        "#acc enter data copyin(a) create(zero: b) async",
        "#acc exit data finalize copyout(a) delete(b)",
        "#acc wait\n",
        "#acc wait(1:i64, 2:i64) async(3:i64)",
        "#acc host_data use_device(a)",
        "copyin(readonly: a) copyout(zero: b)",
    ] {
        has(&ir, want);
    }
}

#[test]
fn directive_placement_errors() {
    let args = [f64s(), scalar(Type::I64)];
    let cases: &[(&str, &str, &str)] = &[
        ("jit", "    for i in acc.loop(n):\n        x[i] = 0.0", "acc.loop must be inside a compute region"),
        ("parallel", "    for i in acc.loop(n):\n        acc.update_self(x)", "acc.update_self cannot be used inside a compute region"),
        ("parallel", "    with acc.parallel():\n        x[0] = 1.0", "compute constructs cannot be nested"),
        ("jit", "    acc.enter_data()", "acc.enter_data requires at least one data clause"),
        ("jit", "    acc.update_device()", "acc.update_device needs the arrays to update"),
        ("jit", "    with acc.host_data():\n        pass", "acc.host_data requires use_device=[...]"),
        ("jit", "    with acc.parallel(4):\n        pass", "acc.parallel takes clauses as keywords"),
        ("jit", "    acc.exit_data(copyin=[x])", "clause `copyin=` is not allowed on acc.exit_data"),
        ("jit", "    with acc.data(copy=[x]) as d:\n        pass", "acc constructs bind no name"),
        ("jit", "    with acc.parallel(copy=[q]):\n        pass", "unknown variable `q` in a clause"),
        ("jit", "    with acc.parallel(copy=[\"x[0:n]\"]):\n        pass", "write sections as expressions"),
        ("parallel", "    for i, j in acc.loop(n):\n        pass", "acc.loop over one range gives one loop variable"),
    ];
    for (kind, body, msg) in cases {
        let src = format!("\ndef f(x, n):\n{body}\n");
        let Some(e) = err(&src, "f", kind, "None", &args) else { return };
        has_err(&e, msg);
    }
}

#[test]
fn cache_and_private_sections() {
    let src = r#"
def st(a, b, t):
    for i in acc.loop(1, a.shape[0] - 1, private=[t]):
        acc.cache(a[i - 1:i + 2], readonly=True)
        t[0] = a[i]
        b[i] = a[i - 1] + t[0] + a[i + 1]
"#;
    let Some(ir) = ok(src, "st", "parallel", "None", &[f64s(), f64s(), f64s()]) else { return };
    has(&ir, "private(t)");
    has(&ir, "#acc cache(readonly: a[i - 1:i + 2])");
}

#[test]
fn default_none_reports_user_variables_only() {
    let src = r#"
def f(x, n):
    for i in acc.loop(x.shape[0]):
        x[i] = 1.0
"#;
    let args = [f64s(), scalar(Type::I64)];
    // x has no clause: lower reports it, not the extent the front end made.
    let Some(r) = try_compile_kw(src, "f", "parallel", r#"{"default": "none"}"#, &args) else { return };
    let (mut m, _) = r.expect("compiles");
    let opts = accjit_lower::LowerOptions { device_type: "multicore".into() };
    let e = accjit_lower::lower(&mut m, &opts).expect_err("default(none) with an unlisted array fails").render(&SourceMap::new());
    has_err(&e, "`x` has no data clause");
    assert!(!e.contains("x_shape"), "{e}");
    let Some(ir) = ok(src, "f", "parallel", r#"{"default": "none", "copy": ["x"]}"#, &args) else { return };
    has(&ir, "default(none) copy(x) firstprivate(x_shape0)");
}

#[test]
fn private_names_first_assigned_in_the_body_are_accepted() {
    let src = r#"
def f(x, y):
    for i in acc.loop(x.shape[0]):
        t = x[i] * x[i]
        y[i] = t + 1.0
"#;
    let Some(ir) = ok(src, "f", "parallel", r#"{"private": ["t"]}"#, &[f64s(), f64s()]) else { return };
    lacks(&ir, "private(t)");
    let Some(e) = err(src, "f", "parallel", r#"{"private": ["u"]}"#, &[f64s(), f64s()]) else { return };
    has_err(&e, "unknown variable `u` in a clause");
    // A prologue scalar named private stays a clause.
    let src = r#"
def f(x, y):
    t = 0.0
    for i in acc.loop(x.shape[0]):
        t = x[i] * x[i]
        y[i] = t + 1.0
"#;
    let Some(ir) = ok(src, "f", "parallel", r#"{"private": ["t"]}"#, &[f64s(), f64s()]) else { return };
    has(&ir, "private(t)");
}

#[test]
fn scalars_stored_before_read_in_an_iteration_are_private_to_it() {
    let src = r#"
def f(x, y):
    t = 0.0
    acc_ = 0.0
    u = 0.0
    for i in acc.loop(x.shape[0]):
        t = x[i] * x[i]
        acc_ = acc_ + t
        if t > 1.0:
            u = t
        y[i] = t + 1.0 + u
    return acc_
"#;
    let Some(ir) = ok(src, "f", "parallel", "None", &[f64s(), f64s()]) else { return };
    has(&ir, "#acc loop private(t)");
    // An accumulator (read before stored) and a conditional store keep their attributes.
    lacks(&ir, "private(t, ");
    lacks(&ir, "private(acc_");
    lacks(&ir, "private(u");
    // seq loops run in order: nothing to privatise.
    let src = r#"
def g(x, y):
    t = 0.0
    for i in acc.loop(x.shape[0], seq=True):
        t = x[i]
        y[i] = t
"#;
    let Some(ir) = ok(src, "g", "parallel", "None", &[f64s(), f64s()]) else { return };
    lacks(&ir, "private(t)");
    // In a collapsed nest the store is in the innermost body.
    let src = r#"
def h(a, n):
    t = 0.0
    for i, j in acc.loop(range(n), range(n)):
        t = a[i, j] * 2.0
        a[i, j] = t
"#;
    let Some(ir) = ok(src, "h", "parallel", "None", &[f64_2d(), scalar(Type::I64)]) else { return };
    has(&ir, "#acc loop collapse(2) private(t)");
}

#[test]
fn reductions_reach_the_nested_partitioned_loops_that_update_the_variable() {
    let src = r#"
def f(a, n, m):
    s = 0.0
    for i in acc.loop(n, gang=True, reduction={"+": "s"}):
        for j in acc.loop(m, vector=True):
            s += a[i, j]
        for j in range(m):
            s += 1.0
    return s
"#;
    let args = [f64_2d(), scalar(Type::I64), scalar(Type::I64)];
    let Some(ir) = ok(src, "f", "parallel", "None", &args) else { return };
    has(&ir, "#acc loop gang reduction(+: s)");
    has(&ir, "#acc loop vector reduction(+: s)");
    // A sequential loop runs in one executor: no reduction of its own.
    lacks(&ir, "#acc loop seq reduction");
    let src = r#"
def g(a, n, m):
    s = 0.0
    for i in acc.loop(n, gang=True):
        for j in acc.loop(m, vector=True):
            s += a[i, j]
    return s
"#;
    let Some(ir) = ok(src, "g", "parallel", r#"{"reduction": {"+": "s"}}"#, &args) else { return };
    has(&ir, "#acc loop gang reduction(+: s)");
    has(&ir, "#acc loop vector reduction(+: s)");
}

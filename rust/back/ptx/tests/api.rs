//! The `accjit_back_ptx` API as the runtime sees it: launch facts of
//! kernels, globals for device code, and clean errors for what the device
//! cannot run. (C programs pass aggregates to kernels as snapshots, by
//! address: by-value `.b8` parameters come from other front ends.)

fn compile(src: &str) -> Result<accjit_back_ptx::PtxModule, String> {
    let mut sm = accjit_ir::SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).map_err(|d| d.render(&sm))?;
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "nvidia".into() }).map_err(|d| d.render(&sm))?;
    accjit_back_ptx::compile(&m, &Default::default()).map_err(|d| d.render(&sm))
}

#[test]
fn kernels_in_order_with_launch_hints() {
    let p = compile(
        "void f(int n, float *x, float *y) {\n\
         #pragma acc parallel loop copy(x[0:n])\n\
         for (int i = 0; i < n; i++) x[i] += 1.0f;\n\
         #pragma acc parallel loop gang num_workers(2) copy(y[0:n])\n\
         for (int i = 0; i < n; i += 8) {\n\
           #pragma acc loop worker\n\
           for (int j = i; j < i + 8; j++) y[j] *= 2.0f;\n\
         }\n\
         #pragma acc serial copy(x[0:1])\n\
         x[0] = 1.0f;\n\
         }\n",
    )
    .unwrap();
    assert_eq!(p.kernels.len(), 3);
    for k in &p.kernels {
        assert!(p.text.contains(&format!(".visible .entry {}(", k.entry)), "{}", k.entry);
        assert!(k.param_bytes.iter().all(|&b| b == 0));
    }
    // A gang vector loop: lanes, no workers, the runtime sizes the grid.
    assert_eq!((p.kernels[0].vector, p.kernels[0].workers, p.kernels[0].default_gangs), (256, 1, None));
    // Worker loops: a warp per worker.
    assert_eq!((p.kernels[1].vector, p.kernels[1].workers), (32, 4));
    // Nothing partitioned: one thread of one gang.
    assert_eq!((p.kernels[2].vector, p.kernels[2].workers), (1, 1));
    assert_eq!(p.kernels[2].max_gangs, Some(1));
    let first = p.text.find(&p.kernels[0].entry).unwrap();
    assert!(first < p.text.find(&p.kernels[1].entry).unwrap());
}

#[test]
fn routines_and_the_globals_they_read() {
    let p = compile(
        "float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n\
         #pragma acc declare copyin(table)\n\
         #pragma acc routine seq\n\
         float lookup(int i) { return table[i & 3]; }\n\
         void f(int n, float *y) {\n\
         #pragma acc parallel loop copy(y[0:n])\n\
         for (int i = 0; i < n; i++) y[i] = lookup(i);\n\
         }\n",
    )
    .unwrap();
    let g = p.globals.iter().find(|g| g.ir_name == "table").expect("the global is listed");
    assert_eq!(g.symbol, accjit_back_ptx::global_symbol("table"));
    assert_eq!(g.bytes, 16);
    assert!(p.text.contains(&format!(".visible .global .align 4 .b8 {}[16] = {{0, 0, 128, 63", g.symbol)), "{}", p.text);
    assert!(p.text.contains(".func (.param .f32 rv) __accjit_fn_lookup("));
    assert!(p.text.contains("call (crv), __accjit_fn_lookup"));
}

#[test]
fn what_the_device_cannot_run_is_an_error_at_its_line() {
    let e = compile(
        "#include <stdio.h>\n\
         void f(int n, int *y) {\n\
         #pragma acc parallel loop copy(y[0:n])\n\
         for (int i = 0; i < n; i++) y[i] = fopen(\"a\", \"r\") != 0;\n\
         }\n",
    )
    .unwrap_err();
    assert!(e.contains("t.c:4:") && e.contains("'fopen'") && e.contains("nvidia device"), "{e}");
    let e = compile(
        "typedef int (*fn)(int);\n\
         #pragma acc routine seq\n\
         int twice(int x) { return 2 * x; }\n\
         void f(int n, int *y, fn g) {\n\
         #pragma acc parallel loop copy(y[0:n])\n\
         for (int i = 0; i < n; i++) y[i] = g(i);\n\
         }\n",
    )
    .unwrap_err();
    assert!(e.contains("not supported on the nvidia device yet") && e.contains("t.c:6:"), "{e}");
}

#[test]
fn global_symbols_are_ptx_identifiers_and_distinct() {
    let a = accjit_back_ptx::global_symbol(".accjit.str.0");
    let b = accjit_back_ptx::global_symbol("_accjit_str_0");
    assert_ne!(a, b);
    for s in [&a, &b] {
        assert!(s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$'), "{s}");
        assert!(!s.starts_with(|c: char| c.is_ascii_digit()));
    }
}

#[test]
fn cached_arrays_the_kernel_cannot_change_use_the_read_only_path() {
    let read = |body: &str| {
        let src = format!(
            "void f(int n, float *a, float *b) {{\n\
             #pragma acc parallel loop copy(a[0:n], b[0:n])\n\
             for (int i = 1; i < n - 1; i++) {{\n\
             #pragma acc cache(a[i-1:3])\n\
             {body}\n\
             }}\n\
             }}\n"
        );
        compile(&src).unwrap().text.matches("ld.global.nc.f32").count()
    };
    assert_eq!(read("b[i] = a[i - 1] + a[i] + a[i + 1];"), 3);
    // Stored through, or reassigned: an ordinary load.
    assert_eq!(read("b[i] = a[i - 1] + a[i + 1]; a[i] = 0.0f;"), 0);
    assert_eq!(read("b[i] = a[i]; a = b;"), 0);
}

//! Loop code generation for speed (unroll.rs, pairs.rs, index.rs, strength.rs,
//! space.rs):
//! what moves, what must not, and which form a loop gets.

/// The default tuning but the unrolling of sequential loops (tested on its
/// own below), which would multiply what these tests count, and with the
/// unrolled loops' iterations strided and loaded one by one (the mechanism
/// these tests check; the default map and its vector loads are tested
/// below on their own).
fn compile(src: &str) -> String {
    compile_tuned(
        src,
        accjit_back_ptx::Tuning { seq_unroll: 1, unroll_map: accjit_back_ptx::UnrollMap::Strided, vector_loads: false, fma: false, ..Default::default() },
    )
}

/// A one-loop kernel over float arrays x, y, z with body `body`.
fn kernel(body: &str) -> String {
    compile(&format!(
        "#include <math.h>\n\
         void f(long n, float *x, float *y, float *z) {{\n\
         #pragma acc parallel loop present(x[0:n], y[0:n], z[0:n])\n\
         for (long i = 0; i < n; i++) {{ {body} }}\n\
         }}\n"
    ))
}

/// Memory loads (global or generic, not param/shared) before the kernel's
/// first store to memory: the unrolled main loop's prefetched loads.
fn loads_before_first_store(text: &str) -> usize {
    let body = &text[text.find(".entry").unwrap()..];
    let first_store = body.find("\n    st.").or_else(|| body.find("atom.")).unwrap_or(body.len());
    body[..first_store]
        .lines()
        .filter(|l| l.trim_start().starts_with("ld.global.") || l.trim_start().starts_with("ld.f") || l.trim_start().starts_with("ld.s"))
        .count()
}

#[test]
fn unrolled_loops_issue_four_iterations_of_leading_loads_first() {
    // saxpy: two loads per iteration, four iterations, then the stores.
    assert_eq!(loads_before_first_store(&kernel("y[i] = 2.0f * x[i] + y[i];")), 8);
    // The plain loop for the rest is still there: one more copy of the body.
    assert_eq!(kernel("y[i] = 2.0f * x[i] + y[i];").matches("mul.rn.f32").count(), 5);
}

#[test]
fn loads_after_a_store_or_under_a_condition_stay_in_place() {
    // y[i] is read after this iteration stored it: only x[i] moves.
    assert_eq!(loads_before_first_store(&kernel("y[i] = x[i]; z[i] = y[i] * 2.0f;")), 4);
    // z[i] is read only when the condition holds: only x[i] moves (the
    // four x[i], then the first body's own z[i] before its store; 8 if z
    // had moved too).
    assert_eq!(loads_before_first_store(&kernel("if (x[i] > 0.0f) y[i] = z[i];")), 5);
    // An address from a local the body writes is computed per iteration
    // (nothing to move: the loop is not unrolled; the one load is the
    // body's own).
    assert_eq!(loads_before_first_store(&kernel("long j = i; j = n - 1 - j; y[i] = x[j];")), 1);
}

#[test]
fn bodies_with_calls_or_loops_are_not_unrolled() {
    assert_eq!(kernel("y[i] = sqrtf(x[i]);").matches("sqrt.rn.f32").count(), 1);
    assert_eq!(kernel("float s = 0.0f; for (int k = 0; k < 3; k++) s += x[i]; y[i] = s;").matches("add.rn.f32").count(), 1);
}

#[test]
fn sums_keep_their_accumulation_order_in_the_unrolled_loop() {
    let text = compile(
        "double f(long n, float *x) {\n\
         double s = 0.0;\n\
         #pragma acc parallel loop reduction(+:s) present(x[0:n])\n\
         for (long i = 0; i < n; i++) s += x[i];\n\
         return s;\n\
         }\n",
    );
    // Four loads, then four dependent adds into the one accumulator.
    let body = &text[text.find(".entry").unwrap()..];
    let first_add = body.find("add.rn.f64").unwrap();
    assert_eq!(body[..first_add].matches("ld.global.f32").count(), 4);
    let rest = &body[first_add..];
    let next_load = rest.find("ld.global").unwrap();
    assert_eq!(rest[..next_load].matches("add.rn.f64").count(), 4);
}

#[test]
fn matrix_products_get_a_tiled_and_a_flat_form_with_registers_for_addresses() {
    let text = compile(
        "void f(int n, const float *P, const float *Q, float *R) {\n\
         #pragma acc parallel loop gang collapse(2) present(P[0:n*n], Q[0:n*n], R[0:n*n])\n\
         for (int i = 0; i < n; i++)\n\
         for (int j = 0; j < n; j++) {\n\
         float s = 0.0f;\n\
         #pragma acc loop seq\n\
         for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j];\n\
         R[i * n + j] = s;\n\
         }\n\
         }\n",
    );
    // The body in the tiled form and the flat one, chosen at run time
    // (pairs.rs); not unrolled (a collapsed nest).
    assert_eq!(text.matches("mul.rn.f32").count(), 2);
    assert!(text.contains("setp.ge.and.s64"));
    // In each form: the store's index adds its two terms separately; the
    // k loop's two addresses add their invariant term once before the loop
    // and advance with k (strength.rs); loads through the parameters are
    // global.
    assert_eq!(text.matches("mad.wide.s32").count(), 8);
    assert_eq!(text.matches("mul.wide.s32").count(), 2, "Q's step, 4*n bytes");
    assert!(text.contains("ld.global.f32") && !text.contains("ld.f32"));
}

#[test]
fn only_pointer_parameters_the_kernel_never_changes_are_global() {
    let text = compile(
        "void f(int n, float *a, float *b) {\n\
         #pragma acc parallel copy(a[0:n], b[0:n])\n\
         {\n\
         b[0] = a[0] + b[2];\n\
         a = b;\n\
         b[1] = a[1];\n\
         }\n\
         }\n",
    );
    // b is only read: global; a is reassigned: generic.
    assert_eq!(text.matches("ld.global.f32").count(), 1);
    assert_eq!(text.matches("ld.f32").count(), 2);
}

#[test]
fn registers_are_capped_only_for_small_unrolled_kernels_with_few_loads() {
    assert!(kernel("y[i] = 2.0f * x[i] + y[i];").contains(".maxnreg 32"));
    // Three loads per iteration (twelve in flight) would spill in 32.
    assert!(!kernel("y[i] = x[i] + y[i] + z[i];").contains(".maxnreg"));
    // Not unrolled: no cap.
    assert!(!kernel("y[i] = sqrtf(x[i]);").contains(".maxnreg"));
}

/// A kernel whose gang loop runs the counted loop `inner` over k.
fn counted(inner: &str) -> String {
    compile(&format!(
        "void f(int n, const float *P, float *R) {{\n\
         #pragma acc parallel loop present(P[0:n*n], R[0:n])\n\
         for (int i = 0; i < n; i++) {{\n\
         float s = 0.0f;\n\
         {inner}\n\
         R[i] = s;\n\
         }}\n\
         }}\n"
    ))
}

/// Lines `add.s64 %a, %a, %b`: registers advanced by a register step.
fn advanced(text: &str) -> usize {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("add.s64 "))
        .filter(|ops| {
            let v: Vec<&str> = ops.trim_end_matches(';').split(", ").collect();
            v.len() == 3 && v[0] == v[1] && v[2].starts_with("%rd")
        })
        .count()
}

#[test]
fn counted_loops_advance_their_addresses_instead_of_recomputing_them() {
    let base = advanced(&counted("for (int k = 0; k < n; k++) s += 1.0f;"));
    // P[i*n + k] and P[k*n + i]: computed once before the loop, then
    // advanced by 4 (or 4*n) bytes at each step.
    assert_eq!(advanced(&counted("for (int k = 0; k < n; k++) s += P[i * n + k];")), base + 1);
    assert_eq!(advanced(&counted("for (int k = 0; k < n; k++) s += P[k * n + i] * P[i * n + k];")), base + 2);
    // A loop that changes k in its body, or steps by 2, recomputes them.
    for inner in ["for (int k = 0; k < n; k++) { s += P[i * n + k]; if (s > 1.0f) k++; }", "for (int k = 0; k < n; k += 2) s += P[i * n + k];"] {
        assert_eq!(advanced(&counted(inner)), base, "{inner}");
    }
}

#[test]
fn kernels_with_private_storage_are_not_register_capped() {
    // A vector loop reducing into per-lane copies of an array section:
    // unrolled, but the kernel allocates copies (stack or heap).
    let text = compile(
        "void f(int n, const int *v, long *h) {\n\
         #pragma acc parallel loop gang copyin(v[0:n*64]) copy(h[0:11])\n\
         for (int g = 0; g < n; g++) {\n\
         #pragma acc loop vector reduction(+:h[0:11])\n\
         for (int j = 0; j < 64; j++) { int x = v[g * 64 + j]; h[x % 11] += x; }\n\
         }\n\
         }\n",
    );
    assert_eq!(text.matches("ld.global.s32").count(), 5, "four prefetched v[] loads and the plain loop's");
    assert!(!text.contains(".maxnreg"));
}

fn compile_tuned(src: &str, tuning: accjit_back_ptx::Tuning) -> String {
    let mut sm = accjit_ir::SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).map_err(|d| d.render(&sm)).unwrap();
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "nvidia".into() }).map_err(|d| d.render(&sm)).unwrap();
    let opts = accjit_back_ptx::PtxOptions { tuning, ..Default::default() };
    accjit_back_ptx::compile(&m, &opts).map_err(|d| d.render(&sm)).unwrap().text
}

/// `counted(inner)` compiled with `seq_unroll` = `times` (the copies'
/// loads in place: `seq_vector_loads` is tested on its own).
fn counted_unrolled(inner: &str, times: u32) -> String {
    compile_tuned(
        &format!(
            "void f(int n, const float *P, float *R) {{\n\
             #pragma acc parallel loop present(P[0:n*n], R[0:n])\n\
             for (int i = 0; i < n; i++) {{\n\
             float s = 0.0f;\n\
             {inner}\n\
             R[i] = s;\n\
             }}\n\
             }}\n"
        ),
        accjit_back_ptx::Tuning { seq_unroll: times, seq_vector_loads: false, fma: false, ..Default::default() },
    )
}

fn global_loads(text: &str) -> usize {
    text.lines().filter(|l| l.trim_start().starts_with("ld.global.")).count()
}

#[test]
fn counted_sequential_loops_run_several_iterations_per_test() {
    let inner = "for (int k = 0; k < n; k++) s += P[i * n + k] * P[k * n + i];";
    let plain = global_loads(&counted_unrolled(inner, 1));
    // Four copies of the body's two loads before the plain loop's two.
    assert_eq!(global_loads(&counted_unrolled(inner, 4)), plain + 4 * 2);
    let text = counted_unrolled(inner, 4);
    // The test is k + 3 < n, in 64 bits.
    assert!(text.contains("sub.s64") && text.contains("setp.ge.s64"), "{text}");
    // Bodies that leave the loop or loops with other conditions stay plain.
    for other in [
        "for (int k = 0; k < n; k++) { s += P[i * n + k]; if (s > 4.0f) break; }",
        "for (int k = 0; k <= n; k++) s += P[i * n + k];",
        "for (int k = 0; k < n; k += 2) s += P[i * n + k];",
        "for (int k = 0; k < n; k++) { int q = 0; while (q < 2) { s += P[i * n + k]; q++; } }",
    ] {
        assert_eq!(global_loads(&counted_unrolled(other, 4)), global_loads(&counted_unrolled(other, 1)), "{other}");
    }
}

#[test]
fn fma_contraction_follows_its_knob() {
    let src = "void f(int n, const float *x, float *y) {\n\
               #pragma acc parallel loop present(x[0:n], y[0:n])\n\
               for (int i = 0; i < n; i++) y[i] = y[i] + 2.0f * x[i];\n\
               }\n";
    let exact = compile_tuned(src, accjit_back_ptx::Tuning { fma: false, ..Default::default() });
    assert!(exact.contains("mul.rn.f32") && exact.contains("add.rn.f32"), "{exact}");
    // The default contracts (as nvcc and NVHPC).
    let fused = compile_tuned(src, Default::default());
    assert!(!fused.contains("mul.rn.f32") && fused.contains("mul.f32") && fused.contains("add.f32"), "{fused}");
}

/// `src` compiled with the default tuning changed by `knobs` (`Tuning::apply`).
fn compile_knobs(src: &str, knobs: &str) -> String {
    let mut t =
        accjit_back_ptx::Tuning { seq_unroll: 1, unroll_map: accjit_back_ptx::UnrollMap::Strided, vector_loads: false, fma: false, ..Default::default() };
    t.apply(knobs).unwrap();
    compile_tuned(src, t)
}

const SAXPY: &str = "void f(long n, float a, const float *x, float *y) {\n\
     #pragma acc parallel loop gang vector present(x[0:n], y[0:n])\n\
     for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n\
     }\n";

#[test]
fn knobs_parse_by_name_and_refuse_unknown_ones() {
    let mut t = accjit_back_ptx::Tuning::default();
    t.apply("block=128, tile_cols=64,stream_stores=1 nc_loads=on").unwrap();
    assert_eq!((t.block, t.tile_cols, t.stream_stores, t.nc_loads), (128, 64, true, true));
    assert!(t.apply("tile_cols=48").unwrap_err().contains("power of two"));
    assert!(t.apply("no_such_knob=1").unwrap_err().contains("no_such_knob"));
    assert!(t.apply("fma").is_err());
}

#[test]
fn a_kernel_that_is_one_loop_has_no_block_barriers() {
    assert_eq!(compile(SAXPY).matches("bar.sync").count(), 0);
    // The knob off: the barriers around the loop come back.
    assert_eq!(compile_knobs(SAXPY, "lean_barriers=0").matches("bar.sync").count(), 2);
    // A store before the loop (by the single executor) must be seen by
    // the loop's threads: the barrier before it stays; nothing follows the
    // loop, so none after it.
    let text = compile(
        "void f(long n, float *x, float *y) {\n\
         #pragma acc parallel present(x[0:n], y[0:n])\n\
         {\n\
         y[0] = 1.0f;\n\
         #pragma acc loop gang vector\n\
         for (long i = 1; i < n; i++) x[i] = y[0];\n\
         }\n\
         }\n",
    );
    assert_eq!(text.matches("bar.sync").count(), 1);
    // Code after the loop reads what the threads stored: the barrier after it stays.
    let text = compile(
        "void f(long n, float *x, float *y) {\n\
         #pragma acc parallel present(x[0:n], y[0:n])\n\
         {\n\
         #pragma acc loop gang vector\n\
         for (long i = 0; i < n; i++) x[i] = 2.0f;\n\
         y[0] = x[n - 1];\n\
         }\n\
         }\n",
    );
    assert_eq!(text.matches("bar.sync").count(), 1);
}

#[test]
fn streaming_stores_and_read_only_loads_follow_their_knobs() {
    let text = compile_knobs(SAXPY, "stream_stores=1,nc_loads=1");
    // y is written: its loads stay coherent; x is only read.
    assert!(text.contains("st.global.cs.f32"));
    assert!(text.contains("ld.global.nc.f32"));
    let body = &text[text.find(".entry").unwrap()..];
    let y_loads_nc = body.lines().filter(|l| l.contains("ld.global.nc")).count();
    let all_loads = body.lines().filter(|l| l.contains("ld.global")).count();
    assert_eq!(y_loads_nc * 2, all_loads, "only x's loads (half of them) take the read-only path");
    let plain = compile(SAXPY);
    assert!(!plain.contains(".cs") && !plain.contains(".nc"));
    // A call that gets a pointer may store through it: no read-only loads at all.
    let text = compile_knobs(
        "#pragma acc routine seq\n\
         void g(float *p) { *p = 0.0f; }\n\
         void f(long n, const float *x, float *y) {\n\
         #pragma acc parallel loop present(x[0:n], y[0:n])\n\
         for (long i = 0; i < n; i++) { y[i] = x[i]; g((float *)x + i); }\n\
         }\n",
        "nc_loads=1",
    );
    assert!(!text.contains("ld.global.nc"));
}

#[test]
fn tile_columns_and_stencil_tiles_follow_their_knobs() {
    let jacobi = "void f(int m, const float *A, float *B) {\n\
         #pragma acc parallel loop collapse(2) present(A[0:m*m], B[0:m*m])\n\
         for (int i = 1; i < m - 1; i++)\n\
         for (int j = 1; j < m - 1; j++)\n\
         B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);\n\
         }\n";
    // No loop in the body: flat unless tile_flat_pairs.
    assert!(!compile(jacobi).contains("shr.u32"));
    let tiled = compile_knobs(jacobi, "tile_flat_pairs=1,tile_cols=64");
    assert!(tiled.contains("shr.u32") && tiled.contains(", 6;"), "64 columns: shifts by 6");
    // The tiled form falls back to the flat one: both loops are there (two stores of B).
    assert_eq!(tiled.matches("st.f32").count(), 2);
}

#[test]
fn unroll_maps_and_vector_loads_follow_their_knobs() {
    // Eight iterations at a time: sixteen leading loads before the first store.
    assert_eq!(loads_before_first_store(&compile_knobs(SAXPY, "unroll_factor=8")), 16);
    // Consecutive iterations per thread, loaded as two v4 loads (x and y)
    // where the run time finds them consecutive and aligned, and as eight
    // scalar loads otherwise.
    let text = compile_knobs(SAXPY, "unroll_map=thread,vector_loads=1");
    assert_eq!(text.matches("ld.global.v4.f32").count(), 2);
    assert_eq!(loads_before_first_store(&text), 10);
    // The bodies still run in order, one store each, then the plain loop's.
    assert_eq!(text.matches("st.f32").count(), 5);
    // Vector loads need the thread map; doubles go in pairs.
    assert!(!compile_knobs(SAXPY, "unroll_map=blocked,vector_loads=1").contains(".v4"));
    let dsaxpy = SAXPY.replace("float", "double").replace("a * x[i]", "a * x[i] ");
    let text = compile_knobs(&dsaxpy, "unroll_map=thread,vector_loads=1");
    assert_eq!(text.matches("ld.global.v2.f64").count(), 4);
    // A load at the same address in every iteration is loaded once and
    // does not stop the others' vector loads.
    let text = compile_knobs(
        "void f(long n, const float *c, const float *x, float *y) {\n\
         #pragma acc parallel loop present(c[0:1], x[0:n], y[0:n])\n\
         for (long i = 0; i < n; i++) y[i] = x[i] * c[0];\n\
         }\n",
        "unroll_map=thread,vector_loads=1",
    );
    assert_eq!(text.matches("ld.global.v4.f32").count(), 1);
    assert_eq!(loads_before_first_store(&text), 1 + 1 + 4);
    // An address that reads memory (a gather) keeps scalar loads.
    let gather = compile_knobs(
        "void f(long n, const int *ix, const float *x, float *y) {\n\
         #pragma acc parallel loop present(ix[0:n], x[0:n], y[0:n])\n\
         for (long i = 0; i < n; i++) y[i] = x[ix[i]];\n\
         }\n",
        "unroll_map=thread,vector_loads=1",
    );
    assert!(!gather.contains(".v4"));
    // The strided map keeps the measured register cap; other shapes do not get it.
    assert!(compile(SAXPY).contains(".maxnreg 32"));
    // The default: consecutive iterations per thread with vector loads.
    let text = compile_tuned(SAXPY, accjit_back_ptx::Tuning::default());
    assert_eq!(text.matches("ld.global.v4.f32").count(), 2);
    assert!(!compile_knobs(SAXPY, "unroll_map=blocked").contains(".maxnreg"));
}

#[test]
fn collapsed_loops_unroll_only_with_their_knob() {
    let src = "void f(int m, const float *A, float *B) {\n\
         #pragma acc parallel loop collapse(2) present(A[0:m*m], B[0:m*m])\n\
         for (int i = 0; i < m; i++)\n\
         for (int j = 0; j < m; j++)\n\
         B[i * m + j] = 2.0f * A[i * m + j];\n\
         }\n";
    assert_eq!(loads_before_first_store(&compile(src)), 1);
    assert_eq!(loads_before_first_store(&compile_knobs(src, "unroll_collapsed=1")), 4);
    assert_eq!(loads_before_first_store(&compile_knobs(src, "unroll_collapsed=1,unroll_factor=2")), 2);
}

#[test]
fn counted_loops_load_their_rows_as_vectors_with_the_knob() {
    let on = |inner: &str| {
        let mut t = accjit_back_ptx::Tuning { seq_unroll: 16, ..Default::default() };
        t.apply("seq_vector_loads=1").unwrap();
        compile_tuned(
            &format!(
                "void f(int n, const float *P, float *R) {{\n\
                 #pragma acc parallel loop present(P[0:n*n], R[0:n])\n\
                 for (int i = 0; i < n; i++) {{\n\
                 float s = 0.0f;\n\
                 {inner}\n\
                 R[i] = s;\n\
                 }}\n\
                 }}\n"
            ),
            t,
        )
    };
    // P[i*n + k] for 16 copies: four v4 loads (then the scalar copies for unaligned rows).
    let text = on("for (int k = 0; k < n; k++) s += P[i * n + k];");
    assert_eq!(text.matches("ld.global.v4.f32").count(), 4);
    assert!(text.contains("and.b64"), "the alignment is checked at run time");
    // A column (P[k*n + i]) is not consecutive; a body that stores to memory keeps its loads in place.
    assert!(!on("for (int k = 0; k < n; k++) s += P[k * n + i];").contains(".v4"));
    assert!(!on("for (int k = 0; k < n; k++) { s += P[i * n + k]; R[i] = s; }").contains(".v4"));
    assert!(!counted_unrolled("for (int k = 0; k < n; k++) s += P[i * n + k];", 16).contains(".v4"));
}

#[test]
fn kernels_with_tiled_loop_pairs_suggest_their_own_block() {
    let kernel = |src: &str, knobs: &str| {
        let mut sm = accjit_ir::SourceMap::new();
        let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).unwrap();
        accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "nvidia".into() }).unwrap();
        let mut opts = accjit_back_ptx::PtxOptions::default();
        opts.tuning.apply(knobs).unwrap();
        accjit_back_ptx::compile(&m, &opts).unwrap().kernels[0].clone()
    };
    let matmul = "void f(int n, const float *P, const float *Q, float *R) {\n\
         #pragma acc parallel loop gang collapse(2) present(P[0:n*n], Q[0:n*n], R[0:n*n])\n\
         for (int i = 0; i < n; i++)\n\
         for (int j = 0; j < n; j++) {\n\
         float s = 0.0f;\n\
         for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j];\n\
         R[i * n + j] = s;\n\
         }\n\
         }\n";
    assert_eq!(kernel(matmul, "").vector, 128);
    assert_eq!(kernel(matmul, "tile_block=0").vector, 256);
    assert_eq!(kernel(matmul, "tiles=0").vector, 256);
    assert_eq!(kernel(SAXPY, "").vector, 256);
    assert_eq!(kernel(SAXPY, "block=512").vector, 512);
    // Launch bounds for such kernels only, with the knob.
    let text = compile_knobs(matmul, "tile_min_blocks=8");
    assert!(text.contains(".maxntid 128, 1, 1\n.minnctapersm 8"));
    assert!(compile(matmul).contains(".maxntid 128, 1, 1\n.minnctapersm 8"), "the default");
    assert!(!compile_knobs(matmul, "tile_min_blocks=0").contains(".maxntid"));
    assert!(!compile_knobs(SAXPY, "tile_min_blocks=8").contains(".maxntid"));
}

#[test]
fn counted_loops_prefetch_their_copies_loads_with_the_knob() {
    let src = "void f(int n, const float *P, const float *Q, float *R) {\n\
         #pragma acc parallel loop gang collapse(2) present(P[0:n*n], Q[0:n*n], R[0:n*n])\n\
         for (int i = 0; i < n; i++)\n\
         for (int j = 0; j < n; j++) {\n\
         float s = 0.0f;\n\
         for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j];\n\
         R[i * n + j] = s;\n\
         }\n\
         }\n";
    let mut t = accjit_back_ptx::Tuning { seq_unroll: 16, fma: false, ..Default::default() };
    t.apply("seq_prefetch=1,seq_vector_loads=0").unwrap();
    let text = compile_tuned(src, t);
    // All 32 loads of the 16 copies come before their first multiply.
    let body = &text[text.find(".entry").unwrap()..];
    let first_mul = body.find("mul.rn.f32").unwrap();
    assert_eq!(body[..first_mul].matches("ld.global.f32").count(), 32);
}

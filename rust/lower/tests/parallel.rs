//! Outlining of parallel/serial constructs, implicit data, launches.
mod common;
use accjit_ir::*;
use common::*;

/// `void saxpy(int n, float a, const float *x, float *y)` with
/// `#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])`.
pub fn saxpy() -> Module {
    let mut b = B::new("saxpy", &[("n", Type::I32), ("a", Type::F32), ("x", fptr()), ("y", fptr())], Type::Void);
    let (n, a, x, y) = (b.p(0), b.p(1), b.p(2), b.p(3));
    let dsp = b.span();
    let zero = b.int(0);
    let nv = b.load(n);
    let lp = b.for_decl(
        "i",
        zero,
        BinOp::Lt,
        nv,
        |b, i| {
            let av = b.load(a);
            let iv = b.load(i);
            let xi = b.index(x, iv);
            let xv = b.load_place(xi);
            let m = b.bin(BinOp::Mul, av, xv);
            let iv2 = b.load(i);
            let yi = b.index(y, iv2);
            let yv = b.load_place(yi);
            let s = b.bin(BinOp::Add, m, yv);
            let iv3 = b.load(i);
            let yi2 = b.index(y, iv3);
            vec![b.assign_stmt(yi2, s)]
        },
        Some(plain_loop(ComputeKind::Parallel, dsp)),
    );
    let mut c = compute(ComputeKind::Parallel, vec![lp], dsp);
    c.combined = true;
    let nl = b.load(n);
    let xs = b.section(x, 0, nl);
    let nl = b.load(n);
    let ys = b.section(y, 0, nl);
    c.data = vec![b.clause(DataClauseKind::CopyIn, vec![xs]), b.clause(DataClauseKind::Copy, vec![ys])];
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    b.finish()
}

#[test]
fn saxpy_outlined() {
    let (m, text) = lower_ok(saxpy());
    assert_eq!(m.kernels.len(), 1, "{}", text);
    let k = &m.kernels[0];
    assert_eq!(k.name, "saxpy_parallel_0");
    let kinds: Vec<(&str, &ParamKind)> = k.params.iter().map(|p| (p.name.as_str(), &p.kind)).collect();
    assert_eq!(kinds, vec![("n", &ParamKind::Value), ("a", &ParamKind::Value), ("x", &ParamKind::DeviceAddr), ("y", &ParamKind::DeviceAddr)], "{}", text);
    assert!(text.contains("decl %__acc_ub.4: i64 = cast<i64>(%n.0);\n  decl %__acc_trip.5: i64 = (%__acc_ub.4 > 0:i64) ? %__acc_ub.4 : 0:i64;\n  acc_loop gang vector [%i.6 = 0:i64 step 1:i64 trip %__acc_trip.5] {\n    *(%y.3 + cast<i64>(%i.6)) = (%a.1 * *(%x.2 + cast<i64>(%i.6))) + *(%y.3 + cast<i64>(%i.6));"), "{}", text);
    // Host: two enters (copyin=1, copy=0), the launch, exits in reverse order.
    let host = print::function_to_string(&m, &m.functions[0]);
    let enter_x = host.find("$__accjit_data_enter(1:i64").expect("copyin enter");
    let enter_y = host.find("$__accjit_data_enter(0:i64").expect("copy enter");
    let launch = host.find("launch k0 @saxpy_parallel_0(%n.0, %a.1, %x.2, %y.3)").expect(&host);
    let exit_y = host.find("$__accjit_data_exit(0:i64").expect("copy exit");
    let exit_x = host.find("$__accjit_data_exit(1:i64").expect("copyin exit");
    assert!(enter_x < enter_y && enter_y < launch && launch < exit_y && exit_y < exit_x, "{}", host);
    // Each runtime entry point declared once.
    let names: Vec<&str> = m.externs.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["__accjit_data_enter", "__accjit_data_exit"]);
}

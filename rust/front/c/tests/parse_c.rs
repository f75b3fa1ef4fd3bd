//! C constructs produce the expected IR shapes (types and expression kinds).

use accjit_front_c::{compile, CompileOptions};
use accjit_ir::*;

fn ok(src: &str) -> Module {
    let mut sm = SourceMap::new();
    match compile(&mut sm, "t.c", src, &CompileOptions::default()) {
        Ok(m) => m,
        Err(d) => panic!("unexpected errors:\n{}", d.render(&sm)),
    }
}

fn func<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.functions.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no function {}", name))
}

/// All statements of a block, recursively, in order.
fn all_stmts(b: &Block) -> Vec<&Stmt> {
    let mut v = vec![];
    for s in &b.stmts {
        v.push(s);
        match &s.kind {
            StmtKind::If(_, a, c) => {
                v.extend(all_stmts(a));
                v.extend(all_stmts(c));
            }
            StmtKind::While(_, a) | StmtKind::DoWhile(a, _) | StmtKind::Block(a) => v.extend(all_stmts(a)),
            StmtKind::For { init, body, .. } => {
                v.extend(all_stmts(init));
                v.extend(all_stmts(body));
            }
            StmtKind::Switch(_, cases) => cases.iter().for_each(|c| v.extend(all_stmts(&c.body))),
            StmtKind::Compute(c) => v.extend(all_stmts(&c.body)),
            StmtKind::Data(c) => v.extend(all_stmts(&c.body)),
            _ => {}
        }
    }
    v
}

/// The expression of the `k`-th expression statement.
fn expr_stmt(f: &Function, k: usize) -> &Expr {
    let ids: Vec<ExprId> = all_stmts(&f.body)
        .into_iter()
        .filter_map(|s| match s.kind {
            StmtKind::Expr(e) => Some(e),
            _ => None,
        })
        .collect();
    f.expr(ids[k])
}

fn decl_init<'f>(f: &'f Function, name: &str) -> &'f Expr {
    for s in all_stmts(&f.body) {
        if let StmtKind::Decl(l, Some(e)) = s.kind {
            if f.local(l).name == name {
                return f.expr(e);
            }
        }
    }
    panic!("no initialised declaration of {}", name)
}

fn strip<'a>(f: &'a Function, mut e: &'a Expr) -> Expr {
    while let ExprKind::Cast(a) = e.kind {
        e = f.expr(a);
    }
    e.clone()
}

#[test]
fn integer_promotions_and_usual_conversions() {
    let m = ok("int f(short a, char b, unsigned u, long l) { a + b; u + l; u + 1; return a; }");
    let f = func(&m, "f");
    let e = expr_stmt(f, 0);
    assert_eq!(e.ty, Type::I32);
    let ExprKind::Binary(BinOp::Add, x, y) = e.kind else { panic!("{:?}", e.kind) };
    assert!(matches!(f.expr(x).kind, ExprKind::Cast(_)));
    assert_eq!(f.expr(y).ty, Type::I32);
    assert_eq!(expr_stmt(f, 1).ty, Type::I64);
    assert_eq!(expr_stmt(f, 2).ty, Type::Scalar(Scalar::U32));
}

#[test]
fn comparisons_yield_int_and_logical_ops_take_truth_values() {
    let m = ok("void f(double x, double y, int *p) { x < y; p && x; !p; }");
    let f = func(&m, "f");
    let e = expr_stmt(f, 0);
    assert_eq!(e.ty, Type::I32);
    let ExprKind::Binary(BinOp::Lt, a, _) = e.kind else { panic!() };
    assert_eq!(f.expr(a).ty, Type::F64);
    let e = expr_stmt(f, 1);
    let ExprKind::Binary(BinOp::LogAnd, a, b) = e.kind else { panic!() };
    assert_eq!(f.expr(a).ty, Type::I32);
    assert_eq!(f.expr(b).ty, Type::I32);
    assert!(matches!(expr_stmt(f, 2).kind, ExprKind::Unary(UnOp::LogNot, _)));
}

#[test]
fn pointer_arithmetic_is_left_scaled_to_the_ir() {
    let m = ok("long f(double *p, double *q, int i) { p + i; p - q; return p[i] > 0; }");
    let f = func(&m, "f");
    let e = expr_stmt(f, 0);
    assert_eq!(e.ty, Type::ptr(Type::F64));
    let ExprKind::Binary(BinOp::Add, _, i) = e.kind else { panic!() };
    assert_eq!(f.expr(i).ty, Type::I64, "index widened to i64");
    let e = expr_stmt(f, 1);
    assert_eq!(e.ty, Type::I64);
    assert!(matches!(e.kind, ExprKind::Binary(BinOp::Sub, _, _)));
}

#[test]
fn arrays_decay_with_addrof() {
    let m = ok("void f(void) { int a[4]; int *p = a; int (*q)[4] = &a; p[1] = 2; }");
    let f = func(&m, "f");
    let e = decl_init(f, "p");
    assert_eq!(e.ty, Type::ptr(Type::I32));
    let ExprKind::AddrOf(pl) = e.kind else { panic!("{:?}", e.kind) };
    assert!(matches!(f.expr(pl).kind, ExprKind::Local(_)));
    let e = decl_init(f, "q");
    assert_eq!(e.ty, Type::ptr(Type::Array(Box::new(Type::I32), Some(4))));
    let e = expr_stmt(f, 0);
    let ExprKind::Assign(pl, _) = e.kind else { panic!() };
    assert!(matches!(f.expr(pl).kind, ExprKind::Deref(_)));
}

#[test]
fn string_literals_are_const_globals() {
    let m = ok("const char *f(void) { return \"a\\tb\" \"c\"; }");
    let g = m.globals.iter().find(|g| g.name.starts_with(".str")).expect("string global");
    assert!(g.is_const);
    assert_eq!(g.ty, Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(5)));
    assert_eq!(g.init.as_ref().unwrap().bytes, b"a\tbc\0".to_vec());
    let f = func(&m, "f");
    let StmtKind::Return(Some(r)) = f.body.stmts[0].kind else { panic!() };
    let ExprKind::AddrOf(p) = strip(f, f.expr(r)).kind else { panic!() };
    assert!(matches!(f.expr(p).kind, ExprKind::Global(_)));
}

#[test]
fn static_locals_become_internal_globals() {
    let m = ok("int counter(void) { static int n = 5; return ++n; }");
    let g = m.globals.iter().find(|g| g.name == "counter.n").expect("static local global");
    assert_eq!(g.linkage, Linkage::Internal);
    assert_eq!(g.init.as_ref().unwrap().bytes, 5i32.to_le_bytes().to_vec());
}

#[test]
fn struct_layout_and_members() {
    let m = ok("struct s { char c; double d; int i; }; struct node { int v; struct node *next; };\n\
                int f(struct s *p, struct node n) { p->d = 1; return n.next->v; }");
    let s = m.structs.iter().find(|s| s.name == "s").unwrap();
    assert_eq!(s.fields.iter().map(|f| f.offset).collect::<Vec<_>>(), vec![0, 8, 16]);
    assert_eq!((s.size, s.align), (24, 8));
    let n = m.structs.iter().find(|s| s.name == "node").unwrap();
    assert!(matches!(&n.fields[1].ty, Type::Ptr(t) if matches!(**t, Type::Struct(_))));
    let f = func(&m, "f");
    let ExprKind::Assign(pl, _) = expr_stmt(f, 0).kind else { panic!() };
    let ExprKind::Member(b, 1) = f.expr(pl).kind else { panic!() };
    assert!(matches!(f.expr(b).kind, ExprKind::Deref(_)));
}

#[test]
fn unions_overlap() {
    let m = ok("union u { int i; double d; char c[12]; }; int f(union u x) { return x.i; }");
    let u = m.structs.iter().find(|s| s.name == "u").unwrap();
    assert!(u.is_union);
    assert!(u.fields.iter().all(|f| f.offset == 0));
    assert_eq!(u.size, 16);
}

#[test]
fn local_aggregate_initialisers_expand_to_zero_fill_and_stores() {
    let m = ok("struct p { int x, y; }; int f(void) { int a[4] = {1, [2] = 7}; struct p q = {.y = 3}; return a[2] + q.y; }");
    let f = func(&m, "f");
    let kinds: Vec<&StmtKind> = f.body.stmts.iter().map(|s| &s.kind).collect();
    assert!(matches!(kinds[0], StmtKind::Decl(_, None)));
    assert!(matches!(kinds[1], StmtKind::ZeroFill(_)));
    // a[0] = 1, a[2] = 7
    let stores: Vec<&Expr> = f.body.stmts.iter().filter_map(|s| if let StmtKind::Expr(e) = s.kind { Some(f.expr(e)) } else { None }).collect();
    assert_eq!(stores.len(), 3);
    let vals: Vec<i64> = stores
        .iter()
        .map(|e| match e.kind {
            ExprKind::Assign(_, v) => match f.expr(v).kind {
                ExprKind::Int(i) => i,
                _ => -1,
            },
            _ => -1,
        })
        .collect();
    assert_eq!(vals, vec![1, 7, 3]);
}

#[test]
fn global_initialisers_bytes_and_relocations() {
    let m = ok("static const char *names[] = {\"ab\", \"c\"}; int tab[4] = {[1] = 2, 3}; int *gp = &tab[2];\n\
                struct pt { double x, y; } o = {.y = 1.5}; double d = 1.0 / 4; int (*fp)(void); int g(void) { return 0; } int (*gf)(void) = g;");
    let g = |n: &str| m.globals.iter().find(|g| g.name == n).unwrap();
    let names = g("names");
    assert_eq!(names.ty, Type::Array(Box::new(Type::ptr(Type::Scalar(Scalar::I8))), Some(2)));
    assert_eq!(names.init.as_ref().unwrap().relocs.len(), 2);
    assert_eq!(names.linkage, Linkage::Internal);
    let tab = g("tab").init.as_ref().unwrap();
    assert_eq!(&tab.bytes[4..12], &[2, 0, 0, 0, 3, 0, 0, 0]);
    let gp = g("gp").init.as_ref().unwrap();
    assert_eq!(gp.relocs[0].addend, 8);
    assert!(matches!(gp.relocs[0].target, RelocTarget::Global(_)));
    assert_eq!(&g("o").init.as_ref().unwrap().bytes[8..16], &1.5f64.to_le_bytes());
    assert_eq!(g("d").init.as_ref().unwrap().bytes, 0.25f64.to_le_bytes().to_vec());
    assert!(g("fp").init.is_none());
    assert!(matches!(g("gf").init.as_ref().unwrap().relocs[0].target, RelocTarget::Func(_)));
}

#[test]
fn vla_locals_use_alloca_and_hidden_lengths() {
    let m = ok("double f(int n, int m) { double a[n][m]; a[1][2] = 3; return sizeof a; }");
    let f = func(&m, "f");
    let init = decl_init(f, "a");
    assert!(matches!(init.kind, ExprKind::Alloca(_)));
    assert_eq!(init.ty, Type::ptr(Type::F64));
    let hidden = f.locals.iter().filter(|l| l.name.starts_with(".vla")).count();
    assert_eq!(hidden, 2);
    // a[1][2]: base + 1*m + 2 (the row length is a run-time value)
    let ExprKind::Assign(pl, _) = expr_stmt(f, 0).kind else { panic!() };
    let ExprKind::Deref(addr) = f.expr(pl).kind else { panic!() };
    let ExprKind::Binary(BinOp::Add, row, _) = f.expr(addr).kind else { panic!() };
    let ExprKind::Binary(BinOp::Add, _, scaled) = f.expr(row).kind else { panic!() };
    assert!(matches!(f.expr(scaled).kind, ExprKind::Binary(BinOp::Mul, _, _)));
    // sizeof a is computed at run time
    let StmtKind::Return(Some(r)) = f.body.stmts.last().unwrap().kind else { panic!() };
    assert!(!matches!(strip(f, f.expr(r)).kind, ExprKind::Int(_)));
}

#[test]
fn vla_parameters_index_with_their_lengths() {
    let m = ok("void f(int n, double a[n][n]) { a[1][1] = 0; }");
    let f = func(&m, "f");
    assert_eq!(f.sig.params, vec![Type::I32, Type::ptr(Type::F64)]);
    let l = f.locals.iter().position(|l| l.name.starts_with(".vla")).expect("hidden length");
    assert!(l >= 2, "hidden locals come after the parameters");
    assert!(matches!(f.body.stmts[0].kind, StmtKind::Decl(_, Some(_))));
}

#[test]
fn switch_maps_cases() {
    let m = ok("int f(int x) { switch (x) { case 1: case 2: x = 5; break; default: x = 0; case 7: return 1; } return x; }");
    let f = func(&m, "f");
    let StmtKind::Switch(_, cases) = &f.body.stmts[0].kind else { panic!() };
    assert_eq!(cases.iter().map(|c| c.value).collect::<Vec<_>>(), vec![Some(1), Some(2), None, Some(7)]);
    assert!(cases[0].body.stmts.is_empty());
    assert!(matches!(cases[1].body.stmts.last().unwrap().kind, StmtKind::Break));
}

#[test]
fn compound_assignment_carries_the_operation_type() {
    let m = ok("void f(int i, double *p) { i += 1.5; p += 2; i <<= 3; }");
    let f = func(&m, "f");
    let ExprKind::CompoundAssign { op: BinOp::Add, op_ty, .. } = &expr_stmt(f, 0).kind else { panic!() };
    assert_eq!(*op_ty, Type::F64);
    let ExprKind::CompoundAssign { op_ty, .. } = &expr_stmt(f, 1).kind else { panic!() };
    assert_eq!(*op_ty, Type::ptr(Type::F64));
    let ExprKind::CompoundAssign { op: BinOp::Shl, .. } = &expr_stmt(f, 2).kind else { panic!() };
}

#[test]
fn calls_bind_to_definitions_and_used_externs() {
    let m = ok("#include <stdio.h>\n#include <math.h>\nint sq(int x);\nint main(void) { float v = 1.5f; printf(\"%f %d\\n\", v, sq(3)); return (int)sqrt(4.0); }\nint sq(int x) { return x * x; }");
    assert!(m.externs.iter().any(|e| e.name == "printf" && e.sig.variadic));
    assert!(m.externs.iter().any(|e| e.name == "sqrt"));
    assert!(!m.externs.iter().any(|e| e.name == "sq" || e.name == "puts"), "only used externs, no defined functions");
    let f = func(&m, "main");
    let ExprKind::Call(Callee::Extern(_), args) = &expr_stmt(f, 0).kind else { panic!() };
    assert_eq!(f.expr(args[1]).ty, Type::F64, "float promoted to double for a variadic call");
    let ExprKind::Call(Callee::Func(id), _) = f.expr(args[2]).kind else { panic!() };
    assert_eq!(m.functions[id.index()].name, "sq");
}

#[test]
fn recursion_and_function_pointers() {
    let m = ok("int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n\
                int apply(int (*op)(int), int v) { return op(v) + (*op)(v); }\n\
                int main(void) { return apply(fact, 3) - apply(&fact, 3); }");
    let f = func(&m, "apply");
    let StmtKind::Return(Some(r)) = f.body.stmts[0].kind else { panic!() };
    let ExprKind::Binary(BinOp::Add, a, b) = f.expr(r).kind else { panic!() };
    assert!(matches!(f.expr(a).kind, ExprKind::CallIndirect(..)));
    assert!(matches!(f.expr(b).kind, ExprKind::CallIndirect(..)));
    let main = func(&m, "main");
    let StmtKind::Return(Some(r)) = main.body.stmts[0].kind else { panic!() };
    let ExprKind::Binary(BinOp::Sub, a, _) = main.expr(r).kind else { panic!() };
    let ExprKind::Call(_, args) = &main.expr(a).kind else { panic!() };
    assert!(matches!(main.expr(args[0]).kind, ExprKind::FuncAddr(Callee::Func(_))));
}

#[test]
fn complex_arithmetic() {
    let m = ok("#include <complex.h>\ndouble f(void) { double complex z = 1.0 + 2.0 * I; float complex w = z; return creal(z * conj(z)) + cimag(w); }");
    let f = func(&m, "f");
    let z = decl_init(f, "z");
    assert_eq!(z.ty, Type::Complex(Scalar::F64));
    assert!(matches!(z.kind, ExprKind::Binary(BinOp::Add, _, _)));
    let w = decl_init(f, "w");
    assert_eq!(w.ty, Type::Complex(Scalar::F32));
    let StmtKind::Return(Some(r)) = f.body.stmts.last().unwrap().kind else { panic!() };
    let ExprKind::Binary(BinOp::Add, a, _) = f.expr(r).kind else { panic!() };
    assert!(matches!(f.expr(a).kind, ExprKind::ComplexPart(_, false)));
}

#[test]
fn goto_and_labels() {
    let m = ok("int f(int n) { int i = 0; again: i++; if (i < n) goto again; goto out; out: return i; }");
    let f = func(&m, "f");
    assert_eq!(f.labels, vec!["again".to_string(), "out".to_string()]);
    assert!(all_stmts(&f.body).iter().any(|s| matches!(s.kind, StmtKind::Goto(LabelId(0)))));
    assert!(all_stmts(&f.body).iter().any(|s| matches!(s.kind, StmtKind::Label(LabelId(1)))));
}

#[test]
fn enums_typedefs_and_shadowing() {
    let m = ok("typedef unsigned long size; enum color { RED, GREEN = 5, BLUE }; size f(void) { size s = BLUE; { int s = 2; s++; } return s; }");
    let f = func(&m, "f");
    assert_eq!(f.locals[0].ty, Type::U64);
    assert_eq!(f.locals[1].ty, Type::I32, "inner s shadows the outer one");
    let init = decl_init(f, "s");
    assert!(matches!(init.kind, ExprKind::Int(6)));
}

#[test]
fn casts_sizeof_and_literals() {
    let m = ok("#include <stddef.h>\nunsigned long f(long n, int m) { (size_t)m * m; 1L << 28; 'A'; 0x10u; return sizeof(int[3]) + sizeof n; }");
    let f = func(&m, "f");
    let e = expr_stmt(f, 0);
    assert_eq!(e.ty, Type::U64);
    let ExprKind::Binary(BinOp::Mul, a, _) = e.kind else { panic!() };
    assert!(matches!(f.expr(a).kind, ExprKind::Cast(_)));
    let e = expr_stmt(f, 1);
    assert_eq!(e.ty, Type::I64);
    assert!(matches!(expr_stmt(f, 2).kind, ExprKind::Int(65)));
    assert_eq!(expr_stmt(f, 3).ty, Type::Scalar(Scalar::U32));
    let StmtKind::Return(Some(r)) = f.body.stmts.last().unwrap().kind else { panic!() };
    let ExprKind::Binary(BinOp::Add, a, b) = f.expr(r).kind else { panic!() };
    assert!(matches!(f.expr(a).kind, ExprKind::Int(12)));
    assert!(matches!(f.expr(b).kind, ExprKind::Int(8)));
}

#[test]
fn main_gets_an_implicit_return_zero() {
    let m = ok("int main(int argc, char **argv) { argc++; }");
    let f = func(&m, "main");
    assert_eq!(f.sig.params, vec![Type::I32, Type::ptr(Type::ptr(Type::Scalar(Scalar::I8)))]);
    assert!(matches!(f.body.stmts.last().unwrap().kind, StmtKind::Return(Some(_))));
}

#[test]
fn compound_literals_are_initialised_before_use() {
    let m = ok("struct p { int x, y; }; int f(int i) { struct p a = (struct p){1, 2}; return (int[]){3, 1, 4}[i] + a.y; }");
    let f = func(&m, "f");
    assert!(f.locals.iter().any(|l| l.name == ".compound"));
    assert!(matches!(f.body.stmts[0].kind, StmtKind::Decl(_, None)), "the literal's object is declared first");
}

#[test]
fn bit_fields_pack_and_read_modify_write() {
    let m = ok("struct flags { unsigned ready : 1; unsigned mode : 3; unsigned count : 12; signed delta : 5; };\n\
                struct rgb { unsigned b : 5, g : 6, r : 5; };\n\
                struct flags gf = {1, 5, 4095, -16};\n\
                int f(struct flags *p) { p->mode = 5; p->count++; return p->delta; }");
    let fl = m.structs.iter().find(|s| s.name == "flags").unwrap();
    assert_eq!((fl.size, fl.align), (4, 4));
    assert!(fl.fields.iter().all(|f| f.offset == 0));
    assert_eq!(m.structs.iter().find(|s| s.name == "rgb").unwrap().size, 4);
    let g = m.globals.iter().find(|g| g.name == "gf").unwrap();
    assert_eq!(g.init.as_ref().unwrap().bytes, 0x0010_FFFBu32.to_le_bytes().to_vec());
    let f = func(&m, "f");
    let ExprKind::Assign(pl, v) = expr_stmt(f, 0).kind else { panic!() };
    assert!(matches!(f.expr(pl).kind, ExprKind::Member(_, 1)));
    assert!(matches!(f.expr(v).kind, ExprKind::Binary(BinOp::BitOr, _, _)));
    assert!(matches!(expr_stmt(f, 1).kind, ExprKind::Assign(..)), "++ on a bit-field is a read-modify-write");
    let StmtKind::Return(Some(r)) = f.body.stmts.last().unwrap().kind else { panic!() };
    assert!(matches!(f.expr(r).kind, ExprKind::Binary(BinOp::Shr, _, _)), "signed field: sign-extending shift");
}

//! Program units and specification statements.

mod common;
use accjit_front_fortran::ast::*;
use accjit_front_fortran::Intent;
use common::*;

fn decls(text: &str) -> Vec<Decl> {
    let f = parse_ok("t.f90", &format!("subroutine s(a, b, n)\n{}\nend subroutine s\n", text));
    f.units.into_iter().next().unwrap().decls
}

fn type_decl(d: &Decl) -> &TypeDecl {
    match &d.kind {
        DeclKind::TypeDecl(t) => t,
        other => panic!("not a type declaration: {:?}", other),
    }
}

fn dims(ds: &[DimSpec]) -> String {
    ds.iter()
        .map(|d| {
            let lo = d.lower.as_ref().map(|e| format!("{}:", sx(e))).unwrap_or_default();
            let hi = match &d.upper {
                Bound::Expr(e) => sx(e),
                Bound::Colon => {
                    if d.lower.is_some() {
                        String::new()
                    } else {
                        ":".into()
                    }
                }
                Bound::Star => "*".into(),
            };
            format!("{}{}", lo, hi)
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[test]
fn program_units() {
    let f = parse_ok(
        "t.f90",
        "module m\n implicit none\n integer :: k = 1\ncontains\n pure recursive integer function f(x) result(r)\n  integer, intent(in) :: x\n  r = x\n end function f\n elemental subroutine g(y)\n  real, intent(inout) :: y\n end subroutine\nend module m\n\nprogram main\n use m\n call inner()\ncontains\n subroutine inner()\n end subroutine inner\nend program main\n\nreal(8) function ext(a) bind(c, name='ext_c')\n real(8), value :: a\n ext = a\nend function\nsubroutine noargs\nend\n",
    );
    let kinds: Vec<_> = f.units.iter().map(|u| (u.kind, u.name.as_ref().map(|n| n.text.clone()))).collect();
    assert_eq!(
        kinds,
        vec![
            (UnitKind::Module, Some("m".into())),
            (UnitKind::Program, Some("main".into())),
            (UnitKind::Function, Some("ext".into())),
            (UnitKind::Subroutine, Some("noargs".into()))
        ]
    );
    let m = &f.units[0];
    assert_eq!(m.contains.len(), 2);
    let func = &m.contains[0];
    assert!(func.prefix.pure && func.prefix.recursive && !func.prefix.elemental);
    assert!(matches!(func.prefix.type_spec.as_ref().map(|t| &t.base), Some(BaseType::Integer)));
    assert_eq!(func.result.as_ref().unwrap().text, "r");
    assert_eq!(func.args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>(), vec!["x"]);
    assert!(m.contains[1].prefix.elemental);
    assert_eq!(f.units[1].contains[0].name.as_ref().unwrap().text, "inner");
    assert_eq!(f.units[2].bind, Some(Some("ext_c".to_string())));
    let ts = f.units[2].prefix.type_spec.as_ref().unwrap();
    assert_eq!(sx(ts.kind.as_ref().unwrap()), "8");
}

#[test]
fn main_program_without_program_statement() {
    let f = parse_ok("t.f90", "x = 1\nprint *, x\nend\n");
    assert_eq!(f.units.len(), 1);
    assert_eq!(f.units[0].kind, UnitKind::Program);
    assert!(f.units[0].name.is_none());
    assert_eq!(f.units[0].body.len(), 2);
}

#[test]
fn type_declarations() {
    let d = decls("integer :: n\nreal(8), intent(in) :: a(0:n-1, -1:m)\nreal(kind=8), dimension(:,:), intent(inout) :: b\ndouble precision x, y(*)\nDOUBLE COMPLEX z\ncharacter(len=*), parameter :: s = 'hi'\ncharacter*10 c1, c2*5\ncharacter(10, 1) c3\ncharacter(len=:), allocatable :: c4\nreal*8 r8\ncomplex*16 zz\nlogical(4), save :: flag = .true.\ninteger(c_int), value :: v\ntype(point), pointer :: p => null()\nclass(*), pointer :: up\nreal, allocatable, target :: t(:)\ninteger, parameter :: dp = selected_real_kind(15, 307), m2 = 2*dp\nreal(dp), optional :: o\ninteger, external :: ext\nreal, contiguous, volatile :: w(:)");
    let t: Vec<&TypeDecl> = d.iter().map(type_decl).collect();
    assert_eq!(t.len(), 20);
    // real(8), intent(in) :: a(0:n-1, -1:m)
    assert_eq!(sx(t[1].ty.kind.as_ref().unwrap()), "8");
    assert!(matches!(t[1].attrs[0], Attr::Intent(Intent::In)));
    assert_eq!(dims(t[1].entities[0].dims.as_ref().unwrap()), "0:(- n 1),(neg 1):m");
    // dimension(:,:), intent(inout)
    match &t[2].attrs[0] {
        Attr::Dimension(ds) => assert_eq!(dims(ds), ":,:"),
        other => panic!("{:?}", other),
    }
    assert!(matches!(t[2].attrs[1], Attr::Intent(Intent::InOut)));
    assert_eq!(t[3].ty.base, BaseType::DoublePrecision);
    assert_eq!(dims(t[3].entities[1].dims.as_ref().unwrap()), "*");
    assert_eq!(t[4].ty.base, BaseType::DoubleComplex);
    assert!(matches!(t[5].ty.len, Some(CharLen::Assumed)));
    assert!(matches!(t[5].attrs[0], Attr::Parameter));
    assert!(matches!(t[5].entities[0].init, Some(Init::Expr(_))));
    assert!(matches!(&t[6].ty.len, Some(CharLen::Expr(e)) if sx(e) == "10"));
    assert!(matches!(&t[6].entities[1].char_len, Some(CharLen::Expr(e)) if sx(e) == "5"));
    assert!(matches!(&t[7].ty.len, Some(CharLen::Expr(e)) if sx(e) == "10"));
    assert_eq!(sx(t[7].ty.kind.as_ref().unwrap()), "1");
    assert!(matches!(t[8].ty.len, Some(CharLen::Deferred)));
    assert_eq!(sx(t[9].ty.kind.as_ref().unwrap()), "8");
    assert_eq!(t[10].ty.base, BaseType::Complex);
    assert_eq!(sx(t[10].ty.kind.as_ref().unwrap()), "8");
    assert!(matches!(t[11].attrs[0], Attr::Save));
    assert_eq!(sx(t[12].ty.kind.as_ref().unwrap()), "c_int");
    assert!(matches!(t[12].attrs[0], Attr::Value));
    assert!(matches!(&t[13].ty.base, BaseType::Derived(n) if n.text == "point"));
    assert!(matches!(&t[13].entities[0].init, Some(Init::Pointer(e)) if sx(e) == "(null)"));
    assert!(matches!(&t[14].ty.base, BaseType::Class(n) if n.text == "*"));
    assert!(matches!(t[15].attrs[..], [Attr::Allocatable, Attr::Target]));
    assert_eq!(t[16].entities.len(), 2);
    assert!(matches!(&t[16].entities[0].init, Some(Init::Expr(e)) if sx(e) == "(selected_real_kind 15 307)"));
    assert!(matches!(&t[17].ty.kind, Some(e) if sx(e) == "dp"));
    assert!(matches!(t[17].attrs[0], Attr::Optional));
    assert!(matches!(t[18].attrs[0], Attr::External));
    assert!(matches!(t[19].attrs[..], [Attr::Contiguous, Attr::Volatile]));
}

#[test]
fn specification_statements() {
    let d = decls("use iso_c_binding\nuse, intrinsic :: iso_fortran_env, only: real64, i8 => int64\nuse m, x => y\nimplicit none\nparameter (pi = 3.14159d0, two = 2)\ndimension a(10), b(n)\nallocatable :: c(:)\nsave\nsave :: k, /blk/\nexternal f, g\nintrinsic sin\nintent(in) :: a\noptional b\nvalue n\ncommon /blk/ k, l(3) // q\ndata a /10*0.0/, b(1) /1.5/\ndata (a(i), i = 1, 3) / 1., 2., 3. /\n!$acc routine(s) seq\npublic :: operator(+), f\nprivate");
    let kinds: Vec<String> = d
        .iter()
        .map(|d| match &d.kind {
            DeclKind::Use { module, intrinsic, renames, only } => format!(
                "use {}{} r[{}] o[{}]",
                module.text,
                if *intrinsic { " intrinsic" } else { "" },
                renames.iter().map(|r| format!("{}=>{}", r.local.text, r.remote.text)).collect::<Vec<_>>().join(","),
                only.as_ref().map(|o| o.iter().map(|r| format!("{}=>{}", r.local.text, r.remote.text)).collect::<Vec<_>>().join(",")).unwrap_or("all".into())
            ),
            DeclKind::ImplicitNone => "implicit none".into(),
            DeclKind::Parameter(ps) => format!("parameter {}", ps.iter().map(|(n, e)| format!("{}={}", n.text, sx(e))).collect::<Vec<_>>().join(",")),
            DeclKind::AttrStmt { attr, entities } => format!(
                "attr {:?} [{}]",
                std::mem::discriminant(attr) == std::mem::discriminant(&Attr::Save),
                entities
                    .iter()
                    .map(|e| format!("{}{}", e.name.text, e.dims.as_ref().map(|d| format!("({})", dims(d))).unwrap_or_default()))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            DeclKind::Common(blocks) => format!(
                "common {}",
                blocks
                    .iter()
                    .map(|(n, es)| format!(
                        "{}:{}",
                        n.as_ref().map(|n| n.text.as_str()).unwrap_or(""),
                        es.iter().map(|e| e.name.text.clone()).collect::<Vec<_>>().join(",")
                    ))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            DeclKind::Data(sets) => format!(
                "data {}",
                sets.iter()
                    .map(|s| format!(
                        "{}/{}",
                        s.objects.len(),
                        s.values
                            .iter()
                            .map(|v| format!("{}{}", v.repeat.as_ref().map(|r| format!("{}*", sx(r))).unwrap_or_default(), sx(&v.value)))
                            .collect::<Vec<_>>()
                            .join(",")
                    ))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            DeclKind::Acc(dir) => format!("acc {}", dir.kind.name()),
            other => format!("{:?}", other),
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            "use iso_c_binding r[] o[all]",
            "use iso_fortran_env intrinsic r[] o[real64=>real64,i8=>int64]",
            "use m r[x=>y] o[all]",
            "implicit none",
            "parameter pi=3.14159d0[d],two=2",
            "attr false [a(10),b(n)]",
            "attr false [c(:)]",
            "attr true []",
            "attr true [k,/blk/]",
            "attr false [f,g]",
            "attr false [sin]",
            "attr false [a]",
            "attr false [b]",
            "attr false [n]",
            "common blk:k,l :q",
            "data 1/10*0.0 1/1.5",
            "data 1/1.,2.,3.",
            "acc routine",
            "attr false [operator(+),f]",
            "attr false []",
        ]
    );
}

#[test]
fn implicit_rules() {
    let d = decls("implicit real(8) (a-h, o-z), integer (i-n)\nimplicit double precision (d)\nimplicit real (x)");
    let DeclKind::Implicit(rules) = &d[0].kind else { panic!() };
    assert_eq!(rules.len(), 2);
    assert_eq!(sx(rules[0].ty.kind.as_ref().unwrap()), "8");
    assert_eq!(rules[0].letters, vec![('a', 'h'), ('o', 'z')]);
    assert_eq!(rules[1].letters, vec![('i', 'n')]);
    let DeclKind::Implicit(r2) = &d[1].kind else { panic!() };
    assert_eq!(r2[0].ty.base, BaseType::DoublePrecision);
    let DeclKind::Implicit(r3) = &d[2].kind else { panic!() };
    assert!(r3[0].ty.kind.is_none());
    assert_eq!(r3[0].letters, vec![('x', 'x')]);
}

#[test]
fn derived_types_and_interfaces() {
    let f = parse_ok(
        "t.f90",
        "module shapes\n type :: point\n  real :: x, y\n end type point\n type, public :: grid\n  sequence\n  integer :: n\n  real(8), allocatable :: v(:)\n  type(point) :: corner(4)\n end type\n type, extends(point) :: point3\n  real :: z = 0.0\n end type point3\n interface norm\n  module procedure norm2d, norm3d\n end interface norm\n interface\n  subroutine ext(a, n)\n   integer :: n\n   real :: a(n)\n  end subroutine ext\n  real function g(x)\n   real, intent(in) :: x\n  end function\n end interface\n interface operator(.cross.)\n  module procedure cross\n end interface\n interface assignment(=)\n  module procedure assign_p\n end interface\nend module shapes\n",
    );
    let d = &f.units[0].decls;
    let DeclKind::DerivedType(p) = &d[0].kind else { panic!() };
    assert_eq!(p.name.text, "point");
    assert_eq!(p.components.len(), 1);
    assert_eq!(p.components[0].entities.len(), 2);
    let DeclKind::DerivedType(g) = &d[1].kind else { panic!() };
    assert!(g.sequence);
    assert!(matches!(g.attrs[..], [Attr::Public]));
    assert_eq!(g.components.len(), 3);
    assert!(matches!(g.components[1].attrs[..], [Attr::Allocatable]));
    let DeclKind::DerivedType(p3) = &d[2].kind else { panic!() };
    assert_eq!(p3.extends.as_ref().unwrap().text, "point");
    let DeclKind::Interface(i1) = &d[3].kind else { panic!() };
    assert!(matches!(&i1.generic, Some(GenericSpec::Name(n)) if n.text == "norm"));
    assert_eq!(i1.procedures.iter().map(|n| n.text.as_str()).collect::<Vec<_>>(), vec!["norm2d", "norm3d"]);
    let DeclKind::Interface(i2) = &d[4].kind else { panic!() };
    assert!(i2.generic.is_none());
    assert_eq!(i2.bodies.len(), 2);
    assert_eq!(i2.bodies[0].kind, UnitKind::Subroutine);
    assert_eq!(i2.bodies[0].decls.len(), 2);
    assert_eq!(i2.bodies[1].kind, UnitKind::Function);
    let DeclKind::Interface(i3) = &d[5].kind else { panic!() };
    assert!(matches!(&i3.generic, Some(GenericSpec::Operator(op, _)) if op == ".cross."));
    let DeclKind::Interface(i4) = &d[6].kind else { panic!() };
    assert!(matches!(&i4.generic, Some(GenericSpec::Assignment(_))));
}

#[test]
fn end_statement_forms() {
    let f = parse_ok(
        "t.f90",
        "PROGRAM p\nEND PROGRAM P\nsubroutine a\nendsubroutine a\nfunction b()\nb = 1\nend function\nmodule c\nendmodule\nblock data bd\nend block data bd\n",
    );
    assert_eq!(f.units.len(), 5);
    assert_eq!(f.units[4].kind, UnitKind::BlockData);
}

//! Print the AST of a Fortran file (a debugging aid): `cargo run -p
//! accjit-front-fortran --example fparse_dump -- file.f90`.

fn main() {
    let path = std::env::args().nth(1).expect("usage: fparse_dump FILE");
    let text = std::fs::read_to_string(&path).expect("cannot read the file");
    let mut sm = accjit_ir::SourceMap::new();
    match accjit_front_fortran::parse(&mut sm, &path, &text, &Default::default()) {
        Ok(f) => println!("{:#?}", f),
        Err(d) => {
            eprint!("{}", d.render(&sm));
            std::process::exit(1);
        }
    }
}

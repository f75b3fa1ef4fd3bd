//! Print the PTX of a C file lowered for the nvidia device (a developer
//! aid without the Python bindings: `cargo run -p accjit-back-ptx --example
//! ptx_dump -- prog.c`).

fn main() {
    let path = std::env::args().nth(1).expect("usage: ptx_dump prog.c");
    let src = std::fs::read_to_string(&path).expect("cannot read the file");
    let mut sm = accjit_ir::SourceMap::new();
    let mut m = match accjit_front_c::compile(&mut sm, &path, &src, &Default::default()) {
        Ok(m) => m,
        Err(d) => return eprint!("{}", d.render(&sm)),
    };
    if let Err(d) = accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "nvidia".into() }) {
        return eprint!("{}", d.render(&sm));
    }
    match accjit_back_ptx::compile(&m, &Default::default()) {
        Ok(p) => print!("{}", p.text),
        Err(d) => eprint!("{}", d.render(&sm)),
    }
}

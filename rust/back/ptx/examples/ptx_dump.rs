//! Print the PTX of a C file lowered for the nvidia device (a developer
//! aid without the Python bindings: `cargo run -p accjit-back-ptx --example
//! ptx_dump -- prog.c`). The tuning knobs are read here as the driver
//! reads them: `ACCJIT_PTX_FMA`, `ACCJIT_PTX_SEQ_UNROLL=N`, `ACCJIT_PTX_NO_TILES`,
//! `ACCJIT_PTX_TUNE="key=value,..."` (`Tuning::apply`).

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
    let set = |name: &str| std::env::var_os(name).is_some();
    let mut opts = accjit_back_ptx::PtxOptions::default();
    if let Ok(v) = std::env::var("ACCJIT_PTX_FMA") {
        opts.tuning.fma = !matches!(v.trim(), "0" | "off" | "no" | "false");
    }
    opts.tuning.tiles = !set("ACCJIT_PTX_NO_TILES");
    if let Some(n) = std::env::var("ACCJIT_PTX_SEQ_UNROLL").ok().and_then(|v| v.parse().ok()) {
        opts.tuning.seq_unroll = n;
    }
    if let Ok(spec) = std::env::var("ACCJIT_PTX_TUNE") {
        if let Err(e) = opts.tuning.apply(&spec) {
            return eprintln!("ACCJIT_PTX_TUNE: {e}");
        }
    }
    match accjit_back_ptx::compile(&m, &opts) {
        Ok(p) => print!("{}", p.text),
        Err(d) => eprint!("{}", d.render(&sm)),
    }
}

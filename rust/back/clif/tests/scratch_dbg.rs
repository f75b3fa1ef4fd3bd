use accjit_back_clif::{compile_tuned, ClifOptions, Tuning};
use accjit_ir::{ParamKind, SourceMap};
use accjit_runtime::KernelSlot;
#[test]
fn dbg() {
    let src = std::fs::read_to_string("/tmp/dbg.c").unwrap();
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", &src, &Default::default()).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }).unwrap();
    let slots: Vec<Box<KernelSlot>> = m.kernels.iter().map(|k| KernelSlot::new(k.name.clone(), k.params.iter().map(|p| (p.kind == ParamKind::DeviceAddr) as u8).collect(), k.max_gangs)).collect();
    let opts = ClifOptions { symbols: accjit_runtime::symbols(), kernel_slots: slots.iter().map(|s| s.addr()).collect(), keep_clif: true };
    let cm = compile_tuned(&m, &opts, Tuning { simd: std::env::var_os("NOSIMD").is_none() }).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    println!("{}", cm.clif);
}

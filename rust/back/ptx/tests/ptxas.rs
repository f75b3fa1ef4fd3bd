//! The PTX of every program of the conformance corpus (tests/conformance)
//! assembles with ptxas; programs using what the back end does not support
//! yet are listed with the reason, and must still fail cleanly (a
//! diagnostic, not a panic). Skipped when ptxas is absent (ACCJIT_PTXAS or
//! `ptxas` on PATH, or the pip wheel's copy under the virtualenv).

use std::path::{Path, PathBuf};
use std::process::Command;

fn ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ACCJIT_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let mut cands: Vec<PathBuf> = vec![PathBuf::from("/opt/nvcc/nvidia/cuda_nvcc/bin/ptxas")];
    if let Ok(rd) = std::fs::read_dir(root.join(".venv/lib")) {
        for e in rd.flatten() {
            cands.push(e.path().join("site-packages/nvidia/cuda_nvcc/bin/ptxas"));
        }
    }
    if let Some(path) = std::env::var_os("PATH") {
        cands.extend(std::env::split_paths(&path).map(|d| d.join("ptxas")));
    }
    cands.into_iter().find(|p| p.is_file())
}

/// C source → lowered for nvidia → PTX. The knobs off by default can be
/// turned on for a run as the driver does (`ACCJIT_PTX_FMA=1`,
/// `ACCJIT_PTX_SEQ_UNROLL=N`), to assemble the corpus with them.
pub fn ptx_of(name: &str, src: &str) -> Result<String, String> {
    let mut sm = accjit_ir::SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, name, src, &Default::default()).map_err(|d| format!("front end: {}", d.render(&sm)))?;
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "nvidia".into() }).map_err(|d| format!("lower: {}", d.render(&sm)))?;
    let mut opts = accjit_back_ptx::PtxOptions::default();
    opts.tuning.fma |= std::env::var_os("ACCJIT_PTX_FMA").is_some();
    if let Some(n) = std::env::var("ACCJIT_PTX_SEQ_UNROLL").ok().and_then(|v| v.parse().ok()) {
        opts.tuning.seq_unroll = n;
    }
    // Any knob by name, as the driver reads it (the corpus under other settings).
    if let Ok(spec) = std::env::var("ACCJIT_PTX_TUNE") {
        opts.tuning.apply(&spec)?;
    }
    accjit_back_ptx::compile(&m, &opts).map(|p| p.text).map_err(|d| d.render(&sm))
}

fn assemble(ptxas: &Path, text: &str, tag: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("accjit_ptxas_{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let f = dir.join(format!("{tag}.ptx"));
    std::fs::write(&f, text).map_err(|e| e.to_string())?;
    let out = Command::new(ptxas).arg("-arch=sm_80").arg(&f).arg("-o").arg(dir.join(format!("{tag}.cubin"))).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Programs whose kernels use what the nvidia back end does not support
/// yet, with the reason (the list should shrink).
const EXPECTED_UNSUPPORTED: &[(&str, &str)] = &[];

#[test]
fn conformance_corpus_assembles() {
    let Some(ptxas) = ptxas() else {
        eprintln!("ptxas not found: skipped");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance");
    let mut files = vec![];
    for sub in ["core", "data", "gaps"] {
        let mut v: Vec<PathBuf> =
            std::fs::read_dir(root.join(sub)).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        v.sort();
        files.extend(v);
    }
    let only = std::env::var("PTX_ONLY").ok();
    let (mut ok, mut unsupported, mut failed, mut not_device) = (0, vec![], vec![], 0);
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        if only.as_ref().is_some_and(|o| !name.contains(o.as_str())) {
            continue;
        }
        let src = std::fs::read_to_string(f).unwrap();
        // Programs the multicore device rejects (compile-error tests) are not device programs.
        let expected = EXPECTED_UNSUPPORTED.iter().find(|(n, _)| *n == name);
        let r = std::panic::catch_unwind(|| ptx_of(&name, &src));
        match r {
            Err(_) => failed.push(format!("{name}: panic")),
            Ok(Err(e)) if e.starts_with("front end") || e.starts_with("lower") => not_device += 1,
            Ok(Err(e)) => match expected {
                Some(_) => unsupported.push(name.clone()),
                None => failed.push(format!("{name}: {e}")),
            },
            Ok(Ok(text)) => match assemble(&ptxas, &text, &name.replace('.', "_")) {
                Ok(()) => {
                    if expected.is_some() {
                        failed.push(format!("{name}: listed as unsupported but compiles: remove it from EXPECTED_UNSUPPORTED"));
                    }
                    ok += 1;
                }
                Err(e) => failed.push(format!("{name}: ptxas: {}", e.lines().take(6).collect::<Vec<_>>().join(" | "))),
            },
        }
    }
    eprintln!(
        "ptx corpus: {ok} assemble, {} expected-unsupported, {} failed, {not_device} not device programs (compile errors before the back end)",
        unsupported.len(),
        failed.len()
    );
    assert!(failed.is_empty(), "{} programs failed:\n{}", failed.len(), failed.join("\n"));
}

/// `exit`, `abort` and a failed `assert` in device code (a loop body, a
/// routine, a serial region): each kernel says whether it may end the
/// program (through the routines it calls too), the module has the end
/// record, and it assembles.
#[test]
fn program_ends_in_device_code() {
    let src = "#include <stdlib.h>\n#include <assert.h>\n\
        #pragma acc routine seq\n\
        static void give_up(int v) { if (v < 0) abort(); }\n\
        #pragma acc routine seq\n\
        static int twice(int v) { return 2 * v; }\n\
        void f(int n, int *a) {\n\
        #pragma acc parallel loop copy(a[0:n])\n\
        for (int i = 0; i < n; i++) { if (a[i] == 7) exit(a[i] + 1); a[i] += 1; }\n\
        #pragma acc parallel loop copy(a[0:n])\n\
        for (int i = 0; i < n; i++) give_up(a[i]);\n\
        #pragma acc serial copy(a[0:n])\n\
        { assert(a[0] >= 0); }\n\
        #pragma acc parallel loop copy(a[0:n])\n\
        for (int i = 0; i < n; i++) a[i] = twice(a[i]);\n\
        }\n";
    let mut sm = accjit_ir::SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).map_err(|d| d.render(&sm)).unwrap();
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "nvidia".into() }).map_err(|d| d.render(&sm)).unwrap();
    let p = accjit_back_ptx::compile(&m, &Default::default()).map_err(|d| d.render(&sm)).unwrap();
    let ends: Vec<bool> = p.kernels.iter().map(|k| k.ends_program).collect();
    assert_eq!(ends, [true, true, true, false], "exit, abort through a routine, assert, none");
    let sym = accjit_abi::device_end::SYMBOL;
    assert!(p.text.contains(&format!(".visible .global .align 8 .b8 {sym}[32]")), "{}", p.text);
    assert!(p.text.matches("atom.global.cas.b32").count() >= 3, "one claim of the record per call");
    assert!(p.text.contains("exit;"));
    let Some(ptxas) = ptxas() else {
        eprintln!("ptxas not found: assembling skipped");
        return;
    };
    if std::env::var_os("PTX_SHOW").is_some() {
        eprintln!("{}", p.text);
    }
    assemble(&ptxas, &p.text, "program_ends").unwrap();
}

/// An array a worker's lanes share and write (declared in a worker loop,
/// filled by a vector loop, read by the next): one row per worker of a
/// shared block, indexed by `%tid.y`; a store by the worker's single lane
/// is followed by the worker's barrier; a launch with more workers than
/// rows traps. It assembles.
#[test]
fn worker_shared_arrays() {
    let src = "void f(int n, const float *in, float *out) {\n\
        #pragma acc parallel loop gang num_workers(4) vector_length(32) copyin(in[0:n*32]) copyout(out[0:n*32])\n\
        for (int i = 0; i < n; i += 4) {\n\
          #pragma acc loop worker\n\
          for (int w = 0; w < 4; w++) {\n\
            float tmp[32];\n\
            int row = i + w;\n\
            #pragma acc loop vector\n\
            for (int k = 0; k < 32; k++) tmp[k] = in[row * 32 + k] * 2.0f;\n\
            tmp[0] += 1.0f;\n\
            #pragma acc loop vector\n\
            for (int k = 0; k < 32; k++) out[row * 32 + k] = tmp[31 - k];\n\
          }\n\
        }\n\
        }\n";
    let text = ptx_of("ws.c", src).unwrap();
    assert!(text.contains(".shared .align 16 .b8 __accjit_worker_"), "{text}");
    assert!(text.contains(&format!("[{}]", 128 * 32)), "128 bytes per worker, 32 rows");
    assert!(text.contains("setp.gt.u32 %wsp, %wsn, 32;"), "more workers than rows trap");
    assert!(text.contains("mad.wide.u32"), "the row of %tid.y");
    // A per-worker array too big for its row is still refused, with the reason.
    let big = src.replace("float tmp[32]", "float tmp[300]").replace("k < 32; k++) tmp[k]", "k < 300; k++) tmp[k]");
    let e = ptx_of("ws.c", &big).unwrap_err();
    assert!(e.contains("tmp") && e.contains("shared memory"), "{e}");
    let Some(ptxas) = ptxas() else {
        eprintln!("ptxas not found: assembling skipped");
        return;
    };
    if std::env::var_os("PTX_SHOW").is_some() {
        eprintln!("{text}");
    }
    assemble(&ptxas, &text, "worker_shared").unwrap();
}

//! Python kernels through the same pipeline as C: a request (the text
//! `python/accjit/_pyast.py` writes) and the types of one call's arguments
//! → `accjit_front_python::compile` → `lower`, Cranelift and (nvidia) PTX
//! exactly as for a C program (`build_parsed`) → a loaded [`Program`] and
//! the [`Entry`] that says how to call it. Cached in-process by a hash of
//! the request, the argument types, the device type and the options; the
//! GPU's cubins go through the runtime's disk cache as for C.
//!
//! Each kernel also carries what `Kernel.inspect()` shows: the front end's
//! IR (before lowering: the constructs and clauses as the front end wrote
//! them, implicit ones included) and a compile report — every compute
//! region with its data clauses, every loop of every kernel with the levels
//! it runs on and why (like `-Minfo=accel`).

use crate::{build_parsed, cache, checked_ir, guarded, normalize_device_type, CompileError, Options, Program};
use accjit_front_python::{tree, ArgType, Entry};
use accjit_ir::exec::{nested_blocks, visit_stmts};
use accjit_ir::validate::Stage;
use accjit_ir::{AccLoop, AutoChoice, Block, ComputeConstruct, DataClause, LoopTuning, Module, ParamKind, SourceMap, Span, StmtKind};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// A compiled Python kernel specialisation.
pub struct PyKernel {
    pub program: Arc<Program>,
    pub entry: Entry,
    /// The front end's module, before lowering (for `inspect()`).
    pub parsed: Module,
    pub regions: Vec<RegionReport>,
    pub loops: Vec<LoopReport>,
}

/// A compute region as the front end wrote it, with its clauses.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionReport {
    /// "parallel", "kernels" or "serial".
    pub kind: String,
    pub line: u32,
    /// (clause, variable as written): `("copy", "x")`, `("firstprivate", "a")`,
    /// `("reduction(+)", "s")`.
    pub clauses: Vec<(String, String)>,
    /// What lowering made of the scalars the region uses without a clause
    /// (§2.6.2/2.6.3 implicit attributes, read off the outlined kernels'
    /// parameters): `("firstprivate", "n", why)` for a value captured at
    /// launch, `("copy", "s", why)` for a scalar the kernel updates in place
    /// (a reduction's result). Array extents and compiler temporaries are
    /// left out.
    pub scalars: Vec<(String, String, String)>,
    /// The outlined kernels of the region, in the lowered module.
    pub kernels: Vec<String>,
    /// Variables of the enclosing `acc.data` constructs, with the line of
    /// the construct naming them: the region finds them present.
    pub enclosing: Vec<(String, u32)>,
}

/// One loop of a compute region and how it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopReport {
    pub line: u32,
    /// "gang vector(128)", "gang(dim:2) worker", "seq"; collapsed loops say
    /// "collapse(n)" first.
    pub schedule: String,
    pub reason: String,
}

/// Compile `request_text` for arguments of types `args`, or fetch it from
/// the cache (the flag says which).
pub fn compile_python(request_text: &str, args: &[ArgType], opts: &Options) -> Result<(Arc<PyKernel>, bool), CompileError> {
    let device = normalize_device_type(&opts.device_type)?;
    if device == "nvidia" {
        accjit_runtime::cuda::prewarm();
    }
    let key = cache::key_python(request_text, args, opts, &device);
    if let Some(k) = cache::lookup_python(key) {
        return Ok((k, true));
    }
    let _guard = cache::compile_lock();
    if let Some(k) = cache::peek_python(key) {
        return Ok((k, true));
    }
    cache::COMPILATIONS.fetch_add(1, Ordering::Relaxed);
    let kernel = Arc::new(build(request_text, args, opts, &device)?);
    cache::insert_python(key, kernel.clone());
    Ok((kernel, false))
}

fn build(request_text: &str, args: &[ArgType], opts: &Options, device: &str) -> Result<PyKernel, CompileError> {
    let t0 = Instant::now();
    let request = tree::parse_node(request_text).map_err(|e| CompileError::plain(format!("error: internal error in accjit (please report): {e}")))?;
    let name = request.node("func").and_then(|f| f.str("name")).unwrap_or("<python>").to_string();
    let mut sm = SourceMap::new();
    let (module, entry) =
        guarded("the Python front end", || accjit_front_python::compile(&mut sm, &request, args)).map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    checked_ir(&module, Stage::Parsed, "the Python front end").map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    let parsed = module.clone();
    let program = build_parsed(&name, sm, module, opts, device, t0)?;
    if program.function_info(&entry.name).is_none() {
        return Err(CompileError::plain(format!(
            "error: internal compiler error: the Python front end's entry function `{}` is not in the module",
            entry.name
        )));
    }
    let mut regions = region_report(&parsed, program.source_map(), device);
    implicit_scalars(&mut regions, &parsed, program.module(), program.source_map());
    let loops = loop_report(&parsed, program.module(), program.source_map(), device);
    Ok(PyKernel { program: Arc::new(program), entry, parsed, regions, loops })
}

fn line_of(sm: &SourceMap, span: Span) -> u32 {
    if span.is_dummy() {
        return 0;
    }
    sm.file(span.file).map_or(0, |f| f.line_col(span.lo).0)
}

/// Every statement of `b` and of the blocks nested in it, in source order.
fn each_stmt<'a>(b: &'a Block, f: &mut impl FnMut(&'a accjit_ir::Stmt)) {
    visit_stmts(b, &mut |_, s| f(s));
}

fn compute_constructs(m: &Module) -> Vec<&ComputeConstruct> {
    compute_constructs_in_data(m).into_iter().map(|(c, _)| c).collect()
}

/// Every compute construct of `m` in source order, with the data clauses of
/// the data constructs around it (outermost first).
fn compute_constructs_in_data(m: &Module) -> Vec<(&ComputeConstruct, Vec<&DataClause>)> {
    fn go<'a>(b: &'a Block, around: &mut Vec<&'a DataClause>, out: &mut Vec<(&'a ComputeConstruct, Vec<&'a DataClause>)>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Compute(c) => out.push((&**c, around.clone())),
                StmtKind::Data(d) => {
                    let n = around.len();
                    around.extend(d.data.iter());
                    go(&d.body, around, out);
                    around.truncate(n);
                }
                _ => nested_blocks(s).into_iter().for_each(|nb| go(nb, around, out)),
            }
        }
    }
    let mut out = vec![];
    for f in &m.functions {
        go(&f.body, &mut vec![], &mut out);
    }
    out
}

fn region_report(parsed: &Module, sm: &SourceMap, _device: &str) -> Vec<RegionReport> {
    compute_constructs_in_data(parsed)
        .into_iter()
        .map(|(c, around)| {
            let mut clauses = vec![];
            for d in &c.data {
                for v in &d.vars {
                    clauses.push((d.kind.name().to_string(), v.text.clone()));
                }
            }
            for v in &c.private {
                clauses.push(("private".into(), v.text.clone()));
            }
            for v in &c.firstprivate {
                clauses.push(("firstprivate".into(), v.text.clone()));
            }
            for r in &c.reductions {
                for v in &r.vars {
                    clauses.push((format!("reduction({})", r.op.symbol()), v.text.clone()));
                }
            }
            let enclosing = around.iter().flat_map(|d| d.vars.iter().map(|v| (clause_root(&v.text).to_string(), line_of(sm, d.span)))).collect();
            RegionReport { kind: format!("{:?}", c.kind).to_ascii_lowercase(), line: line_of(sm, c.span), clauses, scalars: vec![], kernels: vec![], enclosing }
        })
        .collect()
}

/// Fill each region's `kernels` and `scalars` from the lowered module: a
/// kernel belongs to the last region starting at or before its line (compute
/// regions do not nest); each of its parameters that no clause of the region
/// names is a variable the compiler chose an attribute for.
fn implicit_scalars(regions: &mut [RegionReport], parsed: &Module, lowered: &Module, sm: &SourceMap) {
    // Variables named in clauses (`x`, `x[0:n]` → x) and reduction variables of loops per region.
    let mut reduced: Vec<Vec<String>> = vec![];
    for c in compute_constructs(parsed) {
        let mut names = vec![];
        each_stmt(&c.body, &mut |s| {
            if let StmtKind::For { acc: Some(d), .. } = &s.kind {
                names.extend(d.reductions.iter().flat_map(|r| r.vars.iter().map(|v| v.text.clone())));
            }
        });
        reduced.push(names);
    }
    for k in &lowered.kernels {
        let line = line_of(sm, k.span);
        let Some(r) = regions.iter().rposition(|r| r.line <= line) else { continue };
        regions[r].kernels.push(k.name.clone());
        let named = |v: &str| regions[r].clauses.iter().any(|(_, c)| clause_root(c) == v);
        let is_extent =
            |v: &str| v.rsplit_once("_shape").or_else(|| v.rsplit_once("_stride")).is_some_and(|(arr, d)| named(arr) && d.bytes().all(|b| b.is_ascii_digit()));
        let mut found = vec![];
        for p in &k.params {
            let v = p.name.as_str();
            if v.starts_with("__") || named(v) || is_extent(v) || regions[r].scalars.iter().any(|s| s.1 == v) {
                continue;
            }
            let reduction = reduced.get(r).is_some_and(|names| names.iter().any(|n| n == v));
            let (clause, why) = match p.kind {
                ParamKind::Value if !p.ty.is_ptr() => ("firstprivate", "a scalar the region reads: its value at the region's start"),
                ParamKind::Value => ("firstprivate", "a pointer value captured at the region's start"),
                ParamKind::Snapshot => ("firstprivate", "copied when the region starts"),
                ParamKind::DeviceAddr if reduction => ("copy", "a reduction variable: its result comes back to the host"),
                ParamKind::DeviceAddr => ("copy", "a scalar the region updates in place"),
            };
            found.push((clause.to_string(), v.to_string(), why.to_string()));
        }
        regions[r].scalars.extend(found);
    }
}

/// `x[0:n]` → `x`.
fn clause_root(text: &str) -> &str {
    let t = text.trim();
    t.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or(t)
}

fn written_loops(parsed: &Module, sm: &SourceMap, device: &str) -> Vec<(u32, Option<LoopTuning>, accjit_ir::ComputeKind)> {
    let mut out = vec![];
    for c in compute_constructs(parsed) {
        each_stmt(&c.body, &mut |s| {
            if let StmtKind::For { acc, .. } = &s.kind {
                let line = line_of(sm, s.span);
                let line = if line == 0 { acc.as_ref().map_or(0, |d| line_of(sm, d.span)) } else { line };
                out.push((line, acc.as_ref().map(|d| d.tuning.resolve(device)), c.kind));
            }
        });
    }
    out.sort_by_key(|l| l.0);
    out.dedup_by_key(|l| l.0);
    out
}

fn levels(l: &AccLoop) -> String {
    let mut parts = vec![];
    if l.dims.len() > 1 {
        parts.push(format!("collapse({})", l.dims.len()));
    }
    if l.gang {
        parts.push(if l.gang_dim > 1 { format!("gang(dim:{})", l.gang_dim) } else { "gang".into() });
    }
    if l.worker {
        parts.push("worker".into());
    }
    if l.vector {
        parts.push(l.vector_len.map_or("vector".into(), |n| format!("vector({n})")));
    }
    if !(l.gang || l.worker || l.vector) {
        parts.push("seq".into());
    }
    parts.join(" ")
}

fn loop_report(parsed: &Module, lowered: &Module, sm: &SourceMap, device: &str) -> Vec<LoopReport> {
    let written = written_loops(parsed, sm, device);
    let mut run: Vec<(u32, &AccLoop)> = vec![];
    for k in &lowered.kernels {
        each_stmt(&k.func.body, &mut |s| {
            if let StmtKind::AccLoop(l) = &s.kind {
                run.push((line_of(sm, l.span).max(line_of(sm, s.span)), l));
            }
        });
    }
    let mut out = vec![];
    for (line, tuning, construct) in &written {
        let found = run.iter().find(|(l, _)| l == line).map(|(_, l)| *l);
        let in_kernels = matches!(construct, accjit_ir::ComputeKind::Kernels);
        let (schedule, reason) = match (found, tuning) {
            (Some(l), t) => {
                let reason = match (&l.auto, t) {
                    (Some(AutoChoice::Parallel), _) => "the compiler chose it: the dependence test proved the iterations independent".to_string(),
                    (Some(AutoChoice::Sequential(why)), _) => format!("the compiler kept it sequential: {why}"),
                    (None, Some(t)) if t.gang.is_some() || t.worker.is_some() || t.vector.is_some() => "as written in acc.loop(...)".to_string(),
                    (None, Some(t)) if t.seq => "seq as written".to_string(),
                    (None, _) => {
                        if in_kernels {
                            "no level given: independent loop, levels chosen by the compiler".to_string()
                        } else {
                            "no level given: loops in a parallel region are independent; levels chosen by the compiler".to_string()
                        }
                    }
                };
                (levels(l), reason)
            }
            (None, Some(t)) if t.seq => ("seq".to_string(), "seq as written".to_string()),
            (None, Some(_)) => ("seq".to_string(), "inside a partitioned loop (or collapsed into it): each executor runs it sequentially".to_string()),
            (None, None) => (
                "seq".to_string(),
                if in_kernels {
                    "a plain range loop: the compiler kept it sequential".to_string()
                } else {
                    "a plain range loop in a parallel/serial region runs sequentially (use acc.loop to partition it)".to_string()
                },
            ),
        };
        out.push(LoopReport { line: *line, schedule, reason });
    }
    // Loops the lowered kernels have that the written ones do not (none
    // expected; shown rather than hidden).
    for (line, l) in run {
        if !written.iter().any(|w| w.0 == line) {
            out.push(LoopReport { line, schedule: levels(l), reason: "made by the compiler".into() });
        }
    }
    out.sort_by_key(|l| l.line);
    out
}

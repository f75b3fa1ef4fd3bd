//! The compile report of a program, for every source language (C, Fortran,
//! Python kernels): what each compute region became and why, in the spirit
//! of NVHPC's `-Minfo=accel`. Structured data only; `python/accjit/_report.py`
//! renders it as text (`accjit run --info`, `CModule.report()`) and HTML (the
//! `%%acc` cell magic), `Kernel.inspect()` shows it for Python kernels.
//!
//! It is made in two steps around `lower`, by `build_parsed`:
//! [`Written::of`] reads the module as the front end wrote it (the
//! constructs, their clauses, the data regions around them, the loops and
//! their clauses, the types of the variables the regions can name), and
//! [`Written::finish`] reads the lowered module: the outlined kernels and
//! their parameters (a parameter no clause names is a variable the compiler
//! gave an implicit attribute, §2.6.2), and the canonical loops with the
//! levels they run on — including what the dependence test decided for a
//! `kernels`/`auto` loop (`AccLoop::auto`). Front ends and back ends know
//! nothing of it.

use accjit_ir::exec::{nested_blocks, visit_stmts};
use accjit_ir::{
    AccLoop, AutoChoice, Block, ComputeConstruct, ComputeKind, DataClause, DefaultKind, Function, LoopTuning, Module, ParamKind, SourceMap, Span, StmtKind,
    Type,
};
use std::collections::HashMap;

/// What the compiler made of a program's compute regions and loops.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub device_type: String,
    pub regions: Vec<RegionReport>,
    pub loops: Vec<LoopReport>,
}

impl Report {
    /// The GPU back end's thread block per kernel (`blocks[i]` = (vector
    /// lanes, workers) of `lowered.kernels[i]`), as each region's launch
    /// `block`: `vector_length`/`num_workers` given as constants override
    /// the back end's choice, as the runtime does (which also caps the
    /// product to the device's limit).
    pub fn add_blocks(&mut self, lowered: &Module, blocks: &[(u32, u32)]) {
        for (k, &(vector, workers)) in lowered.kernels.iter().zip(blocks) {
            let Some(r) = self.regions.iter_mut().find(|r| r.kernels.contains(&k.name)) else { continue };
            let given = |name: &str| r.launch.iter().find(|(c, _)| c == name).and_then(|(_, v)| v.parse::<u32>().ok());
            let serial = k.construct == ComputeKind::Serial;
            let v = if serial { 1 } else { given("vector_length").unwrap_or(vector) };
            let w = if serial { 1 } else { given("num_workers").unwrap_or(workers) };
            let what = if r.kernels.len() == 1 { "thread block".to_string() } else { format!("thread block of {}", k.name) };
            r.launch.push((what, format!("{v}x{w}")));
        }
    }

    /// Show the variables a front end names differently in the IR by their
    /// source names: `names[function][ir_name]` is the name to show, or
    /// `None` to leave the variable out (an array's extents). Fortran
    /// dummies are the IR parameters `arg0`, `arg1`, ...
    pub fn rename(&mut self, names: &HashMap<String, HashMap<String, Option<String>>>) {
        for r in &mut self.regions {
            let Some(map) = names.get(&r.function) else { continue };
            r.implicit.retain_mut(|(_, v, _)| match map.get(v.as_str()) {
                Some(Some(to)) => {
                    *v = to.clone();
                    true
                }
                Some(None) => false,
                None => true,
            });
            let named: Vec<String> = r.clauses.iter().map(|(_, v)| clause_root(v).to_string()).collect();
            r.implicit.retain(|(_, v, _)| !named.contains(v));
        }
        for l in &mut self.loops {
            let Some(map) = names.get(&l.function) else { continue };
            for (from, to) in map {
                if let Some(to) = to {
                    l.reason = l.reason.replace(&format!("`{from}`"), &format!("`{to}`"));
                }
            }
        }
    }
}

/// A compute region as the front end wrote it, with its clauses.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionReport {
    /// "parallel", "kernels" or "serial".
    pub kind: String,
    /// The source file (as named to the compiler) and line of the directive.
    pub file: String,
    pub line: u32,
    /// The directive's source line, trimmed.
    pub source: String,
    /// The function (C), procedure (Fortran) or kernel (Python) holding it.
    pub function: String,
    /// (clause, variable as written): `("copy", "x[0:n]")`, `("firstprivate", "a")`,
    /// `("reduction(+)", "s")`. Python kernels' front end writes the
    /// implicit clauses of arrays here too (the Python side marks them).
    pub clauses: Vec<(String, String)>,
    /// Indices in `clauses` of those the front end added (their span is the
    /// construct's own): implicit clauses it decides itself (Fortran and
    /// Python arrays with no clause).
    pub added: Vec<usize>,
    /// The variables the region uses without a clause, with the attribute
    /// the compiler chose and why (§2.6.2, read off the outlined kernels'
    /// parameters): `("firstprivate", "n", why)` for a value captured at
    /// launch, `("copy", "s", why)` for a reduction result or an array,
    /// `("present", "a", why)` under `default(present)`. Array extents and
    /// compiler temporaries are left out.
    pub implicit: Vec<(String, String, String)>,
    /// `num_gangs`, `num_workers`, `vector_length`, `async` as given (for
    /// the device type compiled for): the constant, or "run time".
    pub launch: Vec<(String, String)>,
    /// The outlined kernels of the region, in the lowered module.
    pub kernels: Vec<String>,
    /// Variables of the enclosing data constructs, with the line of the
    /// construct naming them: the region finds them present.
    pub enclosing: Vec<(String, u32)>,
}

/// One loop of a compute region and how it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopReport {
    /// The function holding the loop (as in [`RegionReport::function`]).
    pub function: String,
    pub file: String,
    pub line: u32,
    /// The loop's source line, trimmed.
    pub source: String,
    /// "gang vector(128)", "gang(dim:2) worker", "seq"; collapsed loops say
    /// "collapse(n)" first, tiled ones end with "tile(8,*)".
    pub schedule: String,
    pub reason: String,
    /// The loop's `reduction` and `private` clauses as written:
    /// `("reduction(+)", "s")`, `("private", "t")`.
    pub clauses: Vec<(String, String)>,
}

/// What `finish` needs of the module before lowering.
pub struct Written {
    device: String,
    regions: Vec<RegionReport>,
    /// Per region: the reduction variables of its loops.
    reduced: Vec<Vec<String>>,
    /// Per region: its `default` clause.
    defaults: Vec<Option<DefaultKind>>,
    /// Per region: the types of the variables it may name (its function's
    /// locals, then the globals).
    var_types: Vec<HashMap<String, Type>>,
    /// Per function: IR local name → the name the source gives it, where
    /// they differ (Fortran dummies are `arg0`, ...), learnt from the
    /// clauses naming them.
    aliases: HashMap<String, HashMap<String, String>>,
    /// Per function: parameter → the pointer parameter before it, for the
    /// i64 parameters that follow one (a Fortran assumed-shape array's
    /// extents and strides come after its base pointer).
    after_pointer: HashMap<String, HashMap<String, String>>,
    loops: Vec<WrittenLoop>,
}

struct WrittenLoop {
    function: String,
    /// The line of the loop whose `collapse` (false) or `tile` (true)
    /// takes this one in.
    collapsed_into: Option<(u32, bool)>,
    file: u32,
    line: u32,
    tuning: Option<LoopTuning>,
    construct: ComputeKind,
    tile: Option<String>,
    clauses: Vec<(String, String)>,
}

fn file_line(sm: &SourceMap, span: Span) -> (u32, u32) {
    if span.is_dummy() {
        return (span.file, 0);
    }
    (span.file, sm.file(span.file).map_or(0, |f| f.line_col(span.lo).0))
}

fn line_of(sm: &SourceMap, span: Span) -> u32 {
    file_line(sm, span).1
}

fn file_name(sm: &SourceMap, file: u32) -> String {
    sm.file(file).map_or_else(String::new, |f| f.name.clone())
}

fn line_text(sm: &SourceMap, file: u32, line: u32) -> String {
    sm.file(file).filter(|f| line > 0 && (line as usize) <= f.text.matches('\n').count() + 1).map_or_else(String::new, |f| f.line_text(line).trim().to_string())
}

/// Every compute construct of `m` in source order, with its function and
/// the data clauses of the data constructs around it (outermost first).
fn compute_constructs_in_data(m: &Module) -> Vec<(&Function, &ComputeConstruct, Vec<&DataClause>)> {
    type Found<'a> = Vec<(&'a Function, &'a ComputeConstruct, Vec<&'a DataClause>)>;
    fn go<'a>(f: &'a Function, b: &'a Block, around: &mut Vec<&'a DataClause>, out: &mut Found<'a>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Compute(c) => out.push((f, &**c, around.clone())),
                StmtKind::Data(d) => {
                    let n = around.len();
                    around.extend(d.data.iter());
                    go(f, &d.body, around, out);
                    around.truncate(n);
                }
                _ => nested_blocks(s).into_iter().for_each(|nb| go(f, nb, around, out)),
            }
        }
    }
    let mut out = vec![];
    for f in &m.functions {
        go(f, &f.body, &mut vec![], &mut out);
    }
    out
}

/// `x[0:n]`, `a(1:n)` → `x`, `a`.
fn clause_root(text: &str) -> &str {
    let t = text.trim();
    t.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or(t)
}

impl Written {
    /// Read `parsed` (the front end's module, before `lower`) for `device`.
    pub fn of(parsed: &Module, sm: &SourceMap, device: &str) -> Written {
        let mut w = Written {
            device: device.to_string(),
            regions: vec![],
            reduced: vec![],
            defaults: vec![],
            var_types: vec![],
            aliases: HashMap::new(),
            after_pointer: HashMap::new(),
            loops: vec![],
        };
        for (f, c, around) in compute_constructs_in_data(parsed) {
            let mut clauses = vec![];
            let mut added = vec![];
            for d in &c.data {
                for v in &d.vars {
                    if d.span == c.span {
                        added.push(clauses.len());
                    }
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
            let tuning = c.tuning.resolve(device);
            let value = |e| accjit_ir::build::const_int(f, e).map_or_else(|| "run time".to_string(), |v| v.to_string());
            let mut launch = vec![];
            if !tuning.num_gangs.is_empty() {
                launch.push(("num_gangs".into(), tuning.num_gangs.iter().map(|e| value(*e)).collect::<Vec<_>>().join(", ")));
            }
            if let Some(e) = tuning.num_workers {
                launch.push(("num_workers".into(), value(e)));
            }
            if let Some(e) = tuning.vector_length {
                launch.push(("vector_length".into(), value(e)));
            }
            if let Some(q) = tuning.async_ {
                launch.push(("async".into(), q.map_or_else(|| "the default queue".to_string(), value)));
            }
            let enclosing = around.iter().flat_map(|d| d.vars.iter().map(|v| (clause_root(&v.text).to_string(), line_of(sm, d.span)))).collect();
            let (file, line) = file_line(sm, c.span);
            w.regions.push(RegionReport {
                kind: c.kind.name().to_string(),
                file: file_name(sm, file),
                line,
                source: line_text(sm, file, line),
                function: f.name.clone(),
                clauses,
                added,
                implicit: vec![],
                launch,
                kernels: vec![],
                enclosing,
            });
            let mut names = vec![];
            // Loops of a collapsed or tiled nest below its first: span → the
            // first's line, and whether it is a tile.
            let mut collapsed: HashMap<Span, (u32, bool)> = HashMap::new();
            visit_stmts(&c.body, &mut |_, s| {
                if let StmtKind::For { acc, body, .. } = &s.kind {
                    let t = acc.as_ref().map(|d| d.tuning.resolve(device));
                    let collapse = t.as_ref().and_then(|t| t.collapse).map_or(1, |(n, _)| n);
                    let tiled = t.as_ref().map_or(0, |t| t.tile.len() as u32);
                    let depth = collapse.max(tiled);
                    let mut inner = body;
                    for _ in 1..depth {
                        let Some((span, next)) = inner.stmts.iter().find_map(|s| match &s.kind {
                            StmtKind::For { body, .. } => Some((s.span, body)),
                            _ => None,
                        }) else {
                            break;
                        };
                        collapsed.insert(span, (file_line(sm, s.span).1, tiled > collapse));
                        inner = next;
                    }
                    if let Some(d) = acc {
                        names.extend(d.reductions.iter().flat_map(|r| r.vars.iter().map(|v| clause_root(&v.text).to_string())));
                    }
                    let (file, line) = file_line(sm, s.span);
                    let (file, line) = if line == 0 { acc.as_ref().map_or((file, 0), |d| file_line(sm, d.span)) } else { (file, line) };
                    let tuning = acc.as_ref().map(|d| d.tuning.resolve(device));
                    let tile = tuning.as_ref().filter(|t| !t.tile.is_empty()).map(|t| {
                        let sizes: Vec<String> = t.tile.iter().map(|e| e.map_or_else(|| "*".to_string(), value)).collect();
                        format!("tile({})", sizes.join(","))
                    });
                    let mut clauses = vec![];
                    if let Some(d) = acc {
                        for r in &d.reductions {
                            clauses.extend(r.vars.iter().map(|v| (format!("reduction({})", r.op.symbol()), v.text.clone())));
                        }
                        clauses.extend(d.private.iter().map(|v| ("private".to_string(), v.text.clone())));
                    }
                    let collapsed_into = collapsed.get(&s.span).copied();
                    w.loops.push(WrittenLoop { function: f.name.clone(), collapsed_into, file, line, tuning, construct: c.kind, tile, clauses });
                }
            });
            if c.combined {
                // A combined construct's reductions are its loop's too.
                names.extend(c.reductions.iter().flat_map(|r| r.vars.iter().map(|v| clause_root(&v.text).to_string())));
            }
            w.reduced.push(names);
            w.defaults.push(c.default);
            let mut types: HashMap<String, Type> = HashMap::new();
            for l in &f.locals {
                types.entry(l.name.clone()).or_insert_with(|| l.ty.clone());
            }
            for g in &parsed.globals {
                types.entry(g.name.clone()).or_insert_with(|| g.ty.clone());
            }
            w.var_types.push(types);
            let mut last_pointer: Option<&str> = None;
            let after = w.after_pointer.entry(f.name.clone()).or_default();
            for l in f.locals.iter().take(f.sig.params.len()) {
                match (&l.ty, last_pointer) {
                    (Type::Ptr(_), _) => last_pointer = Some(&l.name),
                    (&Type::I64, Some(base)) => {
                        after.insert(l.name.clone(), base.to_string());
                    }
                    _ => last_pointer = None,
                }
            }
            let aliases = w.aliases.entry(f.name.clone()).or_default();
            let mut learn = |v: &accjit_ir::VarRef| {
                if let accjit_ir::ExprKind::Local(l) = f.expr(v.root).kind {
                    let (ir, src) = (&f.local(l).name, clause_root(&v.text));
                    if ir != src && !src.is_empty() {
                        aliases.entry(ir.clone()).or_insert_with(|| src.to_string());
                    }
                }
            };
            c.data.iter().chain(around.iter().copied()).flat_map(|d| &d.vars).for_each(&mut learn);
            c.private.iter().chain(&c.firstprivate).chain(c.reductions.iter().flat_map(|r| &r.vars)).for_each(&mut learn);
            visit_stmts(&c.body, &mut |_, s| {
                if let StmtKind::For { acc: Some(d), .. } = &s.kind {
                    d.private.iter().chain(d.reductions.iter().flat_map(|r| &r.vars)).for_each(&mut learn);
                }
            });
        }
        w.loops.sort_by_key(|l| (l.file, l.line));
        w.loops.dedup_by_key(|l| (l.file, l.line));
        w
    }

    /// The report, from the lowered module of the same program.
    pub fn finish(mut self, lowered: &Module, sm: &SourceMap) -> Report {
        self.implicit_attributes(lowered, sm);
        let mut loops = self.loop_report(lowered, sm);
        for l in &mut loops {
            for (ir, src) in self.aliases.get(&l.function).into_iter().flatten() {
                l.reason = l.reason.replace(&format!("`{ir}`"), &format!("`{src}`"));
            }
        }
        Report { device_type: self.device, regions: self.regions, loops }
    }

    /// Fill each region's `kernels` and `implicit` from the lowered module:
    /// a kernel belongs to the region of its file starting last at or before
    /// its line (compute regions do not nest); each of its parameters that no
    /// clause of the region names is a variable the compiler chose an
    /// attribute for.
    fn implicit_attributes(&mut self, lowered: &Module, sm: &SourceMap) {
        for k in &lowered.kernels {
            let (file, line) = file_line(sm, k.span);
            let file = file_name(sm, file);
            // The region of the kernel's file starting last at or before it.
            let Some(r) =
                (0..self.regions.len()).filter(|&i| self.regions[i].file == file && self.regions[i].line <= line).max_by_key(|&i| self.regions[i].line)
            else {
                continue;
            };
            let region = &self.regions[r];
            let named = |v: &str| region.clauses.iter().any(|(_, c)| clause_root(c) == v);
            let is_extent = |v: &str| {
                v.rsplit_once("_shape").or_else(|| v.rsplit_once("_stride")).is_some_and(|(arr, d)| named(arr) && d.bytes().all(|b| b.is_ascii_digit()))
            };
            let found_in = |v: &str| region.enclosing.iter().find(|(n, _)| n == v).map(|(_, l)| *l);
            let mut found = vec![];
            let aliases = self.aliases.get(&region.function);
            // An unnamed i64 parameter after an array's base pointer whose
            // source name differs from the IR's: that array's extent or stride.
            let fortran_extent = |ir: &str| {
                let base = self.after_pointer.get(&region.function).and_then(|a| a.get(ir));
                !aliases.is_some_and(|a| a.contains_key(ir)) && base.is_some_and(|b| aliases.is_some_and(|a| a.contains_key(b)))
            };
            for p in &k.params {
                let ir = p.name.as_str();
                if fortran_extent(ir) {
                    continue;
                }
                let v = aliases.and_then(|a| a.get(ir)).map_or(ir, |s| s.as_str());
                if v.starts_with("__")
                    || named(v)
                    || is_extent(v)
                    || region.implicit.iter().any(|s| s.1 == v)
                    || found.iter().any(|s: &(String, String, String)| s.1 == v)
                {
                    continue;
                }
                let reduction = self.reduced.get(r).is_some_and(|names| names.iter().any(|n| n == v));
                let var_ty = self.var_types.get(r).and_then(|t| t.get(ir));
                let pointer_value = var_ty.is_some_and(|t| t.is_ptr() && *t == p.ty);
                let aggregate = var_ty.is_some_and(|t| matches!(t, Type::Array(..) | Type::Struct(_) | Type::Complex(_) | Type::Desc { .. }));
                let default_present = self.defaults.get(r).copied().flatten() == Some(DefaultKind::Present);
                let present_line = |l: u32| format!("found present: the data region of line {l} put it on the device, nothing moves");
                let (clause, why) = match p.kind {
                    ParamKind::Value if !p.ty.is_ptr() => ("firstprivate", "a scalar the region reads: its value at the region's start".to_string()),
                    ParamKind::Value => ("firstprivate", "a pointer value captured at the region's start".to_string()),
                    ParamKind::Snapshot => ("firstprivate", "copied when the region starts".to_string()),
                    ParamKind::DeviceAddr if pointer_value => (
                        if default_present { "present" } else { "firstprivate" },
                        match found_in(v) {
                            Some(l) => format!("a pointer: the data it points to is present (the data region of line {l}), the kernel gets its device address"),
                            None => "a pointer with no clause: passed by value, translated to the device copy of the data it points to (present from a data region; the host memory itself on host/multicore)".to_string(),
                        },
                    ),
                    ParamKind::DeviceAddr if reduction => ("copy", "a reduction variable: its result comes back to the host".to_string()),
                    ParamKind::DeviceAddr if default_present && aggregate => ("present", "default(present): it must already be on the device".to_string()),
                    ParamKind::DeviceAddr => match found_in(v) {
                        Some(l) => ("copy", present_line(l)),
                        None if aggregate => ("copy", "an array the region uses with no clause: present if on the device, else copied in and out (§2.6.2)".to_string()),
                        None => ("copy", "a scalar the region updates in place: copied in and out".to_string()),
                    },
                };
                found.push((clause.to_string(), v.to_string(), why));
            }
            let region = &mut self.regions[r];
            region.kernels.push(k.name.clone());
            region.implicit.extend(found);
            // One gang for a region that is not `serial`: nothing in it is
            // partitioned over gangs (a `kernels` part the compiler kept
            // sequential, a region with no gang loop).
            if k.max_gangs == Some(1) && k.construct != ComputeKind::Serial && !region.launch.iter().any(|(c, _)| c == "num_gangs") {
                let what = if region.kernels.len() == 1 && lowered.kernels.iter().filter(|o| o.span == k.span).count() == 1 {
                    "gangs".to_string()
                } else {
                    format!("gangs of {}", k.name)
                };
                region.launch.push((what, "1".into()));
            }
        }
    }

    fn loop_report(&self, lowered: &Module, sm: &SourceMap) -> Vec<LoopReport> {
        let mut run: Vec<((u32, u32), &AccLoop, &str)> = vec![];
        for k in &lowered.kernels {
            visit_stmts(&k.func.body, &mut |_, s| {
                if let StmtKind::AccLoop(l) = &s.kind {
                    // A combined construct's loop has the directive's span,
                    // its statement the `for`'s: the loop's line is the later.
                    let (a, b) = (file_line(sm, l.span), file_line(sm, s.span));
                    let function = self.regions.iter().find(|r| r.kernels.contains(&k.name)).map_or("", |r| r.function.as_str());
                    run.push((if b.1 > a.1 { b } else { a }, l, function));
                }
            });
        }
        let mut out = vec![];
        for w in &self.loops {
            let found = run.iter().find(|(at, _, _)| *at == (w.file, w.line)).map(|(_, l, _)| *l);
            let in_kernels = w.construct == ComputeKind::Kernels;
            let (mut schedule, reason) = match (found, &w.tuning) {
                (None, _) if w.collapsed_into.is_some() => {
                    let (line, tile) = w.collapsed_into.unwrap_or_default();
                    if tile {
                        ("tiled".to_string(), format!("tiled with the loop of line {line}: a dimension of its tiles"))
                    } else {
                        ("collapsed".to_string(), format!("collapsed into the loop of line {line}: one iteration space"))
                    }
                }
                (Some(l), t) => {
                    let reason = match (&l.auto, t) {
                        (Some(AutoChoice::Parallel), _) => "the compiler chose it: the dependence test proved the iterations independent".to_string(),
                        (Some(AutoChoice::Sequential(why)), _) => format!("the compiler kept it sequential: {why}"),
                        (None, Some(t)) if t.gang.is_some() || t.worker.is_some() || t.vector.is_some() => "as written".to_string(),
                        (None, Some(t)) if t.seq => "seq as written".to_string(),
                        (None, _) if in_kernels => "no level given: independent loop, levels chosen by the compiler".to_string(),
                        (None, _) => "no level given: loops in a parallel region are independent; levels chosen by the compiler".to_string(),
                    };
                    (levels(l), reason)
                }
                (None, Some(t)) if t.seq => ("seq".to_string(), "seq as written".to_string()),
                (None, Some(_)) => ("seq".to_string(), "inside a partitioned loop (or collapsed into it): each executor runs it sequentially".to_string()),
                (None, None) if in_kernels => ("seq".to_string(), "a loop with no directive: the compiler kept it sequential".to_string()),
                (None, None) => (
                    "seq".to_string(),
                    "a loop with no directive in a parallel/serial region runs sequentially in each executor (add a loop directive to partition it)"
                        .to_string(),
                ),
            };
            if let Some(t) = &w.tile {
                // A tile's loops are one nest in the lowered loop: its
                // "collapse(n)" is the tile's, not written.
                if w.tuning.as_ref().is_some_and(|t| t.collapse.is_none()) && schedule.starts_with("collapse(") {
                    schedule = schedule.split_once(' ').map_or(schedule.clone(), |(_, rest)| rest.to_string());
                }
                schedule = format!("{schedule} {t}");
            }
            out.push(LoopReport {
                function: w.function.clone(),
                file: file_name(sm, w.file),
                line: w.line,
                source: line_text(sm, w.file, w.line),
                schedule,
                reason,
                clauses: w.clauses.clone(),
            });
        }
        // Loops the lowered kernels have that the written ones do not (none
        // expected; shown rather than hidden).
        for ((file, line), l, function) in run {
            if !self.loops.iter().any(|w| (w.file, w.line) == (file, line)) {
                out.push(LoopReport {
                    function: function.to_string(),
                    file: file_name(sm, file),
                    line,
                    source: line_text(sm, file, line),
                    schedule: levels(l),
                    reason: "made by the compiler".into(),
                    clauses: vec![],
                });
            }
        }
        out.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
        out
    }
}

/// The levels a canonical loop runs on, as `-Minfo` would name them.
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

#[cfg(test)]
mod tests {
    use crate::{compile_c, Options};

    const SRC: &str = r#"
float a[64];
void f(int n, float s, float *y) {
    #pragma acc data copy(a)
    {
    #pragma acc parallel loop copy(y[0:n]) vector_length(32)
    for (int i = 0; i < n; i++) y[i] = s * a[i];
    #pragma acc kernels
    for (int i = 1; i < n; i++) y[i] = y[i - 1] + 1.0f;
    }
    float t = 0;
    #pragma acc parallel loop reduction(+:t) collapse(2)
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) t += a[i * 8 + j];
}
"#;

    #[test]
    fn regions_loops_and_implicit_attributes() {
        let opts = Options { device_type: "host".into(), ..Options::default() };
        let p = compile_c("r.c", SRC, &opts).unwrap();
        let r = p.report();
        assert_eq!(r.device_type, "host");
        let kinds: Vec<(&str, u32)> = r.regions.iter().map(|r| (r.kind.as_str(), r.line)).collect();
        assert_eq!(kinds, [("parallel", 6), ("kernels", 8), ("parallel", 12)]);
        let first = &r.regions[0];
        assert_eq!(first.function, "f");
        assert_eq!(first.clauses, [("copy".to_string(), "y[0:n]".to_string())]);
        assert_eq!(first.launch, [("vector_length".to_string(), "32".to_string())]);
        assert_eq!(first.kernels.len(), 1);
        let implicit = |r: &super::RegionReport, v: &str| r.implicit.iter().find(|i| i.1 == v).cloned();
        let s = implicit(first, "s").expect("s is implicitly firstprivate");
        assert_eq!(s.0, "firstprivate");
        let a = implicit(first, "a").expect("a has an implicit attribute");
        assert!(a.0 == "copy" && a.2.contains("found present") && a.2.contains("line 4"), "{a:?}");
        let t = implicit(&r.regions[2], "t").or_else(|| r.regions[2].clauses.iter().find(|c| c.1 == "t").map(|c| (c.0.clone(), c.1.clone(), String::new())));
        assert!(t.is_some_and(|t| t.0 == "copy"), "the reduction variable comes back: {:?}", r.regions[2]);
        let lp = |line: u32| r.loops.iter().find(|l| l.line == line).unwrap_or_else(|| panic!("no loop at line {line}: {:?}", r.loops));
        assert_eq!(lp(7).schedule, "gang vector(32)");
        assert_eq!(lp(9).schedule, "seq");
        assert!(lp(9).reason.contains("sequential") && lp(9).reason.contains("`y`"), "{}", lp(9).reason);
        assert!(lp(13).schedule.starts_with("collapse(2)") && lp(13).schedule.contains("gang"), "{}", lp(13).schedule);
        assert_eq!(lp(13).clauses, [("reduction(+)".to_string(), "t".to_string())]);
        assert!(lp(7).source.starts_with("for (int i = 0"));
        assert_eq!((lp(14).schedule.as_str(), lp(14).reason.contains("collapsed into the loop of line 13")), ("collapsed", true));
    }

    #[test]
    fn tiled_nest() {
        let src = "void t(int n, float *a) {\n#pragma acc parallel loop tile(8,*) copy(a[0:n*n])\nfor (int i = 0; i < n; i++)\n  for (int j = 0; j < n; j++) a[i*n+j] += 1;\n}\n";
        let p = compile_c("t.c", src, &Options::default()).unwrap();
        let r = p.report();
        let (outer, inner) = (&r.loops[0], &r.loops[1]);
        assert!(outer.schedule.ends_with("tile(8,*)") && outer.schedule.contains("gang") && !outer.schedule.contains("collapse"), "{}", outer.schedule);
        assert_eq!((inner.line, inner.schedule.as_str()), (4, "tiled"));
    }
}
